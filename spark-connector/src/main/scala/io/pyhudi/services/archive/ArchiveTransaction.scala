// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.archive

import io.pyhudi.table.{CrashPoint, HoodieTable, MetadataTable}
import io.pyhudi.timeline.{Action, Instant, State, Timeline, TimelineWriter}
import io.pyhudi.timeline.avro.ArchivedMetaEntry
import io.pyhudi.transaction.ConcurrencyConfig

/**
 * One archival, under the table lock (writers start and commit instants only under it, so the
 * timeline cannot change underneath): finish what an interrupted archival left, plan, write the
 * entries of every state file of the planned instants into a new archive file, and only then
 * delete those state files from `.hoodie/`.
 *
 * Deleting order: first every requested and inflight file, then the completed files, oldest
 * first. A crash at any point so leaves each instant either completed or gone and the active
 * timeline a suffix of itself: never a pending-looking instant (whose data readers would hide),
 * never a hole (a newer commit gone while an older one stays would hide its data, since data
 * of instants missing from the timeline is committed only when it sorts before the first write).
 *
 * Re-running is safe: an entry already in the newest archive file (where an interrupted run left
 * its entries) is not written again, and the instants at the start of the active timeline that it
 * records as completed are the remains of an interrupted archival, whose files the next run
 * deletes before it plans.
 */
object ArchiveTransaction {

  /** Crash points of the crash tests ([[io.pyhudi.table.CrashPoint]]). */
  val CrashAfterArchiveFile = "archive-file-written"
  val CrashAfterFirstCompletedDelete = "archive-first-completed-deleted"

  /** Archives what the plan allows; returns the instants moved off the active timeline, oldest first. */
  def archive(table: HoodieTable, config: ArchiveConfig,
      concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): Seq[Instant] =
    concurrency.withLock(table.storage, table.metaPath) {
      run(table, config)
    }

  private def run(table: HoodieTable, config: ArchiveConfig): Seq[Instant] = {
    val storage = table.storage
    val writer = new TimelineWriter(storage, table.metaPath)
    val folder = ArchivedTimeline.folder(table)
    // Each archival writes a file of its own, so the entries of an interrupted one are all in the
    // newest file; reading only that one keeps every commit's archival check small.
    val archived = ArchivedTimeline.newestInstants(storage, folder).toSet
    val finished = Timeline(writer.stateFiles()).instants.takeWhile(i => i.isCompleted && archived(i))
    if (finished.nonEmpty) deleteStateFiles(writer, finished.map(_.timestamp).toSet)

    val current = table.reload()
    val plan = ArchivePlanner.plan(current, config)
    if (plan.nonEmpty) {
      // Apache Hudi's metadata table would lag behind an archived timeline: drop it as any change does.
      MetadataTable.removeIfPresent(storage, table.basePath, "archiving")
      val times = plan.map(_.timestamp).toSet
      val files = stateFiles(writer, times)
      val entries = files.filterNot(archived).map(i => ArchivedMetaEntry.of(i, content(writer, i), writer.path(i)))
      if (entries.nonEmpty) ArchivedTimeline.append(storage, folder, entries)
      CrashPoint(CrashAfterArchiveFile)
      deleteStateFiles(writer, times)
    }
    finished ++ plan
  }

  /** A state file's bytes; an (empty) inflight compaction archives its plan, as Hudi does. */
  private def content(writer: TimelineWriter, i: Instant): Array[Byte] = {
    val bytes = writer.read(i)
    val requested = Instant(i.timestamp, i.action, State.Requested)
    if (bytes.isEmpty && i.state == State.Inflight && (i.action == Action.Compaction || i.action == Action.LogCompaction))
      writer.read(requested)
    else bytes
  }

  /** The state files of instants at `times` (savepoints are never archived), oldest first, requested before inflight before completed. */
  private def stateFiles(writer: TimelineWriter, times: Set[String]): Seq[Instant] =
    writer.stateFiles().filter(i => times(i.timestamp) && i.action != Action.Savepoint).sortBy(i =>
      (i.timestamp, rank(i)))

  private def rank(i: Instant): Int = i.state match {
    case State.Requested => 0
    case State.Inflight => 1
    case State.Completed => 2
  }

  private def deleteStateFiles(writer: TimelineWriter, times: Set[String]): Unit = {
    val (completed, pending) = stateFiles(writer, times).partition(_.isCompleted)
    pending.foreach(i => writer.deleteArchived(i))
    completed.zipWithIndex.foreach { case (i, n) =>
      writer.deleteArchived(i)
      if (n == 0) CrashPoint(CrashAfterFirstCompletedDelete)
    }
  }
}
