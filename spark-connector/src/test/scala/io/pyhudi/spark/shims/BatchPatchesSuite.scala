// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.shims

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection
import org.apache.spark.sql.execution.vectorized.{
  ConstantColumnVector,
  Dictionary,
  OnHeapColumnVector,
  WritableColumnVector
}
import org.apache.spark.sql.types._
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

class BatchPatchesSuite extends AnyFunSuite {

  private val types: Array[DataType] = Array(BooleanType, ByteType, ShortType, IntegerType, LongType, FloatType,
    DoubleType, DateType, TimestampType, StringType, BinaryType, DecimalType(5, 2), DecimalType(15, 2),
    DecimalType(25, 3))
  private val schema = StructType(types.zipWithIndex.map { case (t, i) => StructField(s"c$i", t) })
  private val rows = 4

  /** The value of row `r` (0-3: base rows; 10+: log rows) in column `c`, as a row holds it. */
  private def value(c: Int, r: Int): Any = types(c) match {
    case BooleanType => r % 2 == 1
    case ByteType => (r + 1).toByte
    case ShortType => (r * 100).toShort
    case IntegerType | DateType => r * 1000 + 7
    case LongType | TimestampType => r * 1000000007L
    case FloatType => r * 1.5f
    case DoubleType => r * 2.25
    case StringType => UTF8String.fromString(s"s$r" * (r + 1))
    case BinaryType => Array.fill(r % 5)(r.toByte)
    case d: DecimalType => Decimal(BigDecimal(r) * 12 + BigDecimal("0.01"), d.precision, d.scale)
    case other => fail(s"no value for $other")
  }

  private def logRow(r: Int, nullAt: Set[Int] = Set.empty): InternalRow =
    UnsafeProjection.create(schema)(
      InternalRow.fromSeq(types.indices.map(c => if (nullAt(c)) null else value(c, r)))).copy()

  private def put(v: WritableColumnVector, c: Int, i: Int, x: Any): Unit = types(c) match {
    case BooleanType => v.putBoolean(i, x.asInstanceOf[Boolean])
    case ByteType => v.putByte(i, x.asInstanceOf[Byte])
    case ShortType => v.putShort(i, x.asInstanceOf[Short])
    case IntegerType | DateType => v.putInt(i, x.asInstanceOf[Int])
    case LongType | TimestampType => v.putLong(i, x.asInstanceOf[Long])
    case FloatType => v.putFloat(i, x.asInstanceOf[Float])
    case DoubleType => v.putDouble(i, x.asInstanceOf[Double])
    case StringType => v.putByteArray(i, x.asInstanceOf[UTF8String].getBytes)
    case BinaryType => v.putByteArray(i, x.asInstanceOf[Array[Byte]])
    case d: DecimalType => v.putDecimal(i, x.asInstanceOf[Decimal], d.precision)
    case other => fail(s"no put for $other")
  }

  /** Column `c` of base rows 0-3, row 2 null. */
  private def plain(c: Int): OnHeapColumnVector = {
    val v = new OnHeapColumnVector(rows, types(c))
    (0 until rows).foreach(i => if (i == 2) v.putNull(i) else put(v, c, i, value(c, i)))
    v
  }

  /** A dictionary of base rows 0-3's values, as parquet's vectors decode it. */
  private final class TestDictionary(c: Int) extends Dictionary {
    private def base(id: Int): Any = {
      require(id >= 0 && id < rows, s"no dictionary id $id")
      value(c, id)
    }
    override def decodeToInt(id: Int): Int = base(id) match {
      case d: Decimal => d.toUnscaledLong.toInt
      case b: Byte => b.toInt
      case s: Short => s.toInt
      case i: Int => i
      case other => fail(s"decodeToInt of $other")
    }
    override def decodeToLong(id: Int): Long = base(id) match {
      case d: Decimal => d.toUnscaledLong
      case l: Long => l
      case other => fail(s"decodeToLong of $other")
    }
    override def decodeToFloat(id: Int): Float = base(id).asInstanceOf[Float]
    override def decodeToDouble(id: Int): Double = base(id).asInstanceOf[Double]
    override def decodeToBinary(id: Int): Array[Byte] = base(id) match {
      case s: UTF8String => s.getBytes
      case b: Array[Byte] => b
      case d: Decimal => d.toJavaBigDecimal.unscaledValue.toByteArray
      case other => fail(s"decodeToBinary of $other")
    }
  }

  /** Column `c` of base rows 0-3 by dictionary ids (row i holds id i), row 2 null. */
  private def encoded(c: Int): OnHeapColumnVector = {
    val v = new OnHeapColumnVector(rows, types(c))
    val ids = v.reserveDictionaryIds(rows)
    (0 until rows).foreach(i => if (i == 2) v.putNull(i) else ids.putInt(i, i))
    v.setDictionary(new TestDictionary(c))
    v
  }

  /** Value `i` of vector `v` (column `c`) as a row would hold it, null when null. */
  private def read(v: ColumnVector, c: Int, i: Int): Any =
    if (v.isNullAt(i)) null
    else types(c) match {
      case BooleanType => v.getBoolean(i)
      case ByteType => v.getByte(i)
      case ShortType => v.getShort(i)
      case IntegerType | DateType => v.getInt(i)
      case LongType | TimestampType => v.getLong(i)
      case FloatType => v.getFloat(i)
      case DoubleType => v.getDouble(i)
      case StringType => v.getUTF8String(i)
      case BinaryType => v.getBinary(i).toSeq
      case d: DecimalType => v.getDecimal(i, d.precision, d.scale)
      case other => fail(s"no read for $other")
    }

  private def expected(c: Int, x: Any): Any = x match {
    case b: Array[Byte] => b.toSeq
    case other => other
  }

  private def batch(vectors: Seq[ColumnVector]): ColumnarBatch = new ColumnarBatch(vectors.toArray, rows)

  test("log rows are written over their base rows in plain and dictionary-encoded vectors of every type") {
    for (dictionaries <- Seq(false, true)) {
      // Booleans are never dictionary-encoded.
      val vectors = types.indices.map(c => if (dictionaries && types(c) != BooleanType) encoded(c) else plain(c))
      val b = batch(vectors)
      val patches = new BatchPatches(types)
      // Row 1 gets log row 11, with nulls in half the columns; row 2 (null) gets log row 12.
      val log = Array(logRow(11, nullAt = types.indices.filter(_ % 2 == 0).toSet), logRow(12))
      assert(patches.write(b, Array(1, 2), log, 2))
      types.indices.foreach { c =>
        val v = b.column(c)
        val want = Seq(value(c, 0), if (c % 2 == 0) null else value(c, 11), value(c, 12), value(c, 3))
        assert((0 until rows).map(read(v, c, _)) == want.map(expected(c, _)),
          s"${types(c)}, dictionaries $dictionaries")
      }
      patches.restore()
      // The reader's own dictionaries are back: they know no negative id.
      types.indices.filter(c => vectors(c).hasDictionary).foreach { c =>
        intercept[IllegalArgumentException](read(vectors(c), c, 2))
        vectors(c).getDictionaryIds.putInt(2, 3)
        assert(read(vectors(c), c, 2) == expected(c, value(c, 3)))
      }
    }
  }

  test("a column that holds one value for every row takes only log rows with that value") {
    val partition = new ConstantColumnVector(rows, StringType)
    partition.setUtf8String(UTF8String.fromString("p1"))
    val missing = new OnHeapColumnVector(rows, IntegerType)
    missing.setAllNull()
    val data = plain(3)
    val b = batch(Seq(partition, missing, data))
    val local =
      StructType(Seq(StructField("part", StringType), StructField("gone", IntegerType), StructField("n", IntegerType)))
    val patches = new BatchPatches(local.fields.map(_.dataType))
    val row = (part: String, gone: Integer, n: Int) =>
      UnsafeProjection.create(local)(InternalRow(UTF8String.fromString(part), gone, n)).copy()

    assert(patches.write(b, Array(0, 3), Array(row("p1", null, 5), row("p1", null, 6)), 2))
    assert((0 until rows).map(read(data, 3, _)) == Seq(5, value(3, 1), null, 6))
    assert((0 until rows).map(partition.getUTF8String(_).toString) == Seq.fill(rows)("p1"))

    // A log row with another partition value, or a value where the file has no column, leaves
    // the batch as it was: the caller reads it through merged vectors instead.
    for (other <- Seq(row("p2", null, 8), row("p1", 4, 8))) {
      assert(!patches.write(b, Array(1), Array(other), 1))
      assert((0 until rows).map(read(data, 3, _)) == Seq(5, value(3, 1), null, 6))
      assert((0 until rows).forall(missing.isNullAt))
    }

    // A vector the reader marked constant (never reset between batches) is not written either.
    val constant = plain(3)
    constant.setIsConstant()
    assert(!patches.write(batch(Seq(partition, missing, constant)), Array(0), Array(row("p1", null, 5)), 1))
    assert(read(constant, 3, 0) == value(3, 0))
  }
}
