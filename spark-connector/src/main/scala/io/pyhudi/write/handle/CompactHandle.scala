// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.apache.spark.sql.catalyst.InternalRow

import io.pyhudi.filegroup.FileSlice
import io.pyhudi.storage.Storage
import io.pyhudi.write.commit.IOType

/**
 * Compaction of one file slice: writes the slice's merged records (base file plus log files, in
 * the table schema) into a new base file of the same file group at the compaction instant.
 */
final class CompactHandle(ctx: HandleContext, slice: FileSlice, writeToken: String) {

  def write(merged: Iterator[InternalRow]): HandleResult = {
    val storage = new Storage(ctx.conf.value)
    val id = slice.groupId
    val file = new FileWrite(ctx, storage, id.partitionPath, id.fileId, writeToken, IOType.Create)
    try {
      val carry = CarryOver.projection(ctx.tableSchema, file.fileName)
      merged.foreach(row => file.write(row.getUTF8String(2).toString, carry(row)))
      file.close(Some(slice.baseInstant), 0L, file.written, 0L)
    } catch {
      case e: Throwable => file.abort(); throw e
    }
  }
}
