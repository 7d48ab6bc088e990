// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.merge

import scala.collection.mutable

import org.apache.spark.sql.catalyst.InternalRow

/** The state of one key after replaying log blocks: a record, or a delete. */
sealed trait LogEntry
final case class LogRecord(row: InternalRow, ordering: Any) extends LogEntry

/** @param ordering None for a natural-order delete (removes the key whatever its ordering) */
final case class LogDelete(ordering: Option[Any]) extends LogEntry

/**
 * Replays the valid log blocks of one file slice, oldest first, into the latest entry per key.
 * Rows added here must be owned by the map (copied), since readers reuse their row objects.
 */
final class LogRecords(hasOrdering: Boolean) {
  private val entries = mutable.LinkedHashMap.empty[String, LogEntry]

  def addRecord(key: String, row: InternalRow, ordering: Any): Unit = {
    val incoming = LogRecord(row, ordering)
    entries.get(key) match {
      case Some(LogRecord(_, old)) if hasOrdering && OrderingValues.compare(old, ordering) > 0 => ()
      case Some(LogDelete(Some(d))) if hasOrdering && OrderingValues.compare(d, ordering) > 0 => ()
      case _ => entries.update(key, incoming)
    }
  }

  def addDelete(key: String, ordering: Option[Any]): Unit = entries.get(key) match {
    // An ordered delete older than the logged record loses to it (Hudi's delete pre-combine).
    case Some(LogRecord(_, old)) if hasOrdering && ordering.exists(d => OrderingValues.compare(d, old) < 0) => ()
    case _ => entries.update(key, LogDelete(ordering))
  }

  /** Removes and returns the entry of `key`. */
  def take(key: String): Option[LogEntry] = entries.remove(key)

  /** Records left after the base file was merged: keys the base file did not have. */
  def remainingRecords: Iterator[InternalRow] =
    entries.valuesIterator.collect { case LogRecord(row, _) => row }

  def isEmpty: Boolean = entries.isEmpty
  def size: Int = entries.size
}
