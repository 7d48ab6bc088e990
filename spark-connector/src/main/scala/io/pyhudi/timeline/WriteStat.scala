// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

/**
 * One file written by a commit: a `HoodieWriteStat`, or a `HoodieDeltaWriteStat` for a log
 * append (hudi-format.md §3.2). In a workload profile (the inflight file, §2.2.1) a stat
 * describes planned work instead of a file: it has no `path`.
 *
 * @param partitionPath relative partition path, "" when unpartitioned
 * @param fileId        file group id; "" in the per-partition insert entry of a workload profile
 * @param path          the written file relative to the base path (`<partition>/<name>`)
 * @param prevCommit    base instant of the slice the file replaces or extends; None for a new
 *                      file group (written as the string "null", as Hudi does)
 * @param baseFile      log stats: base file name of the slice ("" is written when None)
 * @param logFiles      log stats: the slice's log file names
 * @param logVersion    Some for a log stat: only then are `logVersion`, `logOffset`, `baseFile`,
 *                      `logFiles` and `recordsStats` written
 * @param prevBaseFile  compaction: the compacted slice's base file name (written only when set)
 * @param runtimeStats  timings; None for workload-profile entries
 */
final case class WriteStat(
    partitionPath: String,
    fileId: String,
    path: Option[String],
    prevCommit: Option[String] = None,
    baseFile: Option[String] = None,
    logFiles: Seq[String] = Nil,
    numWrites: Long = 0,
    numDeletes: Long = 0,
    numUpdateWrites: Long = 0,
    numInserts: Long = 0,
    totalWriteBytes: Long = 0,
    totalWriteErrors: Long = 0,
    fileSizeInBytes: Long = 0,
    logVersion: Option[Int] = None,
    logOffset: Long = 0,
    prevBaseFile: Option[String] = None,
    totalLogRecords: Long = 0,
    totalLogFilesCompacted: Long = 0,
    totalLogSizeCompacted: Long = 0,
    totalUpdatedRecordsCompacted: Long = 0,
    totalLogBlocks: Long = 0,
    totalCorruptLogBlock: Long = 0,
    totalRollbackBlocks: Long = 0,
    runtimeStats: Option[RuntimeStats] = None) {

  /** The bare file name the stat describes (its path without the partition folder). */
  def fileName: Option[String] = path.map(p => p.substring(p.lastIndexOf('/') + 1))

  /** True for a log append (`HoodieDeltaWriteStat`). */
  def isLogStat: Boolean = logVersion.isDefined
}

/** Time spent by the task that wrote a file, in milliseconds. */
final case class RuntimeStats(totalScanTime: Long = 0, totalUpsertTime: Long = 0, totalCreateTime: Long = 0)
