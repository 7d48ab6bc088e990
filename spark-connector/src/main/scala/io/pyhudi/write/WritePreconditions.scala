// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors
import io.pyhudi.table.TableConfig

/** Table features a write accepts or refuses, checked before the table is created or changed. */
object WritePreconditions {

  /**
   * Refuses writes without meta fields, asked for in the options or recorded by the table:
   * every pyhudi write relies on the stored record keys and commit times.
   *
   * @param existing the table's config when the table exists
   * @throws io.pyhudi.errors.InvalidOptionException for `hoodie.populate.meta.fields=false`
   */
  def check(options: Map[String, String], existing: Option[TableConfig], path: String): Unit = {
    // Every option given is parsed now, so a bad value fails before the table is touched, even
    // one that only a later step (a service after the commit, say) would read.
    WriteConfig.entries.foreach(_.from(options))
    val noMetaFields = options.exists { case (k, v) =>
      k.equalsIgnoreCase(TableConfig.PopulateMetaFields) && v.trim.equalsIgnoreCase("false")
    }
    if (noMetaFields)
      throw Errors.unsupportedWrite(s"writing tables with ${TableConfig.PopulateMetaFields}=false ($path)")
    existing.foreach { c =>
      if (!c.populateMetaFields)
        throw Errors.unsupportedWrite(s"writing tables with ${TableConfig.PopulateMetaFields}=false ($path)")
    }
  }

  /** The warning for `hoodie.metadata.enable=true`, which is accepted but has no effect. */
  def metadataTableWarning(options: Map[String, String], path: String): Option[String] =
    if (!WriteConfig.MetadataEnable.from(options).get) None
    else Some(s"${WriteConfig.MetadataEnable.key}=true is ignored: pyhudi does not maintain Apache Hudi's " +
      s"metadata table and removes it from $path before changing the table (docs/interop.md)")
}
