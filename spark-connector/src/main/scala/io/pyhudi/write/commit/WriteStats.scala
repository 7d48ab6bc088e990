// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import io.pyhudi.filegroup.{BaseFile, FileSlice}
import io.pyhudi.timeline.{RuntimeStats, WriteStat}
import io.pyhudi.write.handle.HandleResult

/**
 * Every write stat pyhudi commits (hudi-format.md §3.2) is built here: the files write handles
 * wrote, the base files compaction wrote, and the planned entries of an inflight workload
 * profile (§2.2.1). One place keeps the fields Hudi reads back consistent across those paths.
 */
object WriteStats {

  /**
   * A file a write handle wrote: a base file, or a log append (a delta stat) when the result has
   * a log version. The task's time counts as upsert time when the file extends or replaces a
   * slice (`prevCommit` set), as create time for a new file group, as Hudi records it.
   */
  def written(r: HandleResult): WriteStat = WriteStat(
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

  /**
   * The base file compaction wrote for one slice: `prevCommit` is the slice's base instant,
   * `prevBaseFile` its base file name (absent for log-only groups), log figures from the slice.
   *
   * @param basePath the table's base path, which `output.path` starts with
   * @param output   the new base file `<fileId>_<token>_<T>.parquet` with its written size
   */
  def compacted(basePath: String, slice: FileSlice, output: BaseFile, counts: CompactionCounts): WriteStat =
    WriteStat(
      partitionPath = slice.groupId.partitionPath,
      fileId = slice.groupId.fileId,
      path = Some(output.path.stripPrefix(basePath).stripPrefix("/")),
      prevCommit = Some(slice.baseInstant),
      numWrites = counts.numWrites,
      numDeletes = counts.numDeletes,
      numUpdateWrites = counts.numUpdateWrites,
      numInserts = counts.numInserts,
      totalWriteBytes = output.size,
      fileSizeInBytes = output.size,
      prevBaseFile = slice.baseFile.map(_.name),
      totalLogRecords = counts.totalLogRecords,
      totalLogFilesCompacted = slice.logFiles.size,
      totalLogSizeCompacted = slice.logFiles.map(_.size).sum,
      totalUpdatedRecordsCompacted = counts.totalUpdatedRecordsCompacted,
      totalLogBlocks = counts.totalLogBlocks,
      totalCorruptLogBlock = counts.totalCorruptLogBlock,
      totalRollbackBlocks = counts.totalRollbackBlocks,
      runtimeStats = Some(RuntimeStats(totalScanTime = counts.scanTimeMillis,
          totalUpsertTime = counts.writeTimeMillis)))

  /** Workload profile: the rows a partition sends to new file groups (`fileId` "", no path). */
  def plannedInserts(partitionPath: String, rows: Long): WriteStat =
    WriteStat(partitionPath, "", None, numInserts = rows)

  /** Workload profile: a file group that will take updates, with its base instant. */
  def plannedUpdate(u: PlannedUpdate): WriteStat =
    WriteStat(u.partitionPath, u.fileId, None, prevCommit = Some(u.baseInstant), numUpdateWrites = u.numUpdates)
}
