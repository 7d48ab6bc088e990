// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

/** Identity of a file group: its partition path (relative, "" when unpartitioned) and file id. */
final case class FileGroupId(partitionPath: String, fileId: String)

/**
 * A base file (absent only for log-only groups) and its log files, oldest first. `baseInstant`
 * is the instant of the base file, or the base instant named by the logs.
 */
final case class FileSlice(
    groupId: FileGroupId,
    baseInstant: String,
    baseFile: Option[BaseFile],
    logFiles: Seq[LogFile]) {

  def hasLogs: Boolean = logFiles.nonEmpty

  def withoutLogs: FileSlice = copy(logFiles = Nil)

  def totalSize: Long = baseFile.map(_.size).getOrElse(0L) + logFiles.map(_.size).sum
}

/** All slices of one file group, oldest first. */
final case class FileGroup(id: FileGroupId, slices: Seq[FileSlice]) {
  def latest: Option[FileSlice] = slices.lastOption
}
