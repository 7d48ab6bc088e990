// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import scala.collection.mutable

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.types.StructType

import io.pyhudi.avro.AvroRowEncoder
import io.pyhudi.errors.Errors
import io.pyhudi.filegroup.{LogFile, PartitionMetafile}
import io.pyhudi.logfile.{AvroBlockBuilder, DeleteRecord, LogBlock, LogBlockWriter}
import io.pyhudi.storage.Storage
import io.pyhudi.write.WriteRecord
import io.pyhudi.write.commit.IOType

/**
 * Appends the updates and deletes of one instant to an existing file slice (merge-on-read) as
 * new log files, `.<fileId>_<baseInstant>.log.<nextLogVersion>_<writeToken>` (and the following
 * versions when the data rolls over `hoodie.logfile.max.size`)
 * (hudi-format.md §4.2): an AVRO_DATA block with the upserted records, then a DELETE block with
 * the deleted keys, each present only when it has entries and both headed by the writing
 * instant (§6.4–6.6). Records carry the meta values of §5.1, `_hoodie_file_name` being the bare
 * file id and the sequence number counting from 1. Deletes are natural-order deletes.
 *
 * The whole file is built in memory and created in one call, never overwriting: when a file
 * already exists under that name (another writer's), the handle takes the next version.
 *
 * @param baseInstant    the instant of the slice's base file, which names the log file
 * @param baseFileName   the slice's base file name, reported in the write stat
 * @param nextLogVersion the slice's next log version ([[io.pyhudi.filegroup.LogFile.nextVersion]])
 * @param taskPartition  the Spark partition id, the middle part of `_hoodie_commit_seqno`
 */
final class AppendHandle(
    ctx: HandleContext,
    partitionPath: String,
    fileId: String,
    baseInstant: String,
    baseFileName: String,
    nextLogVersion: Int,
    writeToken: String,
    taskPartition: Int) {

  if (nextLogVersion < 1) throw Errors.internal(s"log versions start at 1, got $nextLogVersion")

  /** The name of the first log file this handle writes. */
  val fileName: String = LogFile.fileName(fileId, baseInstant, nextLogVersion, writeToken)

  private val started = System.currentTimeMillis()
  // Java's map: Scala's mutable.LinkedHashMap took a tenth of appending the logs.
  private val incoming = new java.util.LinkedHashMap[String, WriteRecord]()

  /**
   * Adds an upsert, or a delete when `record.isDelete`. For a repeated key the later record
   * wins (de-duplication ran before). `record.row` is kept until [[write]]: it must not be a
   * reused buffer.
   */
  def add(record: WriteRecord): Unit = incoming.put(record.key, record)

  /**
   * Writes the log file(s): partition metafile if missing, an APPEND marker before each file,
   * then the file. Upserts that would make a file larger than `ctx.maxLogFileSize` roll over to
   * the next log version; the delete block goes into the last file.
   * @throws io.pyhudi.errors.PyhudiException (INTERNAL_ERROR) when no record was added
   */
  def write(): Seq[HandleResult] = {
    if (incoming.isEmpty) throw Errors.internal(
      s"No records to append to file group $fileId in partition '$partitionPath' for instant ${ctx.instantTime}")
    val storage = new Storage(ctx.conf.value)
    PartitionMetafile.ensure(storage, ctx.basePath, partitionPath, ctx.instantTime)
    val blockSchema = ctx.dataBlockSchema
    val ordinals = ctx.logOrdinals.toArray
    val encoder = new AvroRowEncoder(StructType(ordinals.map(ctx.tableSchema(_))), blockSchema)
    // A partial-column write encodes the columns it sets only.
    val types = ordinals.map(ctx.tableSchema(_).dataType)
    def logged(row: InternalRow): InternalRow =
      if (ctx.partial.isEmpty) row
      else new GenericInternalRow(Array.tabulate[Any](ordinals.length) { i =>
        if (row.isNullAt(ordinals(i))) null else row.get(ordinals(i), types(i))
      })
    // A log record's `_hoodie_file_name` is its file group's id.
    val record = new MetaFieldsRow(ctx.instantTime, partitionPath, fileId)
    val seqNos = new CommitSeqNos(ctx.instantTime, taskPartition, first = 1)
    val block = new AvroBlockBuilder
    val results = mutable.ArrayBuffer.empty[HandleResult]
    var version = nextLogVersion
    // The keys of the file being built, for its write stat.
    var minKey: String = null
    var maxKey: String = null
    def sawKey(k: String): Unit = {
      if (minKey == null || k.compareTo(minKey) < 0) minKey = k
      if (maxKey == null || k.compareTo(maxKey) > 0) maxKey = k
    }
    def writeFile(dels: Seq[WriteRecord]): Unit = {
      val records = block.count
      val blocks =
        (if (records == 0) None
         else Some(LogBlockWriter.avroDataBlock(ctx.instantTime, blockSchema, block.content(),
             partial = ctx.partial.isDefined))).toSeq ++
          deleteBlock(dels)
      val bytes = LogBlockWriter.encodeFile(blocks)
      // A task of another writer's Spark application can hold the same write token and take
      // this name for the same slice (two writers appending to one file group): never touch
      // its file, roll over to the next version, as Apache Hudi's log writer does. The commit's
      // conflict check then decides between the two writes.
      // A name found taken gets no marker; one taken between the check and the create leaves a
      // marker that the commit and a rollback pass over (the file holds no block of this instant).
      def publish(name: String): Boolean = {
        val path = ctx.absolutePath(partitionPath, name)
        if (storage.exists(path)) return false
        ctx.markers(storage).create(partitionPath, name, IOType.Append)
        try { storage.create(path, bytes); true }
        catch { case _: org.apache.hadoop.fs.FileAlreadyExistsException => false }
      }
      while (!publish(LogFile.fileName(fileId, baseInstant, version, writeToken))) version += 1
      val name = LogFile.fileName(fileId, baseInstant, version, writeToken)
      dels.foreach(d => sawKey(d.key))
      results += HandleResult(partitionPath, fileId, ctx.relativePath(partitionPath, name), Some(baseInstant),
        numWrites = records.toLong, numInserts = 0L, numUpdates = records.toLong,
        numDeletes = dels.size.toLong, fileSize = bytes.length.toLong, minKey = minKey, maxKey = maxKey,
        timeMillis = System.currentTimeMillis() - started, baseFile = Some(baseFileName),
        logFiles = Seq(name), logVersion = Some(version))
      version += 1
      block.clear()
      minKey = null
      maxKey = null
    }
    // A file takes records while they fit in maxLogFileSize, and at least one.
    val limit = math.min(ctx.maxLogFileSize, AppendHandle.MaxBlockBytes)
    val deletes = mutable.ArrayBuffer.empty[WriteRecord]
    val it = incoming.values.iterator
    while (it.hasNext) {
      val r = it.next()
      if (r.isDelete) deletes += r
      else {
        val size = block.encode(out => encoder.write(logged(record(seqNos.next(), r.key, r.row)), out))
        if (block.count > 0 && block.contentSize + 4 + size > limit) writeFile(Nil)
        block.append()
        sawKey(r.key)
      }
    }
    writeFile(deletes.toSeq)
    results.toSeq
  }

  private def deleteBlock(deletes: Seq[WriteRecord]): Option[LogBlock] =
    if (deletes.isEmpty) None
    else Some(LogBlockWriter.deleteBlock(ctx.instantTime, ctx.logSchema,
        deletes.map(r => DeleteRecord(r.key, Some(partitionPath), None))))
}

private object AppendHandle {

  /** A data block's bytes are one Java array: files roll over at 1 GiB whatever the setting. */
  val MaxBlockBytes: Long = 1L << 30
}
