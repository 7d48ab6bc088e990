// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{GenericInternalRow, JoinedRow}
import org.apache.spark.sql.catalyst.util.GenericArrayData
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.PyhudiException

class MetaFieldsRowSuite extends AnyFunSuite {

  private val types: Seq[DataType] = Seq(BooleanType, ByteType, ShortType, IntegerType, LongType, FloatType,
    DoubleType, DecimalType(20, 4), StringType, BinaryType, ArrayType(IntegerType),
    StructType(Seq(StructField("a", IntegerType))))

  private def data(n: Int): InternalRow = new GenericInternalRow(Array[Any](n % 2 == 0, n.toByte, (n * 3).toShort,
      n * 7, n * 11L, n * 0.5f, n * 0.25, Decimal(BigDecimal(n) / 8, 20, 4), UTF8String.fromString(s"v$n"),
      Array[Byte](n.toByte), new GenericArrayData(Array[Any](n, null)), new GenericInternalRow(Array[Any](n))))

  private val (commitTime, partition, fileName) = ("20261126120000000", "day=1", "f1_0-1-2_20261126120000000.parquet")

  private def meta(n: Int): Seq[UTF8String] =
    Seq(commitTime, s"${commitTime}_0_$n", s"key$n", partition, fileName).map(UTF8String.fromString)

  private def newRow(): MetaFieldsRow = new MetaFieldsRow(commitTime, partition, fileName)

  private def fill(row: MetaFieldsRow, n: Int, d: InternalRow): InternalRow =
    row(UTF8String.fromString(s"${commitTime}_0_$n"), s"key$n", d)

  test("every field reads as Spark's JoinedRow of the meta values and the data row reads it") {
    val row = newRow()
    (0 until 3).foreach { n =>
      val d = data(n)
      val ours = fill(row, n, d)
      val theirs = new JoinedRow(new GenericInternalRow(meta(n).toArray[Any]), d)
      val all = Seq.fill(5)(StringType) ++ types
      assert(ours.numFields == all.size)
      assert(ours.toSeq(all) == theirs.toSeq(all))
      all.indices.foreach(i => assert(ours.isNullAt(i) == theirs.isNullAt(i), s"field $i"))
      assert(ours.getUTF8String(2).toString == s"key$n")
      assert(ours.getInt(8) == n * 7 && ours.getLong(9) == n * 11L && ours.getDouble(11) == n * 0.25)
      assert(ours.getDecimal(12, 20, 4) == Decimal(BigDecimal(n) / 8, 20, 4))
      assert(ours.getStruct(16, 1).getInt(0) == n)
    }
  }

  test("null meta values and data fields read as null") {
    val row = new MetaFieldsRow(null, null, null)
    val d = new GenericInternalRow(Array[Any](null, 1))
    val r = row(UTF8String.fromString("s"), "k", d)
    assert((0 until 7).map(r.isNullAt) == Seq(true, false, false, true, true, true, false))
  }

  test("a copy keeps its values when the row is refilled, and the row cannot be written to") {
    val row = newRow()
    val copy = fill(row, 1, data(1)).copy()
    fill(row, 2, data(2))
    assert(copy.getUTF8String(2).toString == "key1" && copy.getUTF8String(1).toString.endsWith("_1"))
    assert(copy.getUTF8String(4).toString == fileName && copy.getInt(8) == 7)
    intercept[PyhudiException](row.setNullAt(0))
    intercept[PyhudiException](row.update(6, 1))
  }
}
