// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import org.apache.avro.Schema
import org.apache.avro.generic.GenericRecord
import org.apache.avro.io.BinaryDecoder

/**
 * One block of a log file. Headers keep the order in which they were read, so that a block
 * read from disk re-encodes to the same bytes; lookups never depend on that order.
 */
sealed trait LogBlock {
  def header: Map[Int, String]

  /** The instant that wrote the block; readers gate data and delete blocks on it. */
  def instantTime: Option[String] = header.get(HeaderKey.InstantTime)
}

/**
 * An AVRO_DATA block: records encoded with the writer schema carried in the SCHEMA header
 * (hudi-format.md §6.5).
 *
 * @param content the raw block content (content version, record count, length-prefixed records)
 * @param path    the log file the block came from, named in decoding errors ("" when built in memory)
 * @param offset  position of the block's magic in that file, named with it (-1 when built in memory)
 */
final case class AvroDataBlock(header: Map[Int, String], content: Array[Byte], path: String = "",
    offset: Long = -1) extends LogBlock {

  /** The writer schema from the SCHEMA header; a block without one fails naming the file. */
  lazy val schema: Schema = AvroBlockContent.schemaOf(header, path, offset)

  /** Decodes the records one at a time with [[schema]]; a malformed record fails naming the file. */
  def records: Iterator[GenericRecord] = AvroBlockContent.decode(content, schema, path, offset)

  /** The records, each decoded by `read` straight from its Avro binary datum. */
  def decode[T](read: BinaryDecoder => T): Iterator[T] = AvroBlockContent.decodeWith(content, path, offset)(read)
}

/**
 * A PARQUET_DATA block whose content is a complete parquet file (`PAR1` ... `PAR1`).
 *
 * @param path   the log file the block came from ("" when built in memory)
 * @param offset position of the block's magic in that file (-1 when built in memory); named,
 *               with `path`, when the content does not decode
 */
final case class ParquetDataBlock(header: Map[Int, String], content: Array[Byte], path: String = "",
    offset: Long = -1) extends LogBlock

/** A DELETE block: the keys an instant deleted from the file slice (hudi-format.md §6.6). */
final case class DeleteBlock(header: Map[Int, String], deletes: Seq[DeleteRecord]) extends LogBlock

/** A COMMAND block (hudi-format.md §6.7). */
final case class CommandBlock(header: Map[Int, String]) extends LogBlock {

  /** The instant whose blocks this command removes. */
  def targetInstant: Option[String] = header.get(HeaderKey.TargetInstantTime)

  /** True for a rollback, the only command Hudi writes. */
  def isRollback: Boolean =
    header.get(HeaderKey.CommandBlockType).flatMap(_.trim.toIntOption).contains(CommandType.Rollback)
}

/**
 * Bytes of a log file that do not form a valid block: a partly written block, a block whose
 * sizes disagree, an unknown block type or garbage where a block should start. Readers skip it.
 *
 * @param offset position of the first byte of the region in the file
 * @param length number of bytes skipped, up to the next block magic or the end of the file
 */
final case class CorruptBlock(path: String, offset: Long, length: Long) extends LogBlock {
  override def header: Map[Int, String] = Map.empty
}

/**
 * A well-formed block of a type this reader does not decode (HFILE_DATA, CDC_DATA). It is kept
 * so that [[LogScanner]] can refuse a slice in which such a block is valid instead of silently
 * dropping its records.
 */
final case class UnsupportedBlock(header: Map[Int, String], blockType: Int, path: String, offset: Long)
    extends LogBlock

/**
 * One deleted key.
 *
 * @param orderingValue None = natural order (IntWrapper 0 or null): the delete wins whatever the
 *   record's ordering value. Some(v) = the boxed Java value of the wrapper: Boolean, Integer,
 *   Long, Float, Double, Array[Byte], String, Integer days for DateWrapper,
 *   java.math.BigDecimal for DecimalWrapper, Long micros for TimeMicrosWrapper and
 *   TimestampMicrosWrapper.
 */
final case class DeleteRecord(recordKey: String, partitionPath: Option[String], orderingValue: Option[Any])
