// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import io.pyhudi.filegroup.{FileSystemView, PartitionLister}

/**
 * One file group of the table as of its latest completed write, as `HudiTable.file_groups()`
 * shows it: how many slices are on storage and what its latest slice holds.
 */
final case class FileGroupSummary(
    partition: String,
    fileId: String,
    slices: Int,
    latestInstant: String,
    baseFile: Option[String],
    baseSize: Long,
    logFiles: Int,
    logSize: Long) {

  def totalSize: Long = baseSize + logSize
}

object FileGroupSummary {

  /** Every file group a snapshot query reads (replaced groups left out), by partition and id. */
  def of(table: HoodieTable): Seq[FileGroupSummary] =
    table.timeline.latestCompletedWrite.map(_.timestamp) match {
      case None => Nil
      case Some(asOf) =>
        val listing = PartitionLister.list(table.storage, table.basePath)
        val replaced = FileSystemView.replacedFileGroups(table.timeline, asOf, table.commitMetadata)
        new FileSystemView(table.timeline, listing, asOf, replaced).fileGroups.flatMap { g =>
          g.latest.map { s =>
            FileGroupSummary(g.id.partitionPath, g.id.fileId, g.slices.size, s.baseInstant,
              s.baseFile.map(_.name), s.baseFile.map(_.size).getOrElse(0L), s.logFiles.size,
              s.logFiles.map(_.size).sum)
          }
        }
    }
}
