// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import java.nio.charset.StandardCharsets.UTF_8

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.filegroup.PartitionMetafile
import io.pyhudi.index.bloom.BaseFileFooter
import io.pyhudi.storage.Storage
import io.pyhudi.write.commit.IOType

/**
 * One base file being written by a handle: marker first, then the file, tracking the record
 * keys for the footer's bloom filter and key range.
 */
private[handle] final class FileWrite(
    ctx: HandleContext,
    storage: Storage,
    val partitionPath: String,
    val fileId: String,
    writeToken: String,
    ioType: IOType) {

  val fileName = s"${fileId}_${writeToken}_${ctx.instantTime}.parquet"
  private val started = System.currentTimeMillis()
  private val bloom = ctx.bloom.newFilter()
  // Keys reach the bloom filter in batches, which it hashes several at a time.
  private val pendingKeys = new Array[Array[Byte]](FileWrite.BloomBatch)
  private var pending = 0
  private var minKey: String = _
  private var maxKey: String = _
  var written = 0L

  PartitionMetafile.ensure(storage, ctx.basePath, partitionPath, ctx.instantTime)
  ctx.markers(storage).create(partitionPath, fileName, ioType)
  private val writer = ctx.writers.open(ctx.absolutePath(partitionPath, fileName))

  private val record = new MetaFieldsRow(ctx.instantTime, partitionPath, fileName)

  /**
   * `row` with the meta values of a record this instant writes into this file (a new or merged
   * record), valid until the next call.
   */
  def newRecord(seqNo: UTF8String, key: String, row: InternalRow): InternalRow = record(seqNo, key, row)

  def write(key: String, row: InternalRow): Unit = {
    writer.write(row)
    pendingKeys(pending) = key.getBytes(UTF_8)
    pending += 1
    if (pending == FileWrite.BloomBatch) addPendingKeys()
    if (minKey == null || key < minKey) minKey = key
    if (maxKey == null || key > maxKey) maxKey = key
    written += 1
  }

  private def addPendingKeys(): Unit = {
    bloom.addAll(pendingKeys, pending)
    pending = 0
  }

  def dataSize: Long = writer.dataSize

  /**
   * Whether the file has reached `maxSize`; measured every [[FileWrite.SizeCheckInterval]]
   * rows, since summing the column buffers costs as much as writing a small row.
   */
  def reached(maxSize: Long): Boolean =
    written > 0 && written % FileWrite.SizeCheckInterval == 0 && writer.dataSize >= maxSize

  def close(prevCommit: Option[String], inserts: Long, updates: Long, deletes: Long): HandleResult = {
    addPendingKeys()
    val footer = if (written == 0) Map.empty[String, String] else BaseFileFooter.metadata(bloom, minKey, maxKey)
    val size = writer.close(footer)
    HandleResult(partitionPath, fileId, ctx.relativePath(partitionPath, fileName), prevCommit,
      written, inserts, updates, deletes, size, minKey, maxKey, System.currentTimeMillis() - started)
  }

  def abort(): Unit = writer.abort()
}

private[handle] object FileWrite {

  /** Rows between two size checks: a few KB past the maximum at most. */
  val SizeCheckInterval = 64

  /** Keys hashed into the bloom filter at a time. */
  val BloomBatch = 16
}
