// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types._
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarArray, ColumnarMap}
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.errors.Errors

/**
 * One column of a merged batch: output row `i` is row `src(i)` of the base batch's vector when
 * `src(i) >= 0`, else the log row `patches(~src(i))`. Base rows stay in the parquet reader's
 * vectors, so a batch in which a tenth of the rows changed is not copied. [[MergedBatches]]
 * points it at each batch; Spark reads a batch before asking for the next one.
 *
 * Atomic types only ([[MergedColumnVector.supports]]): a nested value of a log row has no
 * column vector to hand out.
 */
final class MergedColumnVector(columnType: DataType, ordinal: Int) extends ColumnVector(columnType) {
  private[source] var base: ColumnVector = _
  private[source] var src: Array[Int] = _
  private[source] var patches: Array[InternalRow] = _
  private[source] var numRows: Int = 0

  override def isNullAt(i: Int): Boolean = {
    val s = src(i)
    if (s >= 0) base.isNullAt(s) else patches(~s).isNullAt(ordinal)
  }
  override def getBoolean(i: Int): Boolean = {
    val s = src(i)
    if (s >= 0) base.getBoolean(s) else patches(~s).getBoolean(ordinal)
  }
  override def getByte(i: Int): Byte = {
    val s = src(i)
    if (s >= 0) base.getByte(s) else patches(~s).getByte(ordinal)
  }
  override def getShort(i: Int): Short = {
    val s = src(i)
    if (s >= 0) base.getShort(s) else patches(~s).getShort(ordinal)
  }
  override def getInt(i: Int): Int = {
    val s = src(i)
    if (s >= 0) base.getInt(s) else patches(~s).getInt(ordinal)
  }
  override def getLong(i: Int): Long = {
    val s = src(i)
    if (s >= 0) base.getLong(s) else patches(~s).getLong(ordinal)
  }
  override def getFloat(i: Int): Float = {
    val s = src(i)
    if (s >= 0) base.getFloat(s) else patches(~s).getFloat(ordinal)
  }
  override def getDouble(i: Int): Double = {
    val s = src(i)
    if (s >= 0) base.getDouble(s) else patches(~s).getDouble(ordinal)
  }
  override def getDecimal(i: Int, precision: Int, scale: Int): Decimal = {
    val s = src(i)
    if (s >= 0) base.getDecimal(s, precision, scale) else patches(~s).getDecimal(ordinal, precision, scale)
  }
  override def getUTF8String(i: Int): UTF8String = {
    val s = src(i)
    if (s >= 0) base.getUTF8String(s) else patches(~s).getUTF8String(ordinal)
  }
  override def getBinary(i: Int): Array[Byte] = {
    val s = src(i)
    if (s >= 0) base.getBinary(s) else patches(~s).getBinary(ordinal)
  }

  override def hasNull(): Boolean = numNulls() > 0
  override def numNulls(): Int = {
    var n = 0
    var i = 0
    while (i < numRows) { if (isNullAt(i)) n += 1; i += 1 }
    n
  }

  // Never reached: the scan only merges in batches when every output column is atomic.
  override def getArray(i: Int): ColumnarArray = throw nested
  override def getMap(i: Int): ColumnarMap = throw nested
  override def getChild(i: Int): ColumnVector = throw nested
  private def nested = Errors.internal(s"a merged column vector read as nested; its type is ${dataType()}")

  // The vectors belong to the parquet reader, which closes them.
  override def close(): Unit = ()
}

object MergedColumnVector {

  /** Types whose values a row hands out the way a column vector does. */
  def supports(t: DataType): Boolean = t match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType => true
    case DateType | TimestampType | TimestampNTZType | BinaryType => true
    case _: StringType | _: DecimalType | _: YearMonthIntervalType | _: DayTimeIntervalType => true
    case _ => false
  }
}
