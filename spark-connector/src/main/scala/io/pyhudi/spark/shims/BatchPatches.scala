// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.shims

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.vectorized.{Dictionary, WritableColumnVector}
import org.apache.spark.sql.types._
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}

import io.pyhudi.errors.Errors
import io.pyhudi.spark.source.MergedColumnVector

/**
 * Writes log rows over base rows in the parquet reader's own vectors, so that a merge-on-read
 * batch whose rows were only replaced (none deleted) reaches Spark as the reader's batch, like a
 * copy-on-write scan's. Read through wrapping vectors instead, every value of every row took an
 * extra call and branch, and the JIT could no longer drop the decimals the query only hashed.
 *
 * A dictionary-encoded vector keeps its dictionary, wrapped in one that also holds the batch's
 * log values under negative ids ([[PatchedDictionary]]); [[restore]] puts the reader's back
 * before it reads the next batch. Internal Spark API (`WritableColumnVector`), kept to shims.
 *
 * @param types the batch's column types (the scan's merge schema, its first columns)
 */
final class BatchPatches(types: Array[DataType]) {
  private val width = types.length
  private val supported = types.map(MergedColumnVector.supports)
  // whether each column of the batch being written takes values (else it must hold them already)
  private val takes = new Array[Boolean](width)
  private val dictionaries = Array.fill(width)(new PatchedDictionary)
  // the vectors whose dictionaries are wrapped for the batch last written, by column
  private val wrapped = new Array[WritableColumnVector](width)

  /**
   * Writes `patches(k)` over row `rows(k)` of `b` for every `k < count`: true when done, false
   * (and `b` untouched) when a column cannot take them, which only a column that holds one
   * value for every row (partition values, a column the file lacks) refuses when a log row's
   * value differs.
   */
  def write(b: ColumnarBatch, rows: Array[Int], patches: Array[InternalRow], count: Int): Boolean = {
    var c = 0
    while (c < width) {
      val v = b.column(c)
      takes(c) = writable(v, c)
      if (!takes(c) && !holdsAlready(v, c, rows, patches, count)) return false
      c += 1
    }
    c = 0
    while (c < width) {
      if (takes(c)) writeColumn(b.column(c).asInstanceOf[WritableColumnVector], c, rows, patches, count)
      c += 1
    }
    true
  }

  /** Gives the vectors of the last batch written their own dictionaries back. */
  def restore(): Unit = {
    var c = 0
    while (c < width) {
      if (wrapped(c) != null) {
        wrapped(c).setDictionary(dictionaries(c).base)
        wrapped(c) = null
      }
      c += 1
    }
  }

  private def writable(v: ColumnVector, c: Int): Boolean = v match {
    case w: WritableColumnVector =>
      !w.isAllNull && !BatchPatches.isConstant(w) && supported(c) &&
      (!w.hasDictionary || types(c) != BooleanType)
    case _ => false
  }

  /** Whether `v` already holds every patch's value in column `c`. */
  private def holdsAlready(
      v: ColumnVector, c: Int, rows: Array[Int], patches: Array[InternalRow], count: Int): Boolean = {
    var k = 0
    while (k < count) {
      if (!BatchPatches.same(v, rows(k), patches(k), c, types(c))) return false
      k += 1
    }
    true
  }

  private def writeColumn(
      v: WritableColumnVector, c: Int, rows: Array[Int], patches: Array[InternalRow], count: Int): Unit = {
    val t = types(c)
    val dictionary = if (v.hasDictionary) {
      val d = dictionaries(c)
      d.wrap(BatchPatches.dictionaryOf(v), count)
      v.setDictionary(d)
      wrapped(c) = v
      d
    } else null
    val ids = if (dictionary == null) null else v.getDictionaryIds
    var k = 0
    while (k < count) {
      val i = rows(k)
      val p = patches(k)
      if (p.isNullAt(c)) v.putNull(i)
      else {
        if (v.isNullAt(i)) v.putNotNull(i)
        if (dictionary != null) {
          dictionary.set(k, p, c, t)
          ids.putInt(i, ~k)
        } else BatchPatches.put(v, i, p, c, t)
      }
      k += 1
    }
  }
}

object BatchPatches {

  // `WritableColumnVector` exposes neither: a constant vector is never reset between batches, so
  // a value written into it would stay for the next ones.
  private val constantField = {
    val f = classOf[WritableColumnVector].getDeclaredField("isConstant")
    f.setAccessible(true)
    f
  }
  private val dictionaryField = {
    val f = classOf[WritableColumnVector].getDeclaredField("dictionary")
    f.setAccessible(true)
    f
  }

  private def isConstant(v: WritableColumnVector): Boolean = constantField.getBoolean(v)
  private def dictionaryOf(v: WritableColumnVector): Dictionary = dictionaryField.get(v).asInstanceOf[Dictionary]

  private def put(v: WritableColumnVector, i: Int, p: InternalRow, c: Int, t: DataType): Unit = t match {
    case BooleanType => v.putBoolean(i, p.getBoolean(c))
    case ByteType => v.putByte(i, p.getByte(c))
    case ShortType => v.putShort(i, p.getShort(c))
    case IntegerType | DateType | _: YearMonthIntervalType => v.putInt(i, p.getInt(c))
    case LongType | TimestampType | TimestampNTZType | _: DayTimeIntervalType => v.putLong(i, p.getLong(c))
    case FloatType => v.putFloat(i, p.getFloat(c))
    case DoubleType => v.putDouble(i, p.getDouble(c))
    case d: DecimalType => v.putDecimal(i, p.getDecimal(c, d.precision, d.scale), d.precision)
    case _: StringType => v.putByteArray(i, p.getUTF8String(c).getBytes)
    case BinaryType => v.putByteArray(i, p.getBinary(c))
    case other => throw Errors.internal(s"a merged batch has no in-place write for $other")
  }

  private def same(v: ColumnVector, i: Int, p: InternalRow, c: Int, t: DataType): Boolean = {
    val nullHere = v.isNullAt(i)
    if (nullHere || p.isNullAt(c)) return nullHere && p.isNullAt(c)
    t match {
      case BooleanType => v.getBoolean(i) == p.getBoolean(c)
      case ByteType => v.getByte(i) == p.getByte(c)
      case ShortType => v.getShort(i) == p.getShort(c)
      case IntegerType | DateType | _: YearMonthIntervalType => v.getInt(i) == p.getInt(c)
      case LongType | TimestampType | TimestampNTZType | _: DayTimeIntervalType => v.getLong(i) == p.getLong(c)
      case FloatType =>
        java.lang.Float.floatToRawIntBits(v.getFloat(i)) == java.lang.Float.floatToRawIntBits(p.getFloat(c))
      case DoubleType =>
        java.lang.Double.doubleToRawLongBits(v.getDouble(i)) == java.lang.Double.doubleToRawLongBits(p.getDouble(c))
      case d: DecimalType => v.getDecimal(i, d.precision, d.scale) == p.getDecimal(c, d.precision, d.scale)
      case _: StringType => v.getUTF8String(i) == p.getUTF8String(c)
      case BinaryType => java.util.Arrays.equals(v.getBinary(i), p.getBinary(c))
      case _ => false
    }
  }
}

/**
 * A vector's dictionary with one batch's log values under negative ids (`~k` for patch `k`),
 * in the form the vector's getters decode them: ints and longs (decimals of up to 18 digits as
 * their unscaled values), floats, doubles, and bytes (strings, binaries, wider decimals).
 */
private final class PatchedDictionary extends Dictionary {
  var base: Dictionary = _
  private var longs = new Array[Long](64)
  private var doubles = new Array[Double](64)
  private var bytes = new Array[Array[Byte]](64)

  def wrap(d: Dictionary, count: Int): Unit = {
    base = d
    if (longs.length < count) {
      longs = new Array[Long](count)
      doubles = new Array[Double](count)
      bytes = new Array[Array[Byte]](count)
    }
  }

  def set(k: Int, p: InternalRow, c: Int, t: DataType): Unit = t match {
    case ByteType => longs(k) = p.getByte(c)
    case ShortType => longs(k) = p.getShort(c)
    case IntegerType | DateType | _: YearMonthIntervalType => longs(k) = p.getInt(c)
    case LongType | TimestampType | TimestampNTZType | _: DayTimeIntervalType => longs(k) = p.getLong(c)
    case FloatType => doubles(k) = p.getFloat(c)
    case DoubleType => doubles(k) = p.getDouble(c)
    case d: DecimalType =>
      val v = p.getDecimal(c, d.precision, d.scale)
      if (d.precision <= Decimal.MAX_LONG_DIGITS) longs(k) = v.toUnscaledLong
      else bytes(k) = v.toJavaBigDecimal.unscaledValue.toByteArray
    case _: StringType => bytes(k) = p.getUTF8String(c).getBytes
    case BinaryType => bytes(k) = p.getBinary(c)
    case other => throw Errors.internal(s"a merged batch has no dictionary entry for $other")
  }

  override def decodeToInt(id: Int): Int = if (id >= 0) base.decodeToInt(id) else longs(~id).toInt
  override def decodeToLong(id: Int): Long = if (id >= 0) base.decodeToLong(id) else longs(~id)
  override def decodeToFloat(id: Int): Float = if (id >= 0) base.decodeToFloat(id) else doubles(~id).toFloat
  override def decodeToDouble(id: Int): Double = if (id >= 0) base.decodeToDouble(id) else doubles(~id)
  override def decodeToBinary(id: Int): Array[Byte] = if (id >= 0) base.decodeToBinary(id) else bytes(~id)
}
