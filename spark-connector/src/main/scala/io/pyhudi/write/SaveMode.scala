// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors

/**
 * A DataFrame save mode, as a write to a Hudi table reads it; the engine's own save mode is
 * mapped onto this before anything touches the table.
 */
sealed trait SaveMode {

  /**
   * The options to write with when the table at `path` exists or not, or None when the write is
   * to do nothing (Ignore on an existing table). Overwrite of an existing table becomes the
   * insert_overwrite_table operation, as in Apache Hudi, so the replaced file groups stay on the
   * timeline until cleaned.
   *
   * @throws io.pyhudi.errors.InvalidOptionException ErrorIfExists on an existing table
   */
  def options(tableExists: Boolean, path: String, options: Map[String, String]): Option[Map[String, String]] =
    this match {
      case SaveMode.ErrorIfExists if tableExists => throw Errors.tableExistsForSaveMode(path)
      case SaveMode.Ignore if tableExists => None
      case SaveMode.Overwrite if tableExists =>
        Some(options + (WriteConfig.Operation.key -> WriteOperation.InsertOverwriteTable.value))
      case _ => Some(options)
    }
}

object SaveMode {
  case object Append extends SaveMode
  case object Overwrite extends SaveMode
  case object ErrorIfExists extends SaveMode
  case object Ignore extends SaveMode
}
