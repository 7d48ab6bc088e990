package io.pyhudi.write.commit

import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{CommitMetadata, PlannedUpdate, RuntimeStats, WriteStat}
import io.pyhudi.write.WriteOperation
import io.pyhudi.write.handle.HandleResult
import io.pyhudi.write.plan.Bucket

/** Commit-metadata pieces of a write: write stats, the inflight workload, size estimates. */
object Commits {

  def writeStat(r: HandleResult): WriteStat = WriteStat(
    partitionPath = r.partitionPath,
    fileId = r.fileId,
    path = Some(r.relativePath),
    prevCommit = r.prevCommit,
    baseFile = r.baseFile,
    logFiles = r.logFiles,
    numWrites = r.numWrites,
    numDeletes = r.numDeletes,
    numUpdateWrites = r.numUpdates,
    numInserts = r.numInserts,
    totalWriteBytes = r.fileSize,
    fileSizeInBytes = r.fileSize,
    logVersion = r.logVersion,
    runtimeStats = Some(RuntimeStats(0L, if (r.prevCommit.isDefined) r.timeMillis else 0L,
      if (r.prevCommit.isEmpty) r.timeMillis else 0L)))

  /** The inflight file's workload profile: inserts per partition and the groups to update. */
  def workload(op: WriteOperation, updated: Seq[Bucket], inserts: Map[String, Long]): CommitMetadata =
    CommitMetadata.workloadProfile(op.metadataName, inserts,
      updated.map(b => PlannedUpdate(b.partitionPath, b.fileId, b.base.map(_.instant).getOrElse(""), 0L)))

  /**
   * Bytes per record from the newest commit that wrote records (Hudi's estimate), else the
   * configured default.
   */
  def averageRecordSize(table: HoodieTable, default: Long): Long =
    table.timeline.completedWrites.reverseIterator.take(20).map(table.commitMetadata).map { m =>
      val records = m.writeStats.map(_.numWrites).sum
      val bytes = m.writeStats.map(_.totalWriteBytes).sum
      if (records > 0 && bytes > 0) Some(math.max(1L, bytes / records)) else None
    }.collectFirst { case Some(size) => size }.getOrElse(default)
}
