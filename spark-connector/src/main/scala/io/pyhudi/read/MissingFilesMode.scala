// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

/**
 * What a read does when a file that commit metadata lists for a served slice is gone
 * (`hoodie.datasource.read.missing.files`).
 */
sealed abstract class MissingFilesMode(val name: String) extends Serializable {
  override def toString: String = name
}

object MissingFilesMode {

  /** Fail the query, naming the file and the instant that wrote it. */
  case object Fail extends MissingFilesMode("fail")

  /** Serve the rest: leave the file's rows out and log a warning naming it. */
  case object Skip extends MissingFilesMode("skip")

  val All: Seq[MissingFilesMode] = Seq(Fail, Skip)
}
