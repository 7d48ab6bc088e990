// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.util.{ArrayData, MapData}
import org.apache.spark.sql.types.{DataType, Decimal}
import org.apache.spark.unsafe.types.{CalendarInterval, UTF8String, VariantVal}

import io.pyhudi.errors.Errors

/**
 * A record as a base file stores it: the five meta values, then the fields of its data row. One
 * instance is refilled for every record a file gets. Spark's `JoinedRow` would do, but it asks
 * both of its rows for their widths on every field access, and parquet's writer reads every
 * field of every row through it: a few percent of a load.
 */
private[handle] final class MetaFieldsRow extends InternalRow {
  import MetaFieldsRow.Width

  private val meta = new Array[UTF8String](Width)
  private var data: InternalRow = _
  private var width = Width

  def apply(commitTime: UTF8String, seqNo: UTF8String, key: UTF8String, partitionPath: UTF8String,
      fileName: UTF8String, row: InternalRow): InternalRow = {
    meta(0) = commitTime
    meta(1) = seqNo
    meta(2) = key
    meta(3) = partitionPath
    meta(4) = fileName
    data = row
    width = Width + row.numFields
    this
  }

  override def numFields: Int = width

  override def isNullAt(i: Int): Boolean = if (i < Width) meta(i) == null else data.isNullAt(i - Width)
  override def getUTF8String(i: Int): UTF8String = if (i < Width) meta(i) else data.getUTF8String(i - Width)
  override def get(i: Int, t: DataType): AnyRef = if (i < Width) meta(i) else data.get(i - Width, t)

  // The meta values are strings: every other getter reads the data row.
  override def getBoolean(i: Int): Boolean = data.getBoolean(i - Width)
  override def getByte(i: Int): Byte = data.getByte(i - Width)
  override def getShort(i: Int): Short = data.getShort(i - Width)
  override def getInt(i: Int): Int = data.getInt(i - Width)
  override def getLong(i: Int): Long = data.getLong(i - Width)
  override def getFloat(i: Int): Float = data.getFloat(i - Width)
  override def getDouble(i: Int): Double = data.getDouble(i - Width)
  override def getDecimal(i: Int, precision: Int, scale: Int): Decimal = data.getDecimal(i - Width, precision, scale)
  override def getBinary(i: Int): Array[Byte] = data.getBinary(i - Width)
  override def getInterval(i: Int): CalendarInterval = data.getInterval(i - Width)
  override def getVariant(i: Int): VariantVal = data.getVariant(i - Width)
  override def getStruct(i: Int, numFields: Int): InternalRow = data.getStruct(i - Width, numFields)
  override def getArray(i: Int): ArrayData = data.getArray(i - Width)
  override def getMap(i: Int): MapData = data.getMap(i - Width)

  override def copy(): InternalRow = {
    val c = new MetaFieldsRow
    c(copied(0), copied(1), copied(2), copied(3), copied(4), data.copy())
  }

  private def copied(i: Int): UTF8String = if (meta(i) == null) null else meta(i).clone()

  override def setNullAt(i: Int): Unit = throw Errors.internal("a record being written is read-only")
  override def update(i: Int, value: Any): Unit = throw Errors.internal("a record being written is read-only")
}

private[handle] object MetaFieldsRow {
  val Width: Int = io.pyhudi.schema.MetaFields.Names.size
}
