// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timelineservice

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

import scala.util.control.NonFatal

import org.slf4j.LoggerFactory

import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice}
import io.pyhudi.storage.Storage
import io.pyhudi.timeline.Instant

/** The file-system view questions, answered locally ([[TableView]]) or by the timeline service ([[RemoteTableView]]). */
trait ViewQueries {
  def partitions: Seq[String]
  def latestSlices(partition: String, asOf: Option[String]): Seq[FileSlice]
  def latestBaseFiles(partition: String, asOf: Option[String]): Seq[BaseFile]
  def latestBaseFile(partition: String, fileId: String): Option[BaseFile]
  def allLatestBaseFiles: Seq[BaseFile]
  def pendingCompactions: Seq[(String, Seq[FileGroupId])]
  def pendingClusteringGroups: Seq[FileGroupId]
  def replacedFileGroups(asOf: Option[String]): Set[FileGroupId]
  def timeline: Seq[Instant]
}

/**
 * A table's view through the timeline service at `address`. `lastInstant`, the latest completed
 * write the caller knows of, makes the service refresh its cached view when it is behind.
 */
final class RemoteTableView(address: String, basePath: String, lastInstant: Option[String],
    connectTimeoutMs: Int = 2000, readTimeoutMs: Int = 60000) extends ViewQueries {
  private val client = new TimelineServiceClient(address, connectTimeoutMs, readTimeoutMs)

  private def get(endpoint: String, params: (String, String)*) =
    ViewJson.read(client.get(endpoint,
        (Seq(TimelineService.BasePathParam -> basePath) ++
          lastInstant.map(TimelineService.LastInstantParam -> _) ++ params): _*))

  private def at(asOf: Option[String]) = asOf.map(TimelineService.MaxInstantParam -> _).toSeq

  override def partitions: Seq[String] = ViewJson.toStrings(get(TimelineService.AllPartitions))
  override def latestSlices(partition: String, asOf: Option[String]): Seq[FileSlice] =
    ViewJson.seq(get(TimelineService.LatestSlices, (TimelineService.PartitionParam -> partition) +: at(asOf): _*))(
      ViewJson.toSlice)
  override def latestBaseFiles(partition: String, asOf: Option[String]): Seq[BaseFile] =
    ViewJson.seq(get(TimelineService.LatestBaseFiles, (TimelineService.PartitionParam -> partition) +: at(asOf): _*))(
      ViewJson.toBaseFile)
  override def latestBaseFile(partition: String, fileId: String): Option[BaseFile] =
    ViewJson.seq(get(TimelineService.LatestBaseFile, TimelineService.PartitionParam -> partition,
        TimelineService.FileIdParam -> fileId))(ViewJson.toBaseFile).headOption
  override def allLatestBaseFiles: Seq[BaseFile] =
    ViewJson.seq(get(TimelineService.AllLatestBaseFiles))(ViewJson.toBaseFile)
  override def pendingCompactions: Seq[(String, Seq[FileGroupId])] =
    ViewJson.toPending(get(TimelineService.PendingCompactions))
  override def pendingClusteringGroups: Seq[FileGroupId] =
    ViewJson.seq(get(TimelineService.PendingClustering))(ViewJson.toGroupId)
  override def replacedFileGroups(asOf: Option[String]): Set[FileGroupId] =
    ViewJson.seq(get(TimelineService.ReplacedFileGroups, at(asOf): _*))(ViewJson.toGroupId).toSet
  override def timeline: Seq[Instant] = ViewJson.seq(get(TimelineService.Timeline))(ViewJson.toInstant)
}

/**
 * What a task uses: the service's answers, or, after the first failed request, a view it builds
 * itself (logged once per table and JVM). A broken service costs time, never a wrong answer.
 */
final class FallbackTableView(remote: Option[ViewQueries], local: () => ViewQueries) extends ViewQueries {
  @volatile private var useLocal = remote.isEmpty
  private lazy val localView = local()

  private def ask[T](q: ViewQueries => T): T =
    if (useLocal) q(localView)
    else
      try {
        val answer = q(remote.get)
        FallbackTableView.remoteAnswers.incrementAndGet()
        answer
      } catch {
        case NonFatal(e) =>
          useLocal = true
          FallbackTableView.fellBack(e)
          q(localView)
      }

  override def partitions: Seq[String] = ask(_.partitions)
  override def latestSlices(partition: String, asOf: Option[String]): Seq[FileSlice] =
    ask(_.latestSlices(partition, asOf))
  override def latestBaseFiles(partition: String, asOf: Option[String]): Seq[BaseFile] =
    ask(_.latestBaseFiles(partition, asOf))
  override def latestBaseFile(partition: String, fileId: String): Option[BaseFile] =
    ask(_.latestBaseFile(partition, fileId))
  override def allLatestBaseFiles: Seq[BaseFile] = ask(_.allLatestBaseFiles)
  override def pendingCompactions: Seq[(String, Seq[FileGroupId])] = ask(_.pendingCompactions)
  override def pendingClusteringGroups: Seq[FileGroupId] = ask(_.pendingClusteringGroups)
  override def replacedFileGroups(asOf: Option[String]): Set[FileGroupId] = ask(_.replacedFileGroups(asOf))
  override def timeline: Seq[Instant] = ask(_.timeline)
}

object FallbackTableView {
  private val log = LoggerFactory.getLogger(getClass)
  private val warned = ConcurrentHashMap.newKeySet[String]()

  /** Answers this JVM got from a service, and times it fell back (tests, metrics). */
  val remoteAnswers = new AtomicLong()
  val fallbacks = new AtomicLong()

  private def fellBack(e: Throwable): Unit = {
    fallbacks.incrementAndGet()
    if (warned.add(String.valueOf(e.getClass.getName)))
      log.warn(s"Timeline service unavailable for the file-system view (${e.getMessage}); building it locally")
  }

  /** A task's view of `basePath`: through the service at `address` when there is one. */
  def apply(
      storage: Storage, basePath: String, address: Option[String], lastInstant: Option[String]): FallbackTableView =
    new FallbackTableView(address.map(a => new RemoteTableView(a, basePath, lastInstant)),
      () => new TableView(storage, basePath))
}
