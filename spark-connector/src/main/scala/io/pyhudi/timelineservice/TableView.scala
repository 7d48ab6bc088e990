// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timelineservice

import java.util.concurrent.{CompletableFuture, ConcurrentHashMap}

import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, FileSystemView, PartitionLister}
import io.pyhudi.services.clean.CleanPlanner
import io.pyhudi.services.compaction.CompactionTransaction
import io.pyhudi.storage.{FileInfo, Storage}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.Instant

/**
 * The file-system view questions tasks ask, answered from one table's timeline and partition
 * listings. The timeline service keeps one per table and shares it between requests: each
 * partition is listed once, on first use (concurrent requests for one partition wait for one
 * listing), and everything is dropped when a request names a completed instant newer than the
 * view's ([[sync]]). Built fresh, it is also the local view a task falls back to.
 */
final class TableView(storage: Storage, val basePath: String) extends ViewQueries {

  private final class State(val table: HoodieTable) {
    val latest: String = table.timeline.latestCompletedWrite.map(_.timestamp).getOrElse("")
    val partitions = new ConcurrentHashMap[String, CompletableFuture[Seq[FileInfo]]]()
    @volatile var allPartitions: Option[Seq[String]] = None
  }

  @volatile private var state = new State(HoodieTable.open(basePath, storage))

  /** The latest completed write the view reflects ("" for none). */
  def latestInstant: String = state.latest

  /** Reloads when the caller has seen a completed write this view has not (`lastInstant` newer). */
  def sync(lastInstant: Option[String]): Unit =
    if (lastInstant.exists(_ > state.latest)) refresh()

  def refresh(): Unit = synchronized { state = new State(state.table.reload()) }

  override def timeline: Seq[Instant] = state.table.timeline.instants

  override def partitions: Seq[String] = {
    val s = state
    s.allPartitions.getOrElse {
      val listed = PartitionLister.list(storage, basePath)
      listed.foreach { case (p, files) => s.partitions.putIfAbsent(p, CompletableFuture.completedFuture(files)) }
      val names = listed.map(_._1)
      s.allPartitions = Some(names)
      names
    }
  }

  /** Partition folders this view listed (tests check that shared requests list each once). */
  val listings = new java.util.concurrent.atomic.AtomicLong()

  private def files(partition: String): Seq[FileInfo] = {
    val s = state
    s.partitions.computeIfAbsent(partition,
      p =>
        CompletableFuture.supplyAsync { () =>
          listings.incrementAndGet()
          PartitionLister.listSome(storage, basePath, Seq(p)).flatMap(_._2)
        }).join()
  }

  private def view(partition: String, asOf: Option[String]): FileSystemView = {
    val s = state
    val at = asOf.getOrElse(s.latest)
    new FileSystemView(s.table.timeline, Seq(partition -> files(partition)), at, replacedFileGroups(Some(at)))
  }

  /**
   * The slice of each file group a snapshot at `asOf` (default: latest) reads. Log files written
   * against a pending compaction belong to the slice before it (pyhudi's view always merges
   * them, which is Apache Hudi's "merged file slices before or on" answer).
   */
  override def latestSlices(partition: String, asOf: Option[String]): Seq[FileSlice] =
    view(partition, asOf).latestSlices

  override def latestBaseFiles(partition: String, asOf: Option[String]): Seq[BaseFile] =
    latestSlices(partition, asOf).flatMap(_.baseFile)

  override def latestBaseFile(partition: String, fileId: String): Option[BaseFile] =
    latestSlices(partition, None).find(_.groupId.fileId == fileId).flatMap(_.baseFile)

  override def allLatestBaseFiles: Seq[BaseFile] = partitions.flatMap(p => latestBaseFiles(p, None))

  /** Pending compaction instants with the file groups their plans read, oldest first. */
  override def pendingCompactions: Seq[(String, Seq[FileGroupId])] =
    CompactionTransaction.pendingCompactions(state.table).map { case (t, plan) =>
      t -> plan.operations.getOrElse(Nil).flatMap(op => op.fileId.map(FileGroupId(op.partitionPath.getOrElse(""), _)))
    }

  /** File groups that pending clustering plans read. */
  override def pendingClusteringGroups: Seq[FileGroupId] =
    CleanPlanner.pendingClusteringGroups(state.table).toSeq.sortBy(g => (g.partitionPath, g.fileId))

  /** File groups replaced by replacecommits completed at or before `asOf` (default: latest). */
  override def replacedFileGroups(asOf: Option[String]): Set[FileGroupId] = {
    val s = state
    FileSystemView.replacedFileGroups(s.table.timeline, asOf.getOrElse(s.latest), s.table.commitMetadata)
  }
}
