// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import org.slf4j.LoggerFactory

import io.pyhudi.config.WriteConfig
import io.pyhudi.storage.Storage

/**
 * Apache Hudi's metadata table (`.hoodie/metadata`, a merge-on-read table listing every data
 * file) is an index that must hold every completed instant: Hudi readers and writers that find
 * `files` in `hoodie.table.metadata.partitions` list files from it instead of storage. pyhudi
 * does not maintain it, so before pyhudi adds anything to the timeline it removes the metadata
 * table the way Apache Hudi does when a writer runs with `hoodie.metadata.enable=false`:
 *  1. clear `hoodie.table.metadata.partitions` (and `.inflight`) in `hoodie.properties`, with the
 *     backup protocol, so that from this moment no Hudi reader or writer trusts the folder;
 *  2. delete `.hoodie/metadata`.
 * A crash after step 1 leaves a folder no one reads; the next pyhudi action deletes it, and an
 * Apache Hudi writer with the metadata table on rebuilds it from a listing. A crash before step 1
 * leaves the metadata table exact, since pyhudi has not changed the table yet.
 */
object MetadataTable {

  val Folder = "metadata"

  private val log = LoggerFactory.getLogger(getClass)

  /** True when the table advertises metadata partitions or has a metadata folder. */
  def isPresent(storage: Storage, basePath: String): Boolean =
    advertised(properties(storage, basePath)) || storage.exists(folder(basePath))

  /**
   * Removes the metadata table if there is one (steps 1 and 2 above); `why` names the pyhudi
   * action, for the warning. Returns true when anything was removed.
   */
  def removeIfPresent(storage: Storage, basePath: String, why: String): Boolean = {
    val props = properties(storage, basePath)
    val listed = advertised(props)
    if (listed) {
      val partitions = props.getOrElse(TableConfig.MetadataPartitions, "").trim
      log.warn(s"Table $basePath has Apache Hudi's metadata table (partitions: $partitions), which pyhudi " +
        s"does not maintain; removing it before $why so that no reader or writer lists files from a stale " +
        s"index. Apache Hudi writers with ${WriteConfig.MetadataEnable.key}=true rebuild it from a file listing.")
      TablePropertiesWriter.update(storage, basePath)(_ -- Seq(TableConfig.MetadataPartitions,
          TableConfig.MetadataPartitionsInflight))
      CrashPoint("metadata-table-unlisted")
    }
    val dir = folder(basePath)
    val hadFolder = storage.exists(dir)
    if (hadFolder) {
      if (!listed)
        log.warn(s"Deleting $dir, a metadata table folder that ${HoodieTable.PropertiesFile} no longer lists " +
          "(left by an interrupted removal or by a writer that disabled the metadata table)")
      storage.delete(dir, recursive = true)
      CrashPoint("metadata-table-deleted")
    }
    listed || hadFolder
  }

  /** Stored properties; none while a table is being created. */
  private def properties(storage: Storage, basePath: String): Map[String, String] =
    try HoodieTable.readProperties(storage, basePath)
    catch { case _: io.pyhudi.errors.TableNotFoundException => Map.empty }

  private def advertised(props: Map[String, String]): Boolean =
    Seq(TableConfig.MetadataPartitions, TableConfig.MetadataPartitionsInflight).exists(k =>
      props.get(k).exists(_.trim.nonEmpty))

  private def folder(basePath: String): String = s"$basePath/${HoodieTable.MetaFolder}/$Folder"
}
