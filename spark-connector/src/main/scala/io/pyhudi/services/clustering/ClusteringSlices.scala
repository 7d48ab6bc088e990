// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clustering

import io.pyhudi.errors.Errors
import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, LogFile}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.avro.{ClusteringGroup, ClusteringPlan, SliceInfo}

/** Conversions between file slices and the slice records of a clustering plan. */
object ClusteringSlices {

  /** Metric names Hudi's clustering plan strategies record per group. */
  val TotalIoReadMb = "TOTAL_IO_READ_MB"
  val TotalIoWriteMb = "TOTAL_IO_WRITE_MB"
  val TotalIoMb = "TOTAL_IO_MB"
  val TotalLogFileSize = "TOTAL_LOG_FILE_SIZE"
  val TotalLogFiles = "TOTAL_LOG_FILES"

  private val Mb = 1024L * 1024

  /** The slice record, with full paths as Apache Hudi 0.14/0.15 writes them ("" when there is no base file). */
  def fromSlice(slice: FileSlice): SliceInfo = SliceInfo(
    dataFilePath = Some(slice.baseFile.map(_.path).getOrElse("")),
    deltaFilePaths = Some(slice.logFiles.sorted.map(_.path)),
    fileId = Some(slice.groupId.fileId),
    partitionPath = Some(slice.groupId.partitionPath))

  /**
   * Hudi's group metrics: megabytes read (base plus logs), written (the base files' size, or
   * `maxFileSize` for a log-only slice) and both, and the groups' log files and their bytes.
   */
  def metrics(slices: Seq[FileSlice], maxFileSize: Long): Map[String, Double] = {
    val logSize = slices.map(_.logFiles.map(_.size).sum).sum
    val read = slices.map(_.totalSize).sum / Mb
    val write = slices.map(_.baseFile.map(_.size).getOrElse(maxFileSize)).sum / Mb
    Map(TotalIoReadMb -> read.toDouble, TotalIoWriteMb -> write.toDouble, TotalIoMb -> (read + write).toDouble,
      TotalLogFileSize -> logSize.toDouble, TotalLogFiles -> slices.map(_.logFiles.size).sum.toDouble)
  }

  def groupId(s: SliceInfo): FileGroupId = FileGroupId(s.partitionPath.getOrElse(""), s.fileId.getOrElse(""))

  /** Every file group a plan rewrites. */
  def groupIds(plan: ClusteringPlan): Seq[FileGroupId] = plan.groups.flatMap(groupIds)

  def groupIds(group: ClusteringGroup): Seq[FileGroupId] = group.slices.getOrElse(Nil).map(groupId)

  /**
   * The slice a record names, with current file sizes. Only file names are used, so full paths
   * (Hudi 0.x) and names resolve alike under the slice's partition.
   *
   * @param instant the clustering instant, for error messages
   * @throws io.pyhudi.errors.CorruptFileException when a named file no longer exists
   */
  def toFileSlice(table: HoodieTable, instant: String, s: SliceInfo): FileSlice = {
    val id = groupId(s)
    val dir = if (id.partitionPath.isEmpty) table.basePath else s"${table.basePath}/${id.partitionPath}"
    def stat(name: String): (String, Long) = {
      val path = s"$dir/${name.substring(name.lastIndexOf('/') + 1)}"
      if (!table.storage.exists(path)) throw Errors.clusteringFileMissing(instant, path)
      path -> table.storage.fileSize(path)
    }
    val base = s.dataFilePath.filter(_.nonEmpty).map { n =>
      val (path, size) = stat(n)
      BaseFile.parse(path, size).getOrElse(throw Errors.corruptFile(path, "not a base file name"))
    }
    val logs = s.deltaFilePaths.getOrElse(Nil).map { n =>
      val (path, size) = stat(n)
      LogFile.parse(path, size).getOrElse(throw Errors.corruptFile(path, "not a log file name"))
    }
    val baseInstant = base.map(_.instant).orElse(logs.headOption.map(_.baseInstant)).getOrElse("")
    FileSlice(id, baseInstant, base, logs.sorted)
  }
}
