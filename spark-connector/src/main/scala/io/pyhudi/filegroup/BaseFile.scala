// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

/** A columnar base file `<fileId>_<writeToken>_<instant>.parquet`. */
final case class BaseFile(path: String, fileId: String, writeToken: String, instant: String, size: Long) {
  def name: String = path.substring(path.lastIndexOf('/') + 1)
}

object BaseFile {
  val Extension = ".parquet"

  /** Parses a base file name; None when the name does not follow the grammar. */
  def parse(path: String, size: Long): Option[BaseFile] = {
    val name = path.substring(path.lastIndexOf('/') + 1)
    if (name.startsWith(".") || !name.endsWith(Extension)) return None
    val parts = name.stripSuffix(Extension).split('_')
    if (parts.length != 3 || parts.exists(_.isEmpty) || !parts(2).forall(_.isDigit)) None
    else Some(BaseFile(path, parts(0), parts(1), parts(2), size))
  }
}
