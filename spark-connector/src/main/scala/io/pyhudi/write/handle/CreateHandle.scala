// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import scala.collection.mutable.ArrayBuffer

import io.pyhudi.storage.Storage
import io.pyhudi.write.WriteRecord
import io.pyhudi.write.commit.IOType

/**
 * Writes new records of one partition into new file groups, starting with `fileId` and rolling
 * to `<fileId prefix>-<n+1>` whenever a file passes the maximum file size.
 *
 * @param taskPartition the Spark partition id, the middle part of `_hoodie_commit_seqno`
 */
final class CreateHandle(
    ctx: HandleContext,
    partitionPath: String,
    fileId: String,
    writeToken: String,
    taskPartition: Int,
    rollover: Boolean = true) {

  private val storage = new Storage(ctx.conf.value)
  private val results = ArrayBuffer.empty[HandleResult]
  private var current: FileWrite = _
  private val seqNos = new CommitSeqNos(ctx.instantTime, taskPartition)

  private def nextFileId(): String =
    if (current == null) fileId
    else {
      val dash = fileId.lastIndexOf('-')
      val (prefix, n) = if (dash > 0 && fileId.substring(dash + 1).forall(_.isDigit))
        (fileId.substring(0, dash), fileId.substring(dash + 1).toInt)
      else (fileId, 0)
      s"$prefix-${n + results.size + 1}"
    }

  def write(record: WriteRecord): Unit = {
    if (current == null || (rollover && current.reached(ctx.maxFileSize))) {
      if (current != null) results += current.close(None, current.written, 0, 0)
      current = new FileWrite(ctx, storage, partitionPath, nextFileId(), writeToken, IOType.Create)
    }
    current.write(record.key, current.newRecord(seqNos.next(), record.key, record.row))
  }

  def close(): Seq[HandleResult] = {
    if (current != null) results += current.close(None, current.written, 0, 0)
    current = null
    results.toSeq
  }

  def abort(): Unit = if (current != null) current.abort()
}
