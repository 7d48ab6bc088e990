// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import org.slf4j.LoggerFactory

import io.pyhudi.config.ReadConfig
import io.pyhudi.filegroup.{CommittedFiles, FileGroupId, FileSlice, FileSystemView, PartitionLister}
import io.pyhudi.storage.FileInfo
import io.pyhudi.table.{HoodieTable, TableType}

/**
 * Plans a snapshot, read-optimized, time-travel or incremental query into file slices. Runs on
 * the driver and reads only the timeline, commit metadata and directory listings, never data
 * files.
 */
object ScanPlanner {

  private val log = LoggerFactory.getLogger(getClass)

  /**
   * @param keepPartition partition-pruning predicate over relative partition paths
   */
  def plan(table: HoodieTable, spec: QuerySpec, keepPartition: String => Boolean): ScanPlan = {
    val timeline = table.timeline
    val latest = timeline.latestCompletedWrite.map(_.timestamp)
    if (spec.isIncremental) planIncremental(table, spec, latest, keepPartition)
    else {
      val asOf = spec.asOf.orElse(latest)
      asOf match {
        case None => ScanPlan(None, None, Nil, 0, 0)
        case Some(t) =>
          val listing = PartitionLister.list(table.storage, table.basePath)
          val kept = listing.filter { case (p, _) => keepPartition(p) }
          val retired = replaced(table, t)
          val view = new FileSystemView(timeline, kept, t, retired)
          val served = present(table, spec, kept, t, retired, view.latestSlices, _ => true)
          val slices = served.filter(s => s.baseFile.isDefined || !readOptimized(table, spec))
          ScanPlan(Some(t), None, slices.map(s => if (readOptimized(table, spec)) s.withoutLogs else s),
            listing.size, kept.size)
      }
    }
  }

  private def readOptimized(table: HoodieTable, spec: QuerySpec): Boolean =
    spec.isReadOptimized || table.tableType == TableType.CopyOnWrite

  /**
   * The served slices after checking that every file commit metadata says they hold is listed
   * ([[CommittedFiles]]): fails naming the missing files, or with `skip` leaves their rows out.
   */
  private def present(table: HoodieTable, spec: QuerySpec, listing: Seq[(String, Seq[FileInfo])],
      asOf: String, retired: Set[FileGroupId], slices: Seq[FileSlice], keep: FileGroupId => Boolean): Seq[FileSlice] = {
    // Read-optimized (and copy-on-write) queries serve base files only.
    val withLogs = !readOptimized(table, spec)
    val missing = CommittedFiles.missing(table.timeline, table.commitMetadata, listing, asOf, retired,
      withLogs, keep)
    if (missing.isEmpty) slices
    else spec.missingFiles match {
      case MissingFilesMode.Fail => throw CommittedFiles.failure(table.basePath, missing, asOf, "this read")
      case MissingFilesMode.Skip =>
        missing.foreach { m =>
          log.warn(s"Skipping missing file ${table.basePath}/${m.path}, written by completed instant " +
            s"${m.instant}: its rows are left out of the read at instant $asOf " +
            s"(${ReadConfig.MissingFiles.key}=skip)")
        }
        CommittedFiles.withoutMissing(slices, missing)
    }
  }

  private def replaced(table: HoodieTable, asOf: String): Set[FileGroupId] =
    FileSystemView.replacedFileGroups(table.timeline, asOf, table.commitMetadata)

  /**
   * Incremental: the file groups written by commits in (begin, end], read as of `end`; the
   * reader then keeps the records whose commit time falls in the range.
   */
  private def planIncremental(table: HoodieTable, spec: QuerySpec, latest: Option[String],
      keepPartition: String => Boolean): ScanPlan = {
    val begin = spec.begin.get
    val end = spec.end.orElse(latest)
    end match {
      case None => ScanPlan(None, None, Nil, 0, 0)
      case Some(e) if e <= begin => ScanPlan(Some(e), Some(begin -> e), Nil, 0, 0)
      case Some(e) =>
        val commits = table.timeline.completedWritesBetween(begin, e)
        val touched = commits.flatMap(i => table.commitMetadata(i).touchedFileGroups)
          .map { case (p, f) => FileGroupId(p, f) }.toSet
        val partitions = touched.map(_.partitionPath).toSeq
        val kept = partitions.filter(keepPartition)
        val listing = PartitionLister.listSome(table.storage, table.basePath, kept)
        val retired = replaced(table, e)
        val view = new FileSystemView(table.timeline, listing, e, retired)
        val slices = present(table, spec, listing, e, retired, view.latestSlices, touched)
          .filter(s => touched(s.groupId))
          .map(s => if (table.tableType == TableType.CopyOnWrite) s.withoutLogs else s)
        ScanPlan(Some(e), Some(begin -> e), slices, partitions.size, kept.size)
    }
  }
}
