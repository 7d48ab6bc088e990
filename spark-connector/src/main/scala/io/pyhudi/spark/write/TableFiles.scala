package io.pyhudi.spark.write

import io.pyhudi.filegroup.{BaseFile, FileSystemView, PartitionLister}
import io.pyhudi.table.HoodieTable

/**
 * The latest committed base file of every file group in some partitions, as a write sees the
 * table before it starts. Listing only: no data is read.
 */
final case class TableFiles(byPartition: Map[String, Seq[BaseFile]]) {
  def all: Seq[(String, BaseFile)] =
    byPartition.toSeq.sortBy(_._1).flatMap { case (p, fs) => fs.map(p -> _) }
  def partitions: Seq[String] = byPartition.keys.toSeq.sorted
}

object TableFiles {
  val Empty: TableFiles = TableFiles(Map.empty)

  /** @param partitions the partitions to list, or None for the whole table */
  def load(table: HoodieTable, partitions: Option[Seq[String]]): TableFiles =
    table.timeline.latestCompletedWrite.map(_.timestamp) match {
      case None => Empty
      case Some(latest) =>
        val listing = partitions match {
          case Some(ps) => PartitionLister.listSome(table.storage, table.basePath, ps)
          case None => PartitionLister.list(table.storage, table.basePath)
        }
        val replaced = FileSystemView.replacedFileGroups(table.timeline, latest, table.commitMetadata)
        val view = new FileSystemView(table.timeline, listing, latest, replaced)
        TableFiles(view.latestSlices.flatMap(s => s.baseFile.map(s.groupId.partitionPath -> _))
          .groupBy(_._1).map { case (p, fs) => p -> fs.map(_._2) })
    }
}
