package io.pyhudi.write.handle

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.JoinedRow

import io.pyhudi.avro.AvroSerializer
import io.pyhudi.filegroup.{LogFile, PartitionMetafile}
import io.pyhudi.logfile.{DeleteRecord, LogBlock, LogBlockWriter}
import io.pyhudi.storage.Storage
import io.pyhudi.write.WriteRecord
import io.pyhudi.write.commit.{IOType, Markers}

/**
 * Appends the updates and deletes of one instant to an existing file slice (merge-on-read) as
 * one new log file, `.<fileId>_<baseInstant>.log.<nextLogVersion>_<writeToken>`
 * (hudi-format.md §4.2): an AVRO_DATA block with the upserted records, then a DELETE block with
 * the deleted keys, each present only when it has entries and both headed by the writing
 * instant (§6.4–6.6). Records carry the meta values of §5.1, `_hoodie_file_name` being the bare
 * file id and the sequence number counting from 1. Deletes are natural-order deletes.
 *
 * The whole file is built in memory and created in one call, never overwriting: a file that
 * already exists under that name fails the write.
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

  require(nextLogVersion >= 1, s"log versions start at 1, got $nextLogVersion")

  /** The name of the log file this handle writes. */
  val fileName: String = LogFile.fileName(fileId, baseInstant, nextLogVersion, writeToken)

  private val started = System.currentTimeMillis()
  private val incoming = mutable.LinkedHashMap.empty[String, WriteRecord]

  /**
   * Adds an upsert, or a delete when `record.isDelete`. For a repeated key the later record
   * wins (de-duplication ran before). `record.row` is kept until [[write]]: it must not be a
   * reused buffer.
   */
  def add(record: WriteRecord): Unit = incoming.update(record.key, record)

  /**
   * Writes the log file: partition metafile if missing, APPEND marker, then the file.
   * @throws IllegalStateException when no record was added
   */
  def write(): HandleResult = {
    if (incoming.isEmpty) throw new IllegalStateException(
      s"No records to append to file group $fileId in partition '$partitionPath' for instant ${ctx.instantTime}")
    val (deletes, upserts) = incoming.values.toSeq.partition(_.isDelete)
    val blocks = Seq(dataBlock(upserts), deleteBlock(deletes)).flatten
    val bytes = LogBlockWriter.encodeFile(blocks)

    val storage = new Storage(ctx.conf.value)
    PartitionMetafile.ensure(storage, ctx.basePath, partitionPath, ctx.instantTime)
    new Markers(storage, ctx.basePath, ctx.instantTime).create(partitionPath, fileName, IOType.Append)
    storage.create(ctx.absolutePath(partitionPath, fileName), bytes)

    val keys = incoming.keys
    HandleResult(partitionPath, fileId, ctx.relativePath(partitionPath, fileName), Some(baseInstant),
      numWrites = upserts.size.toLong, numInserts = 0L, numUpdates = upserts.size.toLong,
      numDeletes = deletes.size.toLong, fileSize = bytes.length.toLong, minKey = keys.min, maxKey = keys.max,
      timeMillis = System.currentTimeMillis() - started, baseFile = Some(baseFileName),
      logFiles = Seq(fileName), logVersion = Some(nextLogVersion))
  }

  private def dataBlock(upserts: Seq[WriteRecord]): Option[LogBlock] =
    if (upserts.isEmpty) None
    else {
      val schema = ctx.logSchema
      val serializer = new AvroSerializer(ctx.tableSchema, schema)
      val joined = new JoinedRow()
      val records = upserts.zipWithIndex.map { case (r, i) =>
        val seqNo = s"${ctx.instantTime}_${taskPartition}_${i + 1}"
        serializer.serialize(joined(ctx.metaRow(seqNo, r.key, partitionPath, fileId), r.row))
      }
      Some(LogBlockWriter.avroDataBlock(ctx.instantTime, schema, records))
    }

  private def deleteBlock(deletes: Seq[WriteRecord]): Option[LogBlock] =
    if (deletes.isEmpty) None
    else Some(LogBlockWriter.deleteBlock(ctx.instantTime, ctx.logSchema,
      deletes.map(r => DeleteRecord(r.key, Some(partitionPath), None))))
}
