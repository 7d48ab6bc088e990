// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.plan

import io.pyhudi.filegroup.LogFile

/** The slice a merge-on-read write appends a log file to, and the log version it creates. */
final case class AppendTarget(baseInstant: String, baseFileName: String, nextLogVersion: Int)

object AppendTarget {

  /**
   * Merge-on-read: which buckets of `plan` append a log file, and where. Updates and deletes of
   * an existing file group go to a new log file of its latest slice, one version above the
   * slice's newest log. A base-only bucket that also takes small-file inserts is rewritten
   * instead (no target), as Apache Hudi does when its index cannot see keys in log files; with
   * `everyGroupLogs` (the bucket index) every existing group takes a log file.
   */
  def plan(plan: WritePlan, files: TableFiles, everyGroupLogs: Boolean): Map[Int, AppendTarget] = {
    val insertBuckets = plan.insertTargets.values.flatMap(_.map(_._1)).toSet
    plan.buckets.flatMap { b =>
      for {
        base <- b.base
        if everyGroupLogs || !insertBuckets(b.index)
        slice <- files.slice(b.partitionPath, b.fileId)
      } yield b.index -> AppendTarget(slice.baseInstant, base.name,
        LogFile.nextVersion(slice.logFiles, b.fileId, slice.baseInstant))
    }.toMap
  }
}
