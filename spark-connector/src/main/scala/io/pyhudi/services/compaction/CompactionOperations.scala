// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.compaction

import io.pyhudi.errors.Errors
import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, LogFile}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.avro.CompactionOperation

/** Conversions between file slices and compaction plan operations (write stats: `write.commit.WriteStats`). */
object CompactionOperations {

  /** Metric names Hudi's compaction strategies record per operation. */
  val TotalLogFiles = "TOTAL_LOG_FILES"
  val TotalLogFilesSize = "TOTAL_LOG_FILES_SIZE"
  val TotalIoReadMb = "TOTAL_IO_READ_MB"
  val TotalIoWriteMb = "TOTAL_IO_WRITE_MB"
  val TotalIoMb = "TOTAL_IO_MB"

  /** Hudi's expected output size of a log-only slice: the default `hoodie.parquet.max.file.size`. */
  private val DefaultMaxFileSize = 120L * 1024 * 1024
  private val Mb = 1024L * 1024

  /** The plan operation for one slice: names, not paths (plan version 2), and Hudi's metrics. */
  def fromSlice(slice: FileSlice): CompactionOperation = {
    val logSize = slice.logFiles.map(_.size).sum
    val baseSize = slice.baseFile.map(_.size)
    val read = (baseSize.getOrElse(0L) + logSize) / Mb
    val write = baseSize.getOrElse(DefaultMaxFileSize) / Mb
    CompactionOperation(
      baseInstantTime = Some(slice.baseInstant),
      deltaFilePaths = Some(slice.logFiles.sorted.map(_.name)),
      dataFilePath = slice.baseFile.map(_.name),
      fileId = Some(slice.groupId.fileId),
      partitionPath = Some(slice.groupId.partitionPath),
      metrics = Some(Map(
          TotalLogFiles -> slice.logFiles.size.toDouble,
          TotalLogFilesSize -> logSize.toDouble,
          TotalIoReadMb -> read.toDouble,
          TotalIoWriteMb -> write.toDouble,
          TotalIoMb -> (read + write).toDouble)))
  }

  /** The file group an operation compacts. */
  def groupId(op: CompactionOperation): FileGroupId =
    FileGroupId(op.partitionPath.getOrElse(""), op.fileId.getOrElse(""))

  /**
   * The slice an operation reads, with current file sizes. Version-1 plans held full paths;
   * only the file name is used, so both versions resolve under the operation's partition.
   *
   * @param instant the compaction instant, for error messages
   * @throws io.pyhudi.errors.CorruptFileException when a named file no longer exists
   */
  def toFileSlice(table: HoodieTable, instant: String, op: CompactionOperation): FileSlice = {
    val id = groupId(op)
    val dir = if (id.partitionPath.isEmpty) table.basePath else s"${table.basePath}/${id.partitionPath}"
    def stat(name: String): (String, Long) = {
      val path = s"$dir/${name.substring(name.lastIndexOf('/') + 1)}"
      if (!table.storage.exists(path)) throw Errors.compactionFileMissing(instant, path)
      path -> table.storage.fileSize(path)
    }
    val base = op.dataFilePath.filter(_.nonEmpty).map { n =>
      val (path, size) = stat(n)
      BaseFile.parse(path, size).getOrElse(throw Errors.corruptFile(path, "not a base file name"))
    }
    val logs = op.deltaFilePaths.getOrElse(Nil).map { n =>
      val (path, size) = stat(n)
      LogFile.parse(path, size).getOrElse(throw Errors.corruptFile(path, "not a log file name"))
    }
    val baseInstant = op.baseInstantTime.orElse(base.map(_.instant)).getOrElse("")
    FileSlice(id, baseInstant, base, logs.sorted)
  }

  /** The name of the base file that compaction `instant` writes for a file group. */
  def outputFileName(fileId: String, writeToken: String, instant: String): String =
    s"${fileId}_${writeToken}_$instant${BaseFile.Extension}"
}
