// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timelineservice

import java.net.{InetSocketAddress, URLDecoder}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.{ExecutorService, Executors, TimeUnit}

import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.sun.net.httpserver.{HttpExchange, HttpServer}
import org.slf4j.LoggerFactory

import io.pyhudi.storage.Storage

/** Settings of one timeline service. */
final case class TimelineServiceConfig(
    host: String,
    port: Int = 0,
    markerBatchFiles: Int = 20,
    markerBatchIntervalMs: Long = 50L,
    handlerThreads: Int = 16)

/**
 * A small HTTP service in the driver (Apache Hudi's embedded timeline server): executors send it
 * marker requests, which [[MarkerBatcher]] writes in batches. It answers only for the tables it
 * was registered for ([[register]]); any other path is refused, so a service reachable on the
 * network cannot be used to create or delete files elsewhere.
 *
 * Marker endpoints (query parameters `markerdirpath`, `markername`, as Apache Hudi names them):
 * `POST /v1/hoodie/marker/create` (`true`, or `false` when the marker existed), `GET
 * /v1/hoodie/marker/markers/all` (a JSON array), `GET /v1/hoodie/marker/dir/exists`, `POST
 * /v1/hoodie/marker/dir/delete`. View endpoints (`GET /v1/hoodie/view/...`, parameters
 * `basepath`, `partition`, `fileid`, `maxinstant`, `lastinstantts`) answer from one shared
 * [[TableView]] per table; [[RemoteTableView]] is their client.
 */
final class TimelineService(storage: Storage, config: TimelineServiceConfig) extends AutoCloseable {
  import TimelineService.BadRequest

  private val log = LoggerFactory.getLogger(getClass)
  private val mapper = new ObjectMapper()
  private val batcher = new MarkerBatcher(storage, config.markerBatchFiles, config.markerBatchIntervalMs)
  @volatile private var tables = Map.empty[String, String] // normalized -> as registered
  private val views = new java.util.concurrent.ConcurrentHashMap[String, TableView]()
  @volatile private var running = true
  private val markersLeft = new java.util.concurrent.atomic.AtomicInteger(Int.MaxValue)
  private val handlers: ExecutorService = Executors.newFixedThreadPool(config.handlerThreads,
    (r: Runnable) => {
      val t = new Thread(r, "pyhudi-timeline-service")
      t.setDaemon(true)
      t
    })
  private val server: HttpServer = {
    val s = HttpServer.create(new InetSocketAddress(config.host, config.port), 256)
    s.setExecutor(handlers)
    s.createContext(TimelineService.CreateMarker,
      ex =>
        respond(ex)(markerDir(ex).map { dir =>
          if (markersLeft.decrementAndGet() < 0) { crash(); throw new java.io.IOException("the service stopped") }
          val name = param(ex, TimelineService.MarkerNameParam).getOrElse(throw BadRequest("markername is missing"))
          if (name.isEmpty || name.startsWith("/") || name.contains("..")) throw BadRequest(s"bad marker name $name")
          batcher.create(dir, name).get(TimelineService.RequestTimeoutMs, TimeUnit.MILLISECONDS).toString
        }))
    s.createContext(TimelineService.AllMarkers,
      ex =>
        respond(ex)(markerDir(ex).map { dir =>
          mapper.writeValueAsString(batcher.list(dir).toArray)
        }))
    s.createContext(TimelineService.MarkerDirExists,
      ex => respond(ex)(markerDir(ex).map(d => batcher.exists(d).toString)))
    s.createContext(TimelineService.DeleteMarkerDir,
      ex => respond(ex)(markerDir(ex).map(d => batcher.delete(d).toString)))
    def view(path: String)(answer: (HttpExchange, TableView) => JsonNode): Unit =
      s.createContext(path, ex => respond(ex)(tableView(ex).map(v => ViewJson.write(answer(ex, v)))))
    def partition(ex: HttpExchange): String =
      param(ex, TimelineService.PartitionParam).getOrElse(throw BadRequest("partition is missing"))
    def maxInstant(ex: HttpExchange): Option[String] = param(ex, TimelineService.MaxInstantParam).filter(_.nonEmpty)
    view(TimelineService.AllPartitions)((_, v) => ViewJson.strings(v.partitions))
    view(TimelineService.LatestBaseFiles)((ex, v) =>
      ViewJson.array(v.latestBaseFiles(partition(ex), maxInstant(ex)))(ViewJson.baseFile))
    view(TimelineService.LatestBaseFile) { (ex, v) =>
      val fileId = param(ex, TimelineService.FileIdParam).getOrElse(throw BadRequest("fileid is missing"))
      ViewJson.array(v.latestBaseFile(partition(ex), fileId).toSeq)(ViewJson.baseFile)
    }
    view(TimelineService.AllLatestBaseFiles)((_, v) => ViewJson.array(v.allLatestBaseFiles)(ViewJson.baseFile))
    view(TimelineService.LatestSlices)((ex, v) =>
      ViewJson.array(v.latestSlices(partition(ex), maxInstant(ex)))(ViewJson.slice))
    view(TimelineService.PendingCompactions)((_, v) => ViewJson.pending(v.pendingCompactions))
    view(TimelineService.PendingClustering)((_, v) => ViewJson.array(v.pendingClusteringGroups)(ViewJson.groupId))
    view(TimelineService.ReplacedFileGroups)((ex, v) =>
      ViewJson.array(v.replacedFileGroups(maxInstant(ex)).toSeq.sortBy(g => (g.partitionPath, g.fileId)))(
        ViewJson.groupId))
    view(TimelineService.Timeline)((_, v) => ViewJson.array(v.timeline)(ViewJson.instant))
    s.start()
    s
  }

  /** The shared view of the registered table the request names, brought up to the caller's latest instant. */
  private def tableView(ex: HttpExchange): Either[(Int, String), TableView] =
    param(ex, TimelineService.BasePathParam) match {
      case None => Left(400 -> "basepath is missing")
      case Some(path) =>
        tables.get(TimelineService.normalize(path)) match {
          case None => Left(403 -> s"$path is not a table this service serves")
          case Some(registeredAs) =>
            val v = views.computeIfAbsent(registeredAs, p => new TableView(storage, p))
            v.sync(param(ex, TimelineService.LastInstantParam).filter(_.nonEmpty))
            Right(v)
        }
    }

  /** host:port executors connect to. */
  val address: String = s"${config.host}:${server.getAddress.getPort}"

  def port: Int = server.getAddress.getPort

  def isRunning: Boolean = running

  /**
   * Fault injection for tests: after `n` more marker requests the service stops at once, as a
   * crashed service would; requests in flight and later ones fail.
   */
  def stopAfterMarkers(n: Int): Unit = markersLeft.set(n)

  private def crash(): Unit = {
    running = false
    new Thread(() => server.stop(0), "pyhudi-timeline-service-stop").start()
  }

  /** Serve this table (its base path, as the writer spells it). */
  def register(basePath: String): Unit = synchronized(tables += TimelineService.normalize(basePath) -> basePath)

  def registered(basePath: String): Boolean = tables.contains(TimelineService.normalize(basePath))

  /** The shared view of a registered table, once a request created it. */
  def viewOf(basePath: String): Option[TableView] =
    tables.get(TimelineService.normalize(basePath)).flatMap(p => Option(views.get(p)))

  /** The instant ended (committed or failed): drop the batcher's memory of its marker folder. */
  def instantEnded(markerFolder: String): Unit = batcher.forget(markerFolder)

  /** The marker folder named by the request when it belongs to a registered table's `.hoodie/.temp/`. */
  private def markerDir(ex: HttpExchange): Either[(Int, String), String] =
    param(ex, TimelineService.MarkerDirParam) match {
      case None => Left(400 -> "markerdirpath is missing")
      case Some(dir) =>
        val norm = TimelineService.normalize(dir)
        val owner = tables.keys.find(t => norm.startsWith(s"$t/.hoodie/.temp/") && !norm.contains(".."))
        if (owner.isEmpty) Left(403 -> s"$dir is not a marker folder of a table this service serves")
        else Right(dir)
    }

  private def param(ex: HttpExchange, name: String): Option[String] =
    Option(ex.getRequestURI.getRawQuery).toSeq.flatMap(_.split('&')).map(_.split("=", 2)).collectFirst {
      case Array(k, v) if k == name => URLDecoder.decode(v, UTF_8)
    }

  private def respond(ex: HttpExchange)(answer: => Either[(Int, String), String]): Unit = {
    val (code, body) =
      try answer match {
          case Right(b) => 200 -> b
          case Left(err) => err
        }
      catch {
        case BadRequest(m) => 400 -> m
        case NonFatal(e) =>
          log.warn(s"Timeline service request ${ex.getRequestURI} failed", e)
          500 -> String.valueOf(e.getMessage)
      }
    val bytes = body.getBytes(UTF_8)
    try {
      ex.sendResponseHeaders(code, bytes.length.toLong)
      ex.getResponseBody.write(bytes)
    } finally ex.close()
  }

  override def close(): Unit = {
    running = false
    server.stop(0)
    handlers.shutdownNow()
    batcher.close()
  }
}

object TimelineService {
  private final case class BadRequest(message: String) extends Exception(message)

  val CreateMarker = "/v1/hoodie/marker/create"
  val AllMarkers = "/v1/hoodie/marker/markers/all"
  val MarkerDirExists = "/v1/hoodie/marker/dir/exists"
  val DeleteMarkerDir = "/v1/hoodie/marker/dir/delete"
  val MarkerDirParam = "markerdirpath"
  val MarkerNameParam = "markername"

  val AllPartitions = "/v1/hoodie/view/partitions/all"
  val LatestBaseFiles = "/v1/hoodie/view/basefiles/latest/partition"
  val LatestBaseFile = "/v1/hoodie/view/basefile/latest/partition/file"
  val AllLatestBaseFiles = "/v1/hoodie/view/basefiles/all/latest"
  val LatestSlices = "/v1/hoodie/view/slices/beforeoron/latest"
  val PendingCompactions = "/v1/hoodie/view/compactions/pending"
  val PendingClustering = "/v1/hoodie/view/clustering/pending"
  val ReplacedFileGroups = "/v1/hoodie/view/filegroups/replaced/beforeoron"
  val Timeline = "/v1/hoodie/timeline/instants/all"
  val BasePathParam = "basepath"
  val PartitionParam = "partition"
  val FileIdParam = "fileid"
  val MaxInstantParam = "maxinstant"
  val LastInstantParam = "lastinstantts"

  /** How long a create request waits for its batch to be written. */
  val RequestTimeoutMs = 60000L

  /** Paths compare without a trailing slash and without the `file:` scheme's spelling differences. */
  def normalize(path: String): String =
    path.stripSuffix("/").replaceFirst("^file:/+", "/")
}
