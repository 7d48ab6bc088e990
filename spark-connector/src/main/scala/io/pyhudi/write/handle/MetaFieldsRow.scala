// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.util.{ArrayData, MapData}
import org.apache.spark.sql.types.{DataType, Decimal}
import org.apache.spark.unsafe.types.{CalendarInterval, UTF8String, VariantVal}

import io.pyhudi.errors.Errors

/**
 * A record as a base or log file of one write stores it: the commit time, partition path and
 * file name every record of the file shares, its sequence number and key, then the fields of its
 * data row. One instance is refilled for every record the file gets. Spark's `JoinedRow` would
 * do, but it asks both of its rows for their widths on every field access, and parquet's writer
 * reads every field of every row through it: a few percent of a load.
 */
private[handle] final class MetaFieldsRow private (meta: Array[UTF8String]) extends InternalRow {
  import MetaFieldsRow.Width

  private var data: InternalRow = _
  private var width = Width

  def this(commitTime: String, partitionPath: String, fileName: String) =
    this(Array(UTF8String.fromString(commitTime), null, null, UTF8String.fromString(partitionPath),
        UTF8String.fromString(fileName)))

  /** This row, holding the record of `key` with `seqNo` and the data fields of `row`. */
  def apply(seqNo: UTF8String, key: String, row: InternalRow): InternalRow = {
    meta(1) = seqNo
    meta(2) = UTF8String.fromString(key)
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

  // The shared values never change; the record's own are cloned, as the row gets refilled.
  override def copy(): InternalRow = {
    val values = meta.clone()
    values(1) = copied(meta(1))
    values(2) = copied(meta(2))
    val c = new MetaFieldsRow(values)
    c.data = data.copy()
    c.width = width
    c
  }

  private def copied(v: UTF8String): UTF8String = if (v == null) null else v.clone()

  override def setNullAt(i: Int): Unit = throw Errors.internal("a record being written is read-only")
  override def update(i: Int, value: Any): Unit = throw Errors.internal("a record being written is read-only")
}

private[handle] object MetaFieldsRow {
  val Width: Int = io.pyhudi.schema.MetaFields.Names.size
}
