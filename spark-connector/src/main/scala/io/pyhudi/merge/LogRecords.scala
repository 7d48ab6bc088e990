// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.merge

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.unsafe.types.UTF8String

/** The state of one key after replaying log blocks: a record, or a delete. */
sealed trait LogEntry
final case class LogRecord(row: InternalRow, ordering: Any) extends LogEntry

/** @param ordering None for a natural-order delete (removes the key whatever its ordering) */
final case class LogDelete(ordering: Option[Any]) extends LogEntry

/**
 * A record of a partial-column block: `row` sets the columns at `written` (ordinals of the row's
 * schema) and leaves the others as they are; `orderingOrdinal` (-1: none) is its column group's
 * ordering column.
 */
final case class LogPartial(row: InternalRow, written: Array[Int], orderingOrdinal: Int) extends LogEntry

/**
 * A key's entries in log order once a partial-column record is among them: they cannot be
 * combined without the base row, so [[ColumnStitching]] applies them to it one by one.
 */
final case class LogChain(entries: Vector[LogEntry]) extends LogEntry

/**
 * Replays the valid log blocks of one file slice, oldest first, into the latest entry per key.
 * Rows added here must be owned by the map (copied), since readers reuse their row objects.
 */
final class LogRecords(hasOrdering: Boolean) {
  // Keyed by the key's UTF-8 bytes, so a base row's key is looked up without decoding it.
  private val entries = new java.util.LinkedHashMap[UTF8String, LogEntry]()

  // Most base rows have no log entry. A bitset of the keys' hashes, small enough to stay in
  // cache, answers those lookups without reaching into the map's nodes scattered over the heap
  // (a cache miss per lookup made the lookups most of a merge-on-read scan). Built on the first
  // lookup after the last add.
  private var present: Array[Long] = _
  private var shift = 0

  private def buildPresent(): Unit = {
    val bits = Integer.highestOneBit(math.max(64, math.min(entries.size, 1 << 26) * 16 - 1)) << 1
    shift = 32 - Integer.numberOfTrailingZeros(bits)
    present = new Array[Long](bits >>> 6)
    val keys = entries.keySet.iterator
    while (keys.hasNext) { val b = bit(keys.next()); present(b >>> 6) |= 1L << b }
  }

  /** A cheap hash of the key's bytes (the first 8 in one read), cut to the bitset's size. */
  private def bit(key: UTF8String): Int = {
    val n = key.numBytes
    var h = (key.getPrefix ^ n) * 0xff51afd7ed558ccdL
    var i = 8
    while (i < n) {
      h = (h ^ key.getByte(i)) * 0xc4ceb9fe1a85ec53L
      i += 1
    }
    h ^= h >>> 29
    ((h * 0x9e3779b97f4a7c15L) >>> 32).toInt >>> shift
  }

  def addRecord(key: String, row: InternalRow, ordering: Any): Unit =
    addRecord(UTF8String.fromString(key), row, ordering)

  /** [[addRecord]] by the key's bytes, which the map keeps: `k` must not be a reused buffer. */
  def addRecord(k: UTF8String, row: InternalRow, ordering: Any): Unit = {
    present = null
    val incoming = LogRecord(row, ordering)
    entries.get(k) match {
      case LogChain(es) => entries.put(k, LogChain(es :+ incoming))
      case LogRecord(_, old) if hasOrdering && OrderingValues.compare(old, ordering) > 0 => ()
      case LogDelete(Some(d)) if hasOrdering && OrderingValues.compare(d, ordering) > 0 => ()
      case _ => entries.put(k, incoming)
    }
  }

  def addDelete(key: String, ordering: Option[Any]): Unit = {
    present = null
    val k = UTF8String.fromString(key)
    entries.get(k) match {
      case LogChain(es) => entries.put(k, LogChain(es :+ LogDelete(ordering)))
      // An ordered delete older than the logged record loses to it (Hudi's delete pre-combine).
      case LogRecord(_, old) if hasOrdering && ordering.exists(d => OrderingValues.compare(d, old) < 0) => ()
      case _ => entries.put(k, LogDelete(ordering))
    }
  }

  /** Adds a partial-column record: the key's entries become (or extend) a [[LogChain]]. */
  def addPartial(key: String, partial: LogPartial): Unit = {
    present = null
    val k = UTF8String.fromString(key)
    entries.put(k,
      entries.get(k) match {
        case null => LogChain(Vector(partial))
        case LogChain(es) => LogChain(es :+ partial)
        case e => LogChain(Vector(e, partial))
      })
  }

  /** Removes and returns the entry of `key`. */
  def take(key: String): Option[LogEntry] = Option(take(UTF8String.fromString(key)))

  /** Removes and returns the entry of `key` (null when none); `key` may be a reader's reused buffer. */
  def take(key: UTF8String): LogEntry =
    if (entries.isEmpty) null
    else {
      if (present == null) buildPresent()
      val b = bit(key)
      if ((present(b >>> 6) & (1L << b)) == 0) null else entries.remove(key)
    }

  /** Records left after the base file was merged: keys the base file did not have. */
  def remainingRecords: Iterator[InternalRow] = remainingRecords(null)

  /** [[remainingRecords]], with `stitching` applying the chains of partial-column records. */
  def remainingRecords(stitching: ColumnStitching): Iterator[InternalRow] =
    entries.values.iterator.asScala.flatMap {
      case LogRecord(row, _) => Some(row)
      case c: LogChain => Option(stitching(null, c))
      case _ => None
    }

  def isEmpty: Boolean = entries.isEmpty
  def size: Int = entries.size
}
