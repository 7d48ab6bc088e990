// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bloom

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, DataInputStream, DataOutputStream, EOFException}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.Base64

import scala.collection.mutable.ArrayBuffer

import io.pyhudi.errors.{Errors, PyhudiException}

/**
 * A bloom filter over record keys in the form Apache Hudi stores in base file footers
 * (hudi-format.md §5.3). Keys are hashed as their UTF-8 bytes. Filters are `Serializable` so
 * that a task can carry one to an executor; they are not thread-safe.
 */
sealed trait BloomFilter extends Serializable {

  /** Adds a non-empty record key. */
  final def add(key: String): Unit = addAll(Array(if (key == null) null else key.getBytes(UTF_8)), 1)

  /**
   * Adds the non-empty UTF-8 record keys `keys(0 until count)` in order, as many [[add]] calls
   * would; hashing several keys at once is cheaper (see [[HoodieMurmurHash.chainedAll]]).
   */
  def addAll(keys: Array[Array[Byte]], count: Int): Unit

  /** False when the key was certainly never added; true when it may have been. */
  def mightContain(key: String): Boolean

  /** Standard, padded Base64 of the filter's Java `DataOutput` bytes: the footer value. */
  def serialize(): String = {
    val bytes = new ByteArrayOutputStream()
    val out = new DataOutputStream(bytes)
    write(out)
    out.flush()
    Base64.getEncoder.encodeToString(bytes.toByteArray)
  }

  /** `SIMPLE` or `DYNAMIC_V0`, the value of the footer's type code key. */
  def typeCode: String

  protected def write(out: DataOutputStream): Unit

  protected final def positions(key: String, row: BloomRow): Array[Int] = {
    if (key == null || key.isEmpty)
      throw Errors.internal("A bloom filter key must be a non-empty string")
    BloomRow.positions(key, row.numHashes, row.vectorSize)
  }

  // Reused by addAll: a filter is not thread-safe anyway.
  @transient private var batchPositions: Array[Int] = _

  /** The positions of `keys(0 until count)` in `row`: key q's at `q * row.numHashes`. */
  protected final def positionsAll(keys: Array[Array[Byte]], count: Int, row: BloomRow): Array[Int] = {
    var q = 0
    while (q < count) {
      if (keys(q) == null || keys(q).length == 0)
        throw Errors.internal("A bloom filter key must be a non-empty string")
      q += 1
    }
    val size = count * row.numHashes
    if (batchPositions == null || batchPositions.length < size) batchPositions = new Array[Int](size)
    HoodieMurmurHash.chainedAll(keys, count, row.numHashes, row.vectorSize, batchPositions)
    batchPositions
  }
}

/** One row of bits sized for the expected number of keys; it only fills up past that number. */
final class SimpleBloomFilter private[bloom] (row: BloomRow) extends BloomFilter {
  override def typeCode: String = BloomFilter.SimpleTypeCode
  override def addAll(keys: Array[Array[Byte]], count: Int): Unit = {
    val bits = positionsAll(keys, count, row)
    var q = 0
    while (q < count) { row.set(bits, q * row.numHashes, row.numHashes); q += 1 }
  }
  // An empty key is never added (add rejects it), so it is certainly absent.
  override def mightContain(key: String): Boolean =
    key != null && key.nonEmpty && row.containsAll(positions(key, row))
  override protected def write(out: DataOutputStream): Unit = row.write(out)
}

/**
 * DYNAMIC_V0: rows of `rowCapacity` keys each. Keys go to the last row; a full row gets a new
 * row after it until the rows hold `maxEntries`, after which the rows are reused round-robin.
 * Only `keysInLastRow` is serialized with the rows; the round-robin cursor is not, as in Java.
 */
final class DynamicBloomFilter private[bloom] (
    rowCapacity: Int, maxEntries: Int, rows: ArrayBuffer[BloomRow], private var keysInLastRow: Int)
    extends BloomFilter {

  private var reachedMax = false
  private var cursor = 0

  override def typeCode: String = BloomFilter.DynamicTypeCode

  override def addAll(keys: Array[Array[Byte]], count: Int): Unit = {
    val n = rows.head.numHashes
    val bits = positionsAll(keys, count, rows.head)
    var q = 0
    while (q < count) {
      activeRow().set(bits, q * n, n)
      keysInLastRow += 1
      q += 1
    }
  }

  override def mightContain(key: String): Boolean = key != null && key.nonEmpty && {
    val bits = positions(key, rows.head)
    rows.exists(_.containsAll(bits))
  }

  private def activeRow(): BloomRow =
    if (reachedMax) {
      val row = rows(cursor)
      cursor = (cursor + 1) % rows.size
      row
    } else if (keysInLastRow < rowCapacity) rows.last
    else if (rows.size.toLong * rowCapacity < maxEntries) {
      rows += new BloomRow(rows.head.numHashes, rows.head.vectorSize)
      keysInLastRow = 0
      rows.last
    } else {
      reachedMax = true
      rows.head
    }

  override protected def write(out: DataOutputStream): Unit = {
    BloomRow.writeHeader(out, rows.head.numHashes, rows.head.vectorSize)
    out.writeInt(rowCapacity)
    out.writeInt(keysInLastRow)
    out.writeInt(rows.size)
    rows.foreach(_.write(out))
  }
}

/** Building and decoding Hudi bloom filters. */
object BloomFilter {

  /** `hoodie.index.bloom.num_entries` default: keys a filter (or a dynamic row) is sized for. */
  val DefaultNumEntries = 60000

  /** `hoodie.index.bloom.fpp` default: false positive probability at that many keys. */
  val DefaultFpp = 1e-9

  /** `hoodie.bloom.index.filter.dynamic.max.entries` default: when a dynamic filter stops growing. */
  val DefaultMaxEntries = 100000

  val SimpleTypeCode = "SIMPLE"
  val DynamicTypeCode = "DYNAMIC_V0"

  /** A SIMPLE filter sized for `numEntries` keys at false positive probability `fpp`. */
  def simple(numEntries: Int, fpp: Double): BloomFilter = new SimpleBloomFilter(newRow(numEntries, fpp))

  /** A DYNAMIC_V0 filter: rows sized like [[simple]], growing until they hold `maxEntries`. */
  def dynamic(numEntries: Int, fpp: Double, maxEntries: Int): BloomFilter = {
    if (maxEntries <= 0) throw Errors.internal(s"maxEntries must be positive, got $maxEntries")
    new DynamicBloomFilter(numEntries, maxEntries, ArrayBuffer(newRow(numEntries, fpp)), 0)
  }

  /** typeCode None/"SIMPLE" → simple; "DYNAMIC_V0" → dynamic; others → clear error. */
  def deserialize(serialized: String, typeCode: Option[String]): BloomFilter =
    deserialize(serialized, typeCode, "serialized bloom filter")

  /** As above; `where` names the filter's origin (e.g. a file's footer) in errors. */
  private[bloom] def deserialize(serialized: String, typeCode: Option[String], where: String): BloomFilter = {
    val decode: DataInputStream => BloomFilter = typeCode.getOrElse(SimpleTypeCode) match {
      case SimpleTypeCode => in => new SimpleBloomFilter(BloomRow.read(in, where))
      case DynamicTypeCode => in => readDynamic(in, where)
      case other => throw Errors.unsupportedBloomFilterType(other, where)
    }
    try {
      val bytes = Base64.getDecoder.decode(serialized)
      val in = new DataInputStream(new ByteArrayInputStream(bytes))
      val filter = decode(in)
      if (in.available() != 0)
        throw Errors.corruptBloomFilter(where, s"${in.available()} bytes left after the filter")
      filter
    } catch {
      case e: PyhudiException => throw e
      case e: IllegalArgumentException => throw Errors.corruptBloomFilter(where, "not Base64", e)
      case e: EOFException => throw Errors.corruptBloomFilter(where, "truncated", e)
    }
  }

  private def readDynamic(in: DataInputStream, where: String): BloomFilter = {
    val (numHashes, vectorSize) = BloomRow.readHeader(in, where)
    val rowCapacity = in.readInt()
    val keysInLastRow = in.readInt()
    val numRows = in.readInt()
    if (rowCapacity <= 0 || keysInLastRow < 0 || numRows <= 0)
      throw Errors.corruptBloomFilter(where,
        s"bad dynamic header: $rowCapacity keys per row, $keysInLastRow in the last, $numRows rows")
    val rows = ArrayBuffer.fill(numRows)(BloomRow.read(in, where))
    // Keys are hashed once for all rows, which needs every row to share the outer sizes.
    if (rows.exists(r => r.numHashes != numHashes || r.vectorSize != vectorSize))
      throw Errors.corruptBloomFilter(where, "rows differ in size from the filter header")
    // maxEntries is not serialized and Java reads it back as 0: a filter read back never gains
    // rows, and keys added to it once its last row is full go round-robin over the rows it has.
    new DynamicBloomFilter(rowCapacity, 0, rows, keysInLastRow)
  }

  /** A row of m = ceil(n·(−ln p)/(ln 2)²) bits and k = ceil(ln 2 · m / n) hashes (§5.3). */
  private def newRow(numEntries: Int, fpp: Double): BloomRow = {
    if (numEntries <= 0 || !(fpp > 0 && fpp < 1))
      throw Errors.internal(
        s"A bloom filter needs numEntries > 0 and 0 < fpp < 1, got numEntries=$numEntries fpp=$fpp")
    val bits = math.ceil(numEntries * (-math.log(fpp) / (math.log(2) * math.log(2))))
    if (bits >= Int.MaxValue)
      throw Errors.internal(s"A bloom filter for $numEntries keys at fpp $fpp needs $bits bits")
    val numHashes = math.ceil(math.log(2) * bits.toInt / numEntries).toInt
    new BloomRow(numHashes, bits.toInt)
  }
}
