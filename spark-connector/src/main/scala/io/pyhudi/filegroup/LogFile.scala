// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

/**
 * A log file `.<fileId>_<baseInstant>.log.<version>_<writeToken>`. In table version 6 the
 * instant in the name is the base instant of the slice the log belongs to, not the writer's.
 */
final case class LogFile(path: String, fileId: String, baseInstant: String, version: Int,
    writeToken: String, size: Long) {
  def name: String = path.substring(path.lastIndexOf('/') + 1)
}

object LogFile {
  private val Pattern = """^\.(.+)_(.*)\.(log|archive)\.(\d+)(_((\d+)-(\d+)-(\d+))(\.cdc)?)?$""".r

  def parse(path: String, size: Long): Option[LogFile] = {
    val name = path.substring(path.lastIndexOf('/') + 1)
    name match {
      case Pattern(fileId, base, "log", version, _, token, _, _, _, cdc) if cdc == null =>
        Some(LogFile(path, fileId, base, version.toInt, Option(token).getOrElse(""), size))
      case _ => None
    }
  }

  /**
   * The version the next log file of slice (`fileId`, `baseInstant`) gets: one past the highest
   * version among `logs` (any listing; files of other slices are ignored), 1 when it has none.
   * Hudi 0.14 never appends to an existing log file (hudi-format.md §4.2).
   */
  def nextVersion(logs: Iterable[LogFile], fileId: String, baseInstant: String): Int =
    logs.iterator.filter(l => l.fileId == fileId && l.baseInstant == baseInstant)
      .map(_.version).maxOption.getOrElse(0) + 1

  /** The name of log `version` of slice (`fileId`, `baseInstant`) written with `writeToken`. */
  def fileName(fileId: String, baseInstant: String, version: Int, writeToken: String): String =
    s".${fileId}_$baseInstant.log.${version}_$writeToken"

  /** Apache Hudi's log order: base instant, version, then write token. */
  implicit val ordering: Ordering[LogFile] =
    Ordering.by((l: LogFile) => (l.baseInstant, l.version, l.writeToken))
}
