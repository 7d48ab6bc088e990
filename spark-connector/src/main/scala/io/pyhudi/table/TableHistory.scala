// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import io.pyhudi.index.IndexLookup
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State}

/**
 * One instant of a table's active timeline as `HudiTable.history()` shows it.
 *
 * @param action        the action of the instant's most advanced state file (a completed
 *                      compaction is a `commit`)
 * @param operation     the write operation from commit metadata (`compact` for compactions,
 *                      the action itself for clean/rollback/savepoint/restore); None while pending
 * @param startedAt     modification time (epoch ms) of the instant's earliest state file
 * @param completedAt   modification time of its completed file; table version 6 records no
 *                      completion time, so the file's time stands in for it
 * @param indexLookup   what the write's index lookup did, when pyhudi wrote it with one
 */
final case class HistoryEntry(
    instant: String,
    action: String,
    state: String,
    operation: Option[String],
    rowsInserted: Long,
    rowsUpdated: Long,
    rowsDeleted: Long,
    filesWritten: Long,
    bytesWritten: Long,
    startedAt: Option[Long],
    completedAt: Option[Long],
    indexLookup: Option[IndexLookup]) {

  def durationMs: Option[Long] = for (s <- startedAt; c <- completedAt) yield math.max(0L, c - s)
}

/** The active timeline as rows: metadata-sized work on the driver, one file read per write. */
object TableHistory {

  def entries(table: HoodieTable): Seq[HistoryEntry] = {
    // Every state file of an instant starts with its time: group them to date the instant.
    val times: Map[String, Seq[(Instant, Long)]] = table.storage.listFiles(table.metaPath)
      .flatMap(f => Instant.fromFileName(f.name).map(i => (i, f.modificationTime)))
      .groupBy(_._1.timestamp)
    table.timeline.instants.map { i =>
      val files = times.getOrElse(i.timestamp, Nil)
      val metadata = if (i.isCompleted && Action.Writes(i.action)) Some(table.commitMetadata(i)) else None
      entry(i, metadata, files.map(_._2).minOption,
        files.collectFirst {
          case (f, t) if f.state == State.Completed => t
        })
    }
  }

  /** The row of one instant given its commit metadata (completed writes only) and file times. */
  def entry(i: Instant, metadata: Option[CommitMetadata], startedAt: Option[Long],
      completedAt: Option[Long]): HistoryEntry = {
    val stats = metadata.map(_.writeStats.filter(_.path.isDefined)).getOrElse(Nil)
    val operation = metadata match {
      case Some(m) if m.compacted => Some("compact")
      case Some(m) => m.operationType.map(_.toLowerCase(java.util.Locale.ROOT))
      case None if i.isCompleted && !Action.Writes(i.action) => Some(i.action)
      case None => None
    }
    HistoryEntry(
      instant = i.timestamp,
      action = i.action,
      state = stateName(i.state),
      operation = operation,
      rowsInserted = stats.map(_.numInserts).sum,
      rowsUpdated = stats.map(_.numUpdateWrites).sum,
      rowsDeleted = stats.map(_.numDeletes).sum,
      filesWritten = stats.size.toLong,
      bytesWritten = stats.map(_.totalWriteBytes).sum,
      startedAt = startedAt,
      completedAt = completedAt,
      indexLookup = metadata.flatMap(m => IndexLookup.fromExtraMetadata(m.extraMetadata)))
  }

  def stateName(s: State): String = s match {
    case State.Requested => "requested"
    case State.Inflight => "inflight"
    case State.Completed => "completed"
  }
}
