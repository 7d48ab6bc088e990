// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.schema

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.util.{ArrayData, MapData}
import org.apache.spark.sql.types.{DataType, Decimal}
import org.apache.spark.unsafe.types.{CalendarInterval, UTF8String, VariantVal}

/**
 * A view that reads every field through from the row it is pointed at, so no value is copied;
 * subclasses change what they must (the width, a field's value) and decide how to copy.
 */
abstract class ForwardingRow extends InternalRow {
  protected var row: InternalRow = _

  override def isNullAt(i: Int): Boolean = row.isNullAt(i)
  override def getBoolean(i: Int): Boolean = row.getBoolean(i)
  override def getByte(i: Int): Byte = row.getByte(i)
  override def getShort(i: Int): Short = row.getShort(i)
  override def getInt(i: Int): Int = row.getInt(i)
  override def getLong(i: Int): Long = row.getLong(i)
  override def getFloat(i: Int): Float = row.getFloat(i)
  override def getDouble(i: Int): Double = row.getDouble(i)
  override def getDecimal(i: Int, precision: Int, scale: Int): Decimal = row.getDecimal(i, precision, scale)
  override def getUTF8String(i: Int): UTF8String = row.getUTF8String(i)
  override def getBinary(i: Int): Array[Byte] = row.getBinary(i)
  override def getInterval(i: Int): CalendarInterval = row.getInterval(i)
  override def getVariant(i: Int): VariantVal = row.getVariant(i)
  override def getStruct(i: Int, numFields: Int): InternalRow = row.getStruct(i, numFields)
  override def getArray(i: Int): ArrayData = row.getArray(i)
  override def getMap(i: Int): MapData = row.getMap(i)
  override def get(i: Int, dataType: DataType): AnyRef = row.get(i, dataType)
}
