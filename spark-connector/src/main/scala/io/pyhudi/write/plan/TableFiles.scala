// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.plan

import io.pyhudi.filegroup.{BaseFile, CommittedFiles, FileGroupId, FileSlice, FileSystemView, PartitionLister}
import io.pyhudi.table.HoodieTable

/**
 * The latest committed file slice of every file group in some partitions, as a write sees the
 * table before it starts. Listing only: no data is read.
 *
 * @param lost groups whose latest slice lost a file (only when loaded to be replaced)
 */
final case class TableFiles(slices: Map[String, Seq[FileSlice]], lost: Set[FileGroupId] = Set.empty) {

  /** Latest base file of every group that has one. */
  lazy val byPartition: Map[String, Seq[BaseFile]] =
    slices.map { case (p, ss) => p -> ss.flatMap(_.baseFile) }.filter(_._2.nonEmpty)

  def all: Seq[(String, BaseFile)] =
    byPartition.toSeq.sortBy(_._1).flatMap { case (p, fs) => fs.map(p -> _) }

  def partitions: Seq[String] = slices.keys.toSeq.sorted

  /** Base files of slices without log files: the only ones small-file inserts may rewrite. */
  def logFreeBases: Map[String, Seq[BaseFile]] =
    slices.map { case (p, ss) => p -> ss.filterNot(_.hasLogs).flatMap(_.baseFile) }

  /**
   * The file group ids, per partition, of a write that replaces what it loaded: every listed
   * group with a base file and every group that lost a file.
   */
  def replacedFileIds: Map[String, Seq[String]] =
    (byPartition.toSeq.flatMap { case (p, bs) => bs.map(b => p -> b.fileId) } ++
      lost.toSeq.map(g => g.partitionPath -> g.fileId))
      .distinct.groupMap(_._1)(_._2).map { case (p, ids) => p -> ids.sorted }

  def slice(partition: String, fileId: String): Option[FileSlice] =
    slices.getOrElse(partition, Nil).find(_.groupId.fileId == fileId)
}

object TableFiles {
  val Empty: TableFiles = TableFiles(Map.empty)

  /**
   * @param partitions the partitions to list, or None for the whole table
   * @param toReplace  the write replaces every group it loads (insert overwrite, delete
   *                   partition) without reading them: a group that lost a file is not an error
   *                   and is reported in `lost`, so that it is replaced too
   * @throws io.pyhudi.errors.MissingFileException when a file that a latest slice in these
   *         partitions should hold is gone: merging into, or indexing, the slice that is left
   *         would bring back another version of its records. Nothing has been written yet.
   */
  def load(table: HoodieTable, partitions: Option[Seq[String]], toReplace: Boolean = false): TableFiles =
    table.timeline.latestCompletedWrite.map(_.timestamp) match {
      case None => Empty
      case Some(latest) =>
        val listing = partitions match {
          case Some(ps) => PartitionLister.listSome(table.storage, table.basePath, ps)
          case None => PartitionLister.list(table.storage, table.basePath)
        }
        val replaced = FileSystemView.replacedFileGroups(table.timeline, latest, table.commitMetadata)
        val missing = CommittedFiles.missing(table.timeline, table.commitMetadata, listing, latest, replaced,
          withLogs = true)
        if (missing.nonEmpty && !toReplace)
          throw CommittedFiles.failure(table.basePath, missing, latest, "this write")
        val view = new FileSystemView(table.timeline, listing, latest, replaced)
        TableFiles(view.latestSlices.groupBy(_.groupId.partitionPath), missing.map(_.groupId).toSet)
    }
}
