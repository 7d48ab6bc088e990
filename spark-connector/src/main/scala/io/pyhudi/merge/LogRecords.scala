// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.merge

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.unsafe.Platform
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.keygen.{KeyHash, KeyHashBits}

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
  // Looking up a base row's key was most of a merge-on-read scan's merging, and nearly all of it
  // waiting on memory: a hash map reaches a node, a key object and the key's bytes, each
  // allocated between the copies of logged rows and so spread over megabytes. Here the keys'
  // bytes lie end to end in one array, and an open-addressing table of longs holds a part of each
  // key's hash beside its id, so a lookup touches the table and, on a match, one run of the
  // array. Ids count up in insertion order; a taken entry leaves its id behind (null value), and
  // a key added after it was taken gets a new id, so the remaining records come out in the order
  // an insertion-ordered map would give them.
  private var keyBytes = new Array[Byte](1024)
  private var keyEnd = 0
  private var keyOffsets = new Array[Int](32)
  private var keyLengths = new Array[Int](32)
  private var values = new Array[LogEntry](32)
  private var ids = 0
  private var live = 0
  // slot: (hash bits << 32) | (id + 1); 0 is empty. At most half full.
  private var slots = new Array[Long](64)

  // Most base rows have no log entry. A bitset of the keys' hashes, small enough to stay in
  // cache, answers those lookups without reaching into the table. Built on the first lookup
  // after the last add.
  private var present: KeyHashBits = _

  private def buildPresent(): Unit = {
    present = new KeyHashBits(live)
    var id = 0
    while (id < ids) {
      if (values(id) != null) present.add(hashOfId(id))
      id += 1
    }
  }

  /** False when no live key has hash `h`; builds the bitset after adds. */
  private def mayHold(h: Long): Boolean = {
    if (present == null) buildPresent()
    present.mayHold(h)
  }

  private def hashOf(key: UTF8String): Long = KeyHash.of(key)

  private def hashOfId(id: Int): Long =
    KeyHash.of(keyBytes, Platform.BYTE_ARRAY_OFFSET + keyOffsets(id), keyLengths(id))

  private def slotOf(h: Long): Int = (h ^ (h >>> 32)).toInt & (slots.length - 1)

  /** Whether id `id`'s key is `key`, compared 8 bytes at a time. */
  private def holds(id: Int, key: UTF8String): Boolean = {
    val n = key.numBytes
    if (keyLengths(id) != n) return false
    val base = key.getBaseObject
    val offset = key.getBaseOffset
    val at = Platform.BYTE_ARRAY_OFFSET + keyOffsets(id)
    var i = 0
    while (i + 8 <= n) {
      if (Platform.getLong(base, offset + i) != Platform.getLong(keyBytes, at + i)) return false
      i += 8
    }
    while (i < n) {
      if (Platform.getByte(base, offset + i) != Platform.getByte(keyBytes, at + i)) return false
      i += 1
    }
    true
  }

  /** The id holding `key` (its entry may have been taken), or -1. */
  private def find(key: UTF8String, h: Long): Int = {
    val mask = slots.length - 1
    val tag = h >>> 32
    var s = slotOf(h)
    var slot = slots(s)
    while (slot != 0) {
      if ((slot >>> 32) == tag) {
        val id = slot.toInt - 1
        if (holds(id, key)) return id
      }
      s = (s + 1) & mask
      slot = slots(s)
    }
    -1
  }

  private def get(key: UTF8String): LogEntry = {
    val id = find(key, hashOf(key))
    if (id < 0) null else values(id)
  }

  /**
   * Sets the entry of `key`, whose bytes are copied: a key already present keeps its place, a
   * new key or one whose entry was taken goes last in the order.
   */
  private def put(key: UTF8String, e: LogEntry): Unit = {
    val h = hashOf(key)
    putAt(key, h, find(key, h), e)
  }

  /** [[put]] once `key`'s hash `h` and id `old` (-1: none) are known. */
  private def putAt(key: UTF8String, h: Long, old: Int, e: LogEntry): Unit = {
    present = null
    longIds = null
    if (old >= 0 && values(old) != null) { values(old) = e; return }
    if (ids == values.length) {
      keyOffsets = java.util.Arrays.copyOf(keyOffsets, ids * 2)
      keyLengths = java.util.Arrays.copyOf(keyLengths, ids * 2)
      values = java.util.Arrays.copyOf(values, ids * 2)
    }
    val id = ids
    ids += 1
    if (old >= 0) {
      // The taken id's bytes serve the new id; the key's slot moves to it.
      keyOffsets(id) = keyOffsets(old)
      keyLengths(id) = keyLengths(old)
      var s = slotOf(h)
      while (slots(s).toInt != old + 1) s = (s + 1) & (slots.length - 1)
      slots(s) = (slots(s) & 0xffffffff00000000L) | (id + 1).toLong
    } else {
      val n = key.numBytes
      if (keyEnd + n > keyBytes.length)
        keyBytes = java.util.Arrays.copyOf(keyBytes, math.max(keyBytes.length * 2, keyEnd + n))
      key.writeToMemory(keyBytes, Platform.BYTE_ARRAY_OFFSET + keyEnd)
      keyOffsets(id) = keyEnd
      keyLengths(id) = n
      keyEnd += n
      if (ids * 2 > slots.length) rehash(slots.length * 2)
      place(id, h)
    }
    values(id) = e
    live += 1
  }

  private def place(id: Int, h: Long): Unit = {
    val mask = slots.length - 1
    var s = slotOf(h)
    while (slots(s) != 0) s = (s + 1) & mask
    slots(s) = ((h >>> 32) << 32) | (id + 1).toLong
  }

  /** A table of `size` slots holding every key's latest id. */
  private def rehash(size: Int): Unit = {
    val old = slots
    slots = new Array[Long](size)
    var i = 0
    while (i < old.length) {
      val slot = old(i)
      if (slot != 0) {
        val id = slot.toInt - 1
        place(id, hashOfId(id))
      }
      i += 1
    }
  }

  def addRecord(key: String, row: InternalRow, ordering: Any): Unit =
    addRecord(UTF8String.fromString(key), row, ordering)

  /** [[addRecord]] by the key's bytes, which are copied: `k` may be a reused buffer. */
  def addRecord(k: UTF8String, row: InternalRow, ordering: Any): Unit = {
    val incoming = LogRecord(row, ordering)
    // One lookup for the key, whether it is new or replaces an entry.
    val h = hashOf(k)
    val id = find(k, h)
    (if (id < 0) null else values(id)) match {
      case null => putAt(k, h, id, incoming)
      case LogChain(es) => putAt(k, h, id, LogChain(es :+ incoming))
      case LogRecord(_, old) if hasOrdering && OrderingValues.compare(old, ordering) > 0 => ()
      case LogDelete(Some(d)) if hasOrdering && OrderingValues.compare(d, ordering) > 0 => ()
      case _ => putAt(k, h, id, incoming)
    }
  }

  def addDelete(key: String, ordering: Option[Any]): Unit = {
    val k = UTF8String.fromString(key)
    get(k) match {
      case LogChain(es) => put(k, LogChain(es :+ LogDelete(ordering)))
      // An ordered delete older than the logged record loses to it (Hudi's delete pre-combine).
      case LogRecord(_, old) if hasOrdering && ordering.exists(d => OrderingValues.compare(d, old) < 0) => ()
      case _ => put(k, LogDelete(ordering))
    }
  }

  /** Adds a partial-column record: the key's entries become (or extend) a [[LogChain]]. */
  def addPartial(key: String, partial: LogPartial): Unit = {
    val k = UTF8String.fromString(key)
    put(k,
      get(k) match {
        case null => LogChain(Vector(partial))
        case LogChain(es) => LogChain(es :+ partial)
        case e => LogChain(Vector(e, partial))
      })
  }

  /** Removes and returns the entry of `key`. */
  def take(key: String): Option[LogEntry] = Option(take(UTF8String.fromString(key)))

  /** Removes and returns the entry of `key` (null when none); `key` may be a reader's reused buffer. */
  def take(key: UTF8String): LogEntry =
    if (live == 0) null
    else {
      val h = hashOf(key)
      if (mayHold(h)) takeId(find(key, h)) else null
    }

  /** Removes and returns the entry of id `id` (null: no id, or its entry already taken). */
  private def takeId(id: Int): LogEntry =
    if (id < 0) null
    else {
      val e = values(id)
      if (e != null) { values(id) = null; live -= 1 }
      e
    }

  // Scratch of takeAll, grown to the largest batch.
  private var candidates = new Array[Int](0)
  private var candidateHashes = new Array[Long](0)
  private var candidateIds = new Array[Int](0)

  /**
   * [[take]] for the keys `keys(0 until n)` (null: no key), their entries (or null) into `out`.
   * A lookup that passes the bitset waits on memory for the table and the key's bytes; one at a
   * time, those waits add up, while a loop of nothing but lookups lets the CPU wait on many at
   * once. So the keys go through the bitset first, then the survivors through the table, then
   * through the key bytes.
   */
  def takeAll(keys: Array[UTF8String], n: Int, out: Array[LogEntry]): Unit = {
    java.util.Arrays.fill(out.asInstanceOf[Array[AnyRef]], 0, n, null)
    if (live == 0) return
    if (candidates.length < n) {
      candidates = new Array[Int](n)
      candidateHashes = new Array[Long](n)
      candidateIds = new Array[Int](n)
    }
    var c = 0
    var i = 0
    while (i < n) {
      val k = keys(i)
      if (k != null) {
        val h = hashOf(k)
        if (mayHold(h)) {
          candidates(c) = i
          candidateHashes(c) = h
          c += 1
        }
      }
      i += 1
    }
    // Each survivor's id by its hash's tag alone (-1: no such tag, so no such key); the bitset's
    // false positives mostly end here.
    val mask = slots.length - 1
    var j = 0
    while (j < c) {
      val h = candidateHashes(j)
      val tag = h >>> 32
      var s = slotOf(h)
      var slot = slots(s)
      while (slot != 0 && (slot >>> 32) != tag) {
        s = (s + 1) & mask
        slot = slots(s)
      }
      candidateIds(j) = slot.toInt - 1
      j += 1
    }
    // The keys' bytes; a tag shared by another key (one in billions) falls back to a full probe.
    j = 0
    while (j < c) {
      val key = keys(candidates(j))
      var id = candidateIds(j)
      if (id >= 0 && !holds(id, key)) id = find(key, candidateHashes(j))
      out(candidates(j)) = takeId(id)
      j += 1
    }
  }

  // Base rows keyed by an integral field are looked up by the field's value: a table of the keys
  // that are a long's decimal digits, by value. Writing each row's digits to look them up among
  // the keys' bytes cost the scan more than reading a key column. Built on the first such lookup
  // after the last add; a key that is no long's digits can match no such row. Most rows have no
  // entry: a bitset of the values, small enough to stay in cache, turns those away (3% of the
  // scan's CPU, measured).
  private var longKeys: Array[Long] = _
  private var longIds: Array[Int] = _ // id + 1; 0 is empty
  private var longPresent: KeyHashBits = _

  // Base files are mostly in key order: bulk_insert sorts, and time-ordered keys arrive in order.
  // Such rows meet the keys, sorted, with a cursor that only moves forward and reads memory in
  // order, where the table's probes wait on it: a scan's batches push the table out of cache
  // between lookups (measured with that traffic: 11-24 ns a lookup by the table, 2-8 by the
  // cursor). A lookup below the last one puts the cursor back by binary search; when those are
  // more than 1 in 64 lookups the rows are not in order and the table answers the rest.
  private var sortedLongs: Array[Long] = _
  private var sortedIds: Array[Int] = _ // id, in the order of sortedLongs
  private var cursor = 0
  private var lastLong = Long.MinValue
  private var inOrder = true
  private var longLookups = 0L
  private var descents = 0L

  private def buildLongIndex(): Unit = {
    var size = 16
    while (size < live * 2) size *= 2
    longKeys = new Array[Long](size)
    longIds = new Array[Int](size)
    longPresent = new KeyHashBits(live)
    var count = 0
    var id = 0
    while (id < ids) {
      if (values(id) != null) {
        val v = digitsValue(keyOffsets(id), keyLengths(id))
        if (parsed) {
          var s = longSlot(v)
          while (longIds(s) != 0) s = (s + 1) & (size - 1)
          longKeys(s) = v
          longIds(s) = id + 1
          longPresent.add(v)
          count += 1
        }
      }
      id += 1
    }
    sortedLongs = new Array[Long](count)
    var n = 0
    var s = 0
    while (s < size) {
      if (longIds(s) != 0) { sortedLongs(n) = longKeys(s); n += 1 }
      s += 1
    }
    java.util.Arrays.sort(sortedLongs)
    sortedIds = sortedLongs.map(probeLong)
    cursor = 0
    lastLong = Long.MinValue
    inOrder = true
    longLookups = 0
    descents = 0
  }

  // Whether the last digitsValue read a long's digits.
  private var parsed = false

  /**
   * The value of the key at `keyBytes(at until at + n)` when it is `java.lang.Long.toString` of
   * a long (no sign but '-', no leading zero, no "-0"), read in place: parsing a string per key
   * cost as much as the lookups it saves. Sets [[parsed]].
   */
  private def digitsValue(at: Int, n: Int): Long = {
    parsed = false
    val negative = n > 0 && keyBytes(at) == '-'
    val first = if (negative) 1 else 0
    if (n == first || n - first > 19 || (keyBytes(at + first) == '0' && (n - first > 1 || negative))) return 0
    // Summed as a negative number, which reaches Long.MinValue.
    var r = 0L
    var i = first
    while (i < n) {
      val d = keyBytes(at + i) - '0'
      if (d < 0 || d > 9 || r < (Long.MinValue + d) / 10) return 0
      r = r * 10 - d
      i += 1
    }
    if (negative) { parsed = true; r }
    else if (r == Long.MinValue) 0
    else { parsed = true; -r }
  }

  private def longSlot(v: Long): Int = {
    val h = v * 0x9e3779b97f4a7c15L
    (h ^ (h >>> 29)).toInt & (longIds.length - 1)
  }

  /** The id whose key is the digits of `v`, or -1. */
  private def probeLong(v: Long): Int = {
    val mask = longIds.length - 1
    var s = longSlot(v)
    var id = longIds(s)
    while (id != 0 && longKeys(s) != v) {
      s = (s + 1) & mask
      id = longIds(s)
    }
    id - 1
  }

  /**
   * [[take]] for the key `java.lang.Long.toString(v)`: removes and returns its entry (null: none).
   */
  def takeLong(v: Long): LogEntry =
    if (live == 0) null
    else {
      if (longIds == null) buildLongIndex()
      if (inOrder) {
        longLookups += 1
        if (v < lastLong) {
          descents += 1
          if (descents > 16 && descents * 64 > longLookups) inOrder = false
          else cursor = java.util.Arrays.binarySearch(sortedLongs, v) match { case i if i < 0 => ~i; case i => i }
        }
        lastLong = v
      }
      if (inOrder) {
        val keys = sortedLongs
        var c = cursor
        while (c < keys.length && keys(c) < v) c += 1
        cursor = c
        if (c < keys.length && keys(c) == v) takeId(sortedIds(c)) else null
      } else if (!longPresent.mayHold(v)) null
      else takeId(probeLong(v))
    }

  /** Records left after the base file was merged: keys the base file did not have. */
  def remainingRecords: Iterator[InternalRow] = remainingRecords(null)

  /** [[remainingRecords]], with `stitching` applying the chains of partial-column records. */
  def remainingRecords(stitching: ColumnStitching): Iterator[InternalRow] =
    Iterator.range(0, ids).flatMap { id =>
      values(id) match {
        case LogRecord(row, _) => Some(row)
        case c: LogChain => Option(stitching(null, c))
        case _ => None
      }
    }

  def isEmpty: Boolean = live == 0
  def size: Int = live
}
