// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import java.util.UUID

import io.pyhudi.storage.{JavaProperties, Storage}

/**
 * Rewrites `.hoodie/hoodie.properties` of an existing table with Apache Hudi's update protocol
 * (hudi-format.md §1.4): the current file is copied to `hoodie.properties.backup`, the new one is
 * moved into place whole, then the backup is deleted. Readers that find no valid
 * `hoodie.properties` (a crash between the steps on a store without atomic replace) read the
 * backup, so every moment has one complete config. The checksum is recomputed.
 */
object TablePropertiesWriter {

  val BackupFile = "hoodie.properties.backup"

  /** Applies `change` to the stored properties; returns the new map (unchanged: nothing written). */
  def update(storage: Storage, basePath: String)(
      change: Map[String, String] => Map[String, String]): Map[String, String] = {
    val meta = s"$basePath/${HoodieTable.MetaFolder}"
    val path = s"$meta/${HoodieTable.PropertiesFile}"
    val current = HoodieTable.readProperties(storage, basePath)
    val next = change(current)
    if (next == current) return current
    val withChecksum = next + (TableConfig.Checksum -> TableCreator.checksum(next).toString)
    val bytes = JavaProperties.store(withChecksum.toSeq.sortBy(_._1), s"Updated at ${java.time.Instant.now()}")
    // Without hoodie.properties an interrupted update already left the backup we read.
    if (storage.exists(path)) storage.create(s"$meta/$BackupFile", storage.readAll(path), overwrite = true)
    CrashPoint("properties-backed-up")
    val temp = s"$meta/.${HoodieTable.PropertiesFile}.${UUID.randomUUID()}.tmp"
    storage.create(temp, bytes, overwrite = true)
    try storage.replace(temp, path)
    catch { case e: Throwable => storage.deleteQuietly(temp); throw e }
    storage.delete(s"$meta/$BackupFile")
    withChecksum
  }
}
