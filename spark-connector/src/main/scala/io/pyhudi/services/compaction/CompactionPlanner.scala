// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.compaction

import io.pyhudi.filegroup.{CommittedFiles, FileGroupId, FileSlice, FileSystemView, PartitionLister}
import io.pyhudi.services.clustering.ClusteringTransaction
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.timeline.{Action, TimelineWriter}
import io.pyhudi.timeline.avro.CompactionPlan
import io.pyhudi.write.commit.Markers

/**
 * Chooses what a compaction folds (hudi-format.md §2.5): the latest slice of each file group
 * that has log files, as the [[io.pyhudi.filegroup.FileSystemView]] forms slices at the latest
 * completed instant (replaced groups excluded). Groups already in a pending compaction or
 * clustering plan are left out. Reads the timeline and listings only, never data files.
 */
object CompactionPlanner {

  /**
   * The plan, or None when no slice has logs (or the table is copy-on-write or empty).
   *
   * Slices are ordered by total log size, largest first, then by partition and file id (the
   * order of Hudi's default `LogFileSizeBasedCompactionStrategy`). With `targetIoBytes`
   * (`hoodie.compaction.target.io`, here in bytes of base plus log files read), the plan takes
   * the longest prefix of that order whose total stays within the target, and always at least
   * the first slice.
   */
  def plan(table: HoodieTable, targetIoBytes: Option[Long] = None): Option[CompactionPlan] = {
    val candidates = compactableSlices(table)
      .sortBy(s => (-s.logFiles.map(_.size).sum, s.groupId.partitionPath, s.groupId.fileId))
    val chosen = targetIoBytes match {
      case None => candidates
      case Some(target) =>
        val totals = candidates.scanLeft(0L)(_ + _.totalSize).tail
        val within = candidates.zip(totals).takeWhile(_._2 <= target).map(_._1)
        if (within.isEmpty) candidates.take(1) else within
    }
    if (chosen.isEmpty) None
    else Some(CompactionPlan(Some(chosen.map(CompactionOperations.fromSlice)), None, Some(2)))
  }

  /**
   * The latest slice with logs of every file group that no pending compaction covers.
   *
   * @throws io.pyhudi.errors.MissingFileException when a latest slice lost a file
   */
  def compactableSlices(table: HoodieTable): Seq[FileSlice] = {
    if (table.tableType != TableType.MergeOnRead) return Nil
    table.timeline.latestCompletedWrite.map(_.timestamp) match {
      case None => Nil
      case Some(asOf) =>
        val pending: Set[FileGroupId] = (CompactionTransaction.pendingCompactions(table)
          .flatMap(_._2.operations.getOrElse(Nil)).map(CompactionOperations.groupId) ++
          ClusteringTransaction.pendingFileGroups(table).keys).toSet
        val listing = PartitionLister.list(table.storage, table.basePath)
        val replaced = FileSystemView.replacedFileGroups(table.timeline, asOf, table.commitMetadata)
        // Compacting a slice that lost a file would publish another version of its records.
        val missing = CommittedFiles.missing(table.timeline, table.commitMetadata, listing, asOf, replaced,
          withLogs = true, keep = g => !pending(g))
        if (missing.nonEmpty) throw CommittedFiles.failure(table.basePath, missing, asOf, "compaction")
        val writing = pendingWriteGroups(table)
        new FileSystemView(table.timeline, listing, asOf, replaced).latestSlices
          .filter(s => s.hasLogs && !pending(s.groupId) && !writing(s.groupId))
    }
  }

  /**
   * File groups that writes pending now have written to, from their markers. Left out of the
   * plan: a pending write's log file would count as a log of the slice (a log file's name does
   * not say which instant wrote it), and compacting that group would make the writer lose at its
   * commit under optimistic concurrency control; the next compaction takes the group. Read after
   * the listing: a marker exists before its data file, so every such file listed is covered.
   */
  private def pendingWriteGroups(table: HoodieTable): Set[FileGroupId] = {
    val now = new TimelineWriter(table.storage, table.metaPath).timeline()
    now.pendingWrites.filter(i => Action.Writes(i.action)).flatMap { i =>
      new Markers(table.storage, table.basePath, i.timestamp).list().flatMap(m =>
        m.fileId.map(FileGroupId(m.partitionPath, _)))
    }.toSet
  }

  /**
   * True when at least `maxDeltaCommits` deltacommits completed after the latest completed
   * compaction (a `commit` whose metadata says `compacted: true`), or since the start of the
   * active timeline when there is none (`hoodie.compact.inline.max.delta.commits`).
   */
  def shouldCompactInline(table: HoodieTable, maxDeltaCommits: Int): Boolean =
    deltaCommitsSinceLastCompaction(table) >= maxDeltaCommits

  /** Completed deltacommits after the latest completed compaction commit. */
  def deltaCommitsSinceLastCompaction(table: HoodieTable): Int = {
    val writes = table.timeline.completedWrites
    val lastCompaction = writes.reverseIterator
      .find(i => i.action == Action.Commit && table.commitMetadata(i).compacted)
      .map(_.timestamp)
    writes.count(i => i.action == Action.DeltaCommit && lastCompaction.forall(i.timestamp > _))
  }
}
