// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.FileAlreadyExistsException
import java.util.UUID
import java.util.zip.CRC32

import io.pyhudi.errors.Errors
import io.pyhudi.storage.{JavaProperties, Storage}

/**
 * Creates an empty table version 6 (hudi-format.md §0.1, §1): the folders Apache Hudi creates
 * under `.hoodie/` and `hoodie.properties`, published last and atomically, so that a table
 * exists exactly when its properties file does.
 */
object TableCreator {

  /** Keys this creator sets; a caller may repeat them only with the same value. */
  val FixedProperties: Map[String, String] = Map(
    TableConfig.Version -> "6",
    TableConfig.TimelineLayoutVersion -> "1",
    TableConfig.ArchiveLogFolder -> "archived",
    // pyhudi's instant times are UTC (InstantTimeGenerator).
    TableConfig.TimelineTimezone -> "UTC")

  /** Folders under `.hoodie/` that Hudi creates with a table; readers need none of them. */
  val MetaFolders: Seq[String] =
    Seq(".temp", "archived", ".aux/.bootstrap/.partitions", ".aux/.bootstrap/.fileids", ".schema")

  /**
   * Creates the table at `basePath`. `props` holds the table's own keys (name, type, record key
   * and partition fields, key generator, precombine field, create schema, ... : the
   * [[TableConfig]] constants); [[FixedProperties]] and the checksum are added here.
   *
   * @throws io.pyhudi.errors.TableExistsException when `.hoodie/hoodie.properties` exists;
   *         nothing is changed then
   * @throws io.pyhudi.errors.InvalidTableException when the properties would not open as a table
   */
  def create(storage: Storage, basePath: String, props: Map[String, String]): Unit = {
    val base = basePath.stripSuffix("/")
    val meta = s"$base/${HoodieTable.MetaFolder}"
    val propsPath = s"$meta/${HoodieTable.PropertiesFile}"
    if (storage.exists(propsPath)) throw Errors.tableExists(base)
    FixedProperties.foreach { case (k, v) =>
      props.get(k).filter(_ != v).foreach { other =>
        throw Errors.cannotCreateTable(base, s"$k=$other is not supported; pyhudi writes $k=$v")
      }
    }
    val all = props ++ FixedProperties + (TableConfig.Checksum -> checksum(props).toString)
    TableConfig.validate(TableConfig(all, base))
    MetaFolders.foreach(f => storage.mkdirs(s"$meta/$f"))
    val bytes = JavaProperties.store(all.toSeq.sortBy(_._1), s"Properties saved on ${java.time.Instant.now()}")
    try storage.createAtomically(propsPath, bytes, s"$meta/.${HoodieTable.PropertiesFile}.${UUID.randomUUID()}.tmp")
    catch { case _: FileAlreadyExistsException => throw Errors.tableExists(base) }
  }

  /**
   * `hoodie.table.checksum` (hudi-format.md §1.3): CRC-32 of `<database>.<table>` in UTF-8, the
   * database part empty when `hoodie.database.name` is absent.
   */
  def checksum(props: Map[String, String]): Long = {
    val name = props.getOrElse(TableConfig.Name, "")
    val db = props.getOrElse(TableConfig.DatabaseName, "")
    val crc = new CRC32()
    crc.update(s"$db.$name".getBytes(UTF_8))
    crc.getValue
  }
}
