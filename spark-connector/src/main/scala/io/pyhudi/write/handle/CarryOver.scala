// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.{DataType, StructType}
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.errors.Errors
import io.pyhudi.schema.{ForwardingRow, MetaFields}

/**
 * Stored records moved into a new base file keep every column, their commit time and sequence
 * number included, except `_hoodie_file_name`, which names the new file.
 */
private[handle] object CarryOver {

  /**
   * A view of each stored row (in the table schema) as the new file stores it, valid as long as
   * the stored row is: the file writer consumes it at once, so no value is copied on the way.
   */
  def projection(tableSchema: StructType, fileName: String): InternalRow => InternalRow = {
    val view = new CarriedRow(UTF8String.fromString(fileName), tableSchema.length)
    row => view(row)
  }

  private val FileNameOrdinal = MetaFields.Names.indexOf(MetaFields.FileName)

  private final class CarriedRow(fileName: UTF8String, width: Int) extends ForwardingRow {
    def apply(stored: InternalRow): InternalRow = {
      row = stored
      this
    }

    override def numFields: Int = width

    override def isNullAt(i: Int): Boolean = i != FileNameOrdinal && row.isNullAt(i)
    override def getUTF8String(i: Int): UTF8String = if (i == FileNameOrdinal) fileName else row.getUTF8String(i)
    override def get(i: Int, t: DataType): AnyRef = if (i == FileNameOrdinal) fileName else row.get(i, t)

    override def copy(): InternalRow = {
      val c = new CarriedRow(fileName, width)
      c.row = row.copy()
      c
    }

    override def setNullAt(i: Int): Unit = throw Errors.internal("a record being written is read-only")
    override def update(i: Int, value: Any): Unit = throw Errors.internal("a record being written is read-only")
  }
}
