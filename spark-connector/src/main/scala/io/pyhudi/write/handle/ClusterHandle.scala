// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.catalyst.InternalRow

import io.pyhudi.storage.Storage
import io.pyhudi.write.commit.IOType

/**
 * Clustering of one clustering group: writes the group's records (merged and in their final
 * order, in the table schema) into base files of new file groups `<prefix>-0`, `<prefix>-1`, ...
 * at the clustering instant, starting the next group whenever a file passes the context's
 * maximum file size. Records keep their commit time and sequence number (Hudi's
 * `preserveHoodieMetadata`), only `_hoodie_file_name` names the new file.
 */
final class ClusterHandle(ctx: HandleContext, partitionPath: String, fileIdPrefix: String, writeToken: String) {

  def write(rows: Iterator[InternalRow]): Seq[HandleResult] = {
    val storage = new Storage(ctx.conf.value)
    val results = ArrayBuffer.empty[HandleResult]
    var current: FileWrite = null
    var carry: InternalRow => InternalRow = null
    try {
      rows.foreach { row =>
        if (current == null || (current.written > 0 && current.dataSize >= ctx.maxFileSize)) {
          if (current != null) results += current.close(None, current.written, 0, 0)
          current = new FileWrite(ctx, storage, partitionPath, s"$fileIdPrefix-${results.size}", writeToken,
            IOType.Create)
          carry = CarryOver.projection(ctx.tableSchema, current.fileName)
        }
        current.write(row.getUTF8String(2).toString, carry(row))
      }
      if (current != null) results += current.close(None, current.written, 0, 0)
      results.toSeq
    } catch {
      case e: Throwable =>
        if (current != null) current.abort()
        throw e
    }
  }
}
