// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{BoundReference, UnsafeProjection}
import org.apache.spark.sql.catalyst.util.{ArrayData, MapData}
import org.apache.spark.sql.types.{DataType, Decimal, StructType}
import org.apache.spark.unsafe.types.{CalendarInterval, UTF8String, VariantVal}

/**
 * The first `width` columns of the rows of `schema`, read through without copying: merged
 * slices carry key and ordering columns past the requested ones, and copying every row to drop
 * them cost more than the merge itself. Spark copies rows it buffers (`copy`), as with any
 * reader's reused rows.
 */
private[source] final class NarrowedRow(schema: StructType, width: Int) extends InternalRow {
  private var row: InternalRow = _
  private lazy val copier = UnsafeProjection.create((0 until width).map { i =>
    BoundReference(i, schema(i).dataType, schema(i).nullable)
  })

  def of(underlying: InternalRow): NarrowedRow = { row = underlying; this }

  override def numFields: Int = width
  override def setNullAt(i: Int): Unit = row.setNullAt(i)
  override def update(i: Int, value: Any): Unit = row.update(i, value)
  override def copy(): InternalRow = copier(row).copy()
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
