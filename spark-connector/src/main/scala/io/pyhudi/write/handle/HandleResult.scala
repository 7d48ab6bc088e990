// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

/**
 * What a handle wrote to one file: becomes a write stat in the commit metadata.
 *
 * @param relativePath the file's path relative to the base path
 * @param prevCommit   the replaced base file's instant (None for a new file group); for a log
 *                     file, the base instant of the slice it extends
 * @param baseFile     log files only: the base file name of the slice
 * @param logFiles     log files only: the log file names written
 * @param logVersion   Some(version) for a log file, which makes its stat a log stat (§3.2)
 */
final case class HandleResult(
    partitionPath: String,
    fileId: String,
    relativePath: String,
    prevCommit: Option[String],
    numWrites: Long,
    numInserts: Long,
    numUpdates: Long,
    numDeletes: Long,
    fileSize: Long,
    minKey: String,
    maxKey: String,
    timeMillis: Long,
    baseFile: Option[String] = None,
    logFiles: Seq[String] = Nil,
    logVersion: Option[Int] = None) {

  /** True when the handle appended a log file rather than writing a base file. */
  def isLog: Boolean = logVersion.isDefined
}
