// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{BoundReference, UnsafeProjection}
import org.apache.spark.sql.types.StructType

import io.pyhudi.schema.ForwardingRow

/**
 * The first `width` columns of the rows of `schema`, read through without copying: merged
 * slices carry key and ordering columns past the requested ones, and copying every row to drop
 * them cost more than the merge itself. Spark copies rows it buffers (`copy`), as with any
 * reader's reused rows.
 */
private[source] final class NarrowedRow(schema: StructType, width: Int) extends ForwardingRow {
  private lazy val copier = UnsafeProjection.create((0 until width).map { i =>
    BoundReference(i, schema(i).dataType, schema(i).nullable)
  })

  def of(underlying: InternalRow): NarrowedRow = { row = underlying; this }

  override def numFields: Int = width
  override def setNullAt(i: Int): Unit = row.setNullAt(i)
  override def update(i: Int, value: Any): Unit = row.update(i, value)
  override def copy(): InternalRow = copier(row).copy()
}
