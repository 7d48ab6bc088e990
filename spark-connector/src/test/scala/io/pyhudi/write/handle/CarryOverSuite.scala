// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{GenericInternalRow, UnsafeProjection}
import org.apache.spark.sql.catalyst.util.GenericArrayData
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.PyhudiException
import io.pyhudi.schema.MetaFields

class CarryOverSuite extends AnyFunSuite {

  private val dataFields: Seq[DataType] = Seq(BooleanType, ByteType, ShortType, IntegerType, LongType, FloatType,
    DoubleType, DecimalType(20, 4), DecimalType(38, 6), StringType, BinaryType, ArrayType(IntegerType),
    StructType(Seq(StructField("a", IntegerType))), MapType(StringType, LongType), DateType, TimestampType)

  private val schema = StructType(MetaFields.Schema.fields ++ dataFields.zipWithIndex.map { case (t, i) =>
    StructField(s"c$i", t)
  })

  private def stored(n: Int): InternalRow = new GenericInternalRow(Array[Any](
      UTF8String.fromString("20261126120000000"), UTF8String.fromString(s"20261126120000000_0_$n"),
      UTF8String.fromString(s"key$n"), UTF8String.fromString("day=1"),
      UTF8String.fromString("old_0-1-2_20261126120000000.parquet"),
      n % 2 == 0, n.toByte, (n * 3).toShort, n * 7, n * 11L, n * 0.5f, n * 0.25, Decimal(BigDecimal(n) / 8, 20, 4),
      Decimal(BigDecimal(n) / 3, 38, 6), UTF8String.fromString(s"v$n"), Array[Byte](n.toByte),
      new GenericArrayData(Array[Any](n, null)), new GenericInternalRow(Array[Any](n)),
      org.apache.spark.sql.catalyst.util.ArrayBasedMapData(Map(UTF8String.fromString("k") -> n.toLong)), n, n * 1000L))

  private val newName = "new_0-3-4_20261127120000000.parquet"

  /** What a file writer reads of `row`: every field of the table schema, in Spark's binary row form. */
  private def read(row: InternalRow): InternalRow = UnsafeProjection.create(schema)(row).copy()

  test("a carried record reads as the stored one with the new file name, field by field") {
    val carry = CarryOver.projection(schema, newName)
    (0 until 3).foreach { n =>
      val expected = stored(n)
      expected.update(4, UTF8String.fromString(newName))
      assert(read(carry(stored(n))) == read(expected))
      assert(read(carry(stored(n))) != read(stored(n)))
    }
  }

  test("null values stay null, and the file name is never null") {
    val carry = CarryOver.projection(schema, newName)
    val row = new GenericInternalRow(schema.length)
    val carried = carry(row)
    assert(carried.numFields == schema.length)
    assert(!carried.isNullAt(4) && carried.getUTF8String(4).toString == newName)
    assert((0 until schema.length).filter(_ != 4).forall(carried.isNullAt))
  }

  test("a copy keeps the record after the view moves on, and the view cannot be written to") {
    val carry = CarryOver.projection(schema, newName)
    val first = stored(1)
    val copy = carry(first).copy()
    first.update(8, 99)
    carry(stored(2))
    assert(copy.getInt(8) == 7 && copy.getUTF8String(2).toString == "key1")
    assert(copy.getUTF8String(4).toString == newName)
    intercept[PyhudiException](carry(stored(3)).setNullAt(5))
    intercept[PyhudiException](carry(stored(3)).update(5, true))
  }
}
