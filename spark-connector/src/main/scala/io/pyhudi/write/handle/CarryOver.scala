// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{BoundReference, Expression, Literal, UnsafeProjection}
import org.apache.spark.sql.types.{StringType, StructType}
import org.apache.spark.unsafe.types.UTF8String

/**
 * Stored records moved into a new base file keep every column, their commit time and sequence
 * number included, except `_hoodie_file_name`, which names the new file.
 */
private[handle] object CarryOver {
  def projection(tableSchema: StructType, fileName: String): InternalRow => InternalRow = {
    val exprs: Seq[Expression] = tableSchema.fields.toSeq.zipWithIndex.map {
      case (_, 4) => Literal(UTF8String.fromString(fileName), StringType)
      case (f, i) => BoundReference(i, f.dataType, f.nullable)
    }
    UnsafeProjection.create(exprs)
  }
}
