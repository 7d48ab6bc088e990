// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.services

import scala.util.control.NonFatal

import org.apache.spark.SparkContext
import org.apache.spark.scheduler.{SparkListener, SparkListenerApplicationEnd}
import org.apache.spark.sql.SparkSession

import io.pyhudi.config.WriteConfig
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.storage.Storage
import io.pyhudi.timelineservice.{TimelineService, TimelineServiceConfig}
import io.pyhudi.write.commit.MarkerType

/**
 * The driver's timeline service (`hoodie.embed.timeline.server`): one per SparkContext,
 * started by the first write that wants it, reused by later writes and table services, stopped
 * when the application ends. It binds to loopback when Spark runs locally and to the driver
 * host otherwise. When it cannot start, writes use direct markers: a service problem never
 * fails a write.
 */
object EmbeddedTimelineService {

  private val log = org.slf4j.LoggerFactory.getLogger(getClass)
  private var current: Option[(SparkContext, TimelineService)] = None
  private var stopAfter: Option[Int] = None

  /** The service's host:port for a write of `basePath`, or None when markers are direct. */
  def forWrite(spark: SparkSession, basePath: String, options: Map[String, String]): Option[String] = synchronized {
    if (!WriteConfig.EmbedTimelineServer.from(options).get ||
      WriteConfig.MarkersType.from(options).get != MarkerType.TimelineServerBased) None
    else {
      val sc = spark.sparkContext
      val running = current.filter { case (ctx, s) => (ctx eq sc) && !ctx.isStopped && s.isRunning }.map(_._2)
      running.orElse {
        current.foreach { case (_, s) => closeQuietly(s) }
        current = None
        start(spark, options).map { s =>
          current = Some(sc -> s)
          sc.addSparkListener(new SparkListener {
            override def onApplicationEnd(end: SparkListenerApplicationEnd): Unit = stop()
          })
          s
        }
      }.map { s =>
        s.register(basePath)
        stopAfter.foreach(n => s.stopAfterMarkers(n))
        stopAfter = None
        s.address
      }
    }
  }

  /** The instant whose markers live in `markerFolder` ended: the service forgets the folder. */
  def instantEnded(markerFolder: String): Unit = synchronized(current.foreach(_._2.instantEnded(markerFolder)))

  /** The running service's port, or -1 (tests, docs). */
  def port: Int = synchronized(current.filter(_._2.isRunning).map(_._2.port).getOrElse(-1))

  /** Test hook: the next write's service stops serving after `n` more marker requests, as a crash would. */
  def stopAfterMarkers(n: Int): Unit = synchronized { stopAfter = Some(n) }

  def stop(): Unit = synchronized {
    current.foreach { case (_, s) => closeQuietly(s) }
    current = None
  }

  private def start(spark: SparkSession, options: Map[String, String]): Option[TimelineService] = {
    val sc = spark.sparkContext
    val host =
      if (sc.isLocal) "127.0.0.1"
      else sc.getConf.getOption("spark.driver.bindAddress").orElse(sc.getConf.getOption("spark.driver.host"))
        .getOrElse(java.net.InetAddress.getLocalHost.getHostAddress)
    val config = TimelineServiceConfig(host, WriteConfig.EmbedTimelineServerPort.from(options).get,
      WriteConfig.MarkersBatchNumThreads.from(options).get, WriteConfig.MarkersBatchIntervalMs.from(options).get)
    try {
      val s = new TimelineService(new Storage(ParquetReaderShim.hadoopConf(spark, options)), config)
      log.info(s"Started the timeline service at ${s.address}")
      Some(s)
    } catch {
      case NonFatal(e) =>
        log.warn(s"Could not start the timeline service on $host:${config.port} (${e.getMessage}); " +
          "writes use direct markers")
        None
    }
  }

  private def closeQuietly(s: TimelineService): Unit =
    try s.close()
    catch { case NonFatal(e) => log.warn("Stopping the timeline service failed", e) }
}
