// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.archive

import java.util.UUID

import scala.collection.immutable.ListMap
import scala.util.Using

import org.apache.avro.generic.GenericRecord

import io.pyhudi.logfile.{AvroDataBlock, HeaderKey, LogBlockWriter, LogFormatReader}
import io.pyhudi.storage.Storage
import io.pyhudi.table.{HoodieTable, TableConfig}
import io.pyhudi.timeline.Instant
import io.pyhudi.timeline.avro.ArchivedMetaEntry

/**
 * The archive files of timeline layout 1 (hudi-format.md §2.6): `.commits_.archive.<N>_<token>`
 * in the table's archive folder (`hoodie.archivelog.folder` under `.hoodie`, `archived` by
 * default), each a log file of AVRO_DATA blocks of `HoodieArchivedMetaEntry` records whose
 * header holds only the schema, as Apache Hudi writes them. pyhudi writes one new file per
 * archival, with the next version number, whole (temp file and rename), so a crash never leaves
 * a torn block; Hudi's reader takes every file the prefix matches.
 */
object ArchivedTimeline {

  val FilePrefix = ".commits_.archive."
  val WriteToken = "1-0-1"
  val DefaultFolder = "archived"

  def folder(table: HoodieTable): String =
    s"${table.metaPath}/${table.config.get(TableConfig.ArchiveLogFolder).getOrElse(DefaultFolder)}"

  /** The archive files in `folder` with their versions, oldest first. */
  def files(storage: Storage, folder: String): Seq[(Int, String)] =
    if (!storage.exists(folder)) Nil
    else storage.listFiles(folder).filter(_.name.startsWith(FilePrefix)).flatMap { f =>
      f.name.stripPrefix(FilePrefix).takeWhile(_.isDigit).toIntOption.map(_ -> f.path)
    }.sortBy(_._1)

  /** Every entry of every archive file, in file and block order; corrupt blocks are skipped. */
  def entries(storage: Storage, folder: String): Seq[GenericRecord] =
    files(storage, folder).flatMap { case (_, path) =>
      Using.resource(LogFormatReader.read(storage, path))(_.collect { case b: AvroDataBlock => b.records.toList }
          .toList.flatten)
    }

  /** The state files the archive records (instant time, action, state). */
  def instants(storage: Storage, folder: String): Seq[Instant] =
    entries(storage, folder).flatMap(ArchivedMetaEntry.instantOf)

  /** The state files the newest archive file records: where an interrupted archival left its entries. */
  def newestInstants(storage: Storage, folder: String): Seq[Instant] =
    files(storage, folder).lastOption.toSeq.flatMap { case (_, path) =>
      Using.resource(LogFormatReader.read(storage, path))(_.collect { case b: AvroDataBlock => b.records.toList }
          .toList.flatten)
    }.flatMap(ArchivedMetaEntry.instantOf)

  /** Writes `records` as one AVRO_DATA block into the next archive file; returns its path. */
  def append(storage: Storage, folder: String, records: Seq[GenericRecord]): String = {
    val version = files(storage, folder).map(_._1).maxOption.getOrElse(0) + 1
    val path = s"$folder/$FilePrefix${version}_$WriteToken"
    val schema = ArchivedMetaEntry.Schema
    val block = AvroDataBlock(ListMap(HeaderKey.Schema -> schema.toString), LogBlockWriter.avroContent(schema, records))
    storage.mkdirs(folder)
    // The temp name does not match the prefix: no reader takes it for an archive file.
    storage.createAtomically(path, LogBlockWriter.encode(block), s"$folder/.pyhudi-archive-${UUID.randomUUID()}.tmp")
    path
  }
}
