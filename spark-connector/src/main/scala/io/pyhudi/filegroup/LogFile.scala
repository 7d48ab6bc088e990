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

  /** Apache Hudi's log order: base instant, version, then write token. */
  implicit val ordering: Ordering[LogFile] =
    Ordering.by((l: LogFile) => (l.baseInstant, l.version, l.writeToken))
}
