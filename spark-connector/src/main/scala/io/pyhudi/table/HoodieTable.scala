// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import org.apache.hadoop.conf.Configuration

import io.pyhudi.errors.{Errors, PyhudiException}
import io.pyhudi.storage.Storage
import io.pyhudi.timeline.{CommitMetadata, Instant, Timeline}

/**
 * An opened table: base path, validated config and the timeline as listed when it was opened.
 * Plain Scala with no Spark dependency, shared by reads, writes and table services.
 */
final class HoodieTable private (
    val basePath: String,
    val config: TableConfig,
    val timeline: Timeline,
    val storage: Storage) {

  val metaPath: String = s"$basePath/${HoodieTable.MetaFolder}"

  def tableType: TableType = config.tableType

  /** The same table opened again: current config and timeline. */
  def reload(): HoodieTable = HoodieTable.open(basePath, storage)

  // A completed instant's metadata never changes: planning reads each file once per opened table.
  private val metadataCache = scala.collection.concurrent.TrieMap.empty[Instant, CommitMetadata]

  /** Reads the JSON metadata of a completed write instant (once per opened table). */
  def commitMetadata(instant: Instant): CommitMetadata = metadataCache.getOrElseUpdate(instant, {
      val path = s"$metaPath/${instant.fileName}"
      try CommitMetadata.parse(storage.readAll(path))
      catch {
        case e: PyhudiException => throw e
        case e: Exception => throw Errors.corruptFile(path, s"invalid commit metadata (${e.getMessage})", e)
      }
    })
}

object HoodieTable {
  val MetaFolder = ".hoodie"
  val PropertiesFile = "hoodie.properties"

  /** Opens and validates the table at `path`; errors name the path and what is wrong. */
  def open(path: String, conf: Configuration): HoodieTable = open(path, new Storage(conf))

  /** Opens and validates the table at `path` through `storage`. */
  def open(path: String, storage: Storage): HoodieTable = {
    val base = stripSlash(storage.qualify(path))
    if (!storage.exists(base)) throw Errors.pathNotFound(path)
    val config = TableConfig(readProperties(storage, base), path)
    TableConfig.validate(config)
    val names = storage.listFiles(s"$base/$MetaFolder").map(_.name)
    new HoodieTable(base, config, Timeline.fromFileNames(names), storage)
  }

  /**
   * The stored `hoodie.properties`, or its backup when an interrupted update left only that
   * (Apache Hudi's fallback, hudi-format.md §1.4).
   *
   * @throws io.pyhudi.errors.TableNotFoundException when neither exists
   */
  def readProperties(storage: Storage, basePath: String): Map[String, String] = {
    val meta = s"$basePath/$MetaFolder"
    val file = Seq(s"$meta/$PropertiesFile", s"$meta/${TablePropertiesWriter.BackupFile}")
      .find(storage.exists).getOrElse(throw Errors.notAHudiTable(basePath))
    TableConfig.parse(storage.readAll(file), basePath).props
  }

  private def stripSlash(p: String): String =
    if (p.length > 1 && p.endsWith("/")) p.dropRight(1) else p
}
