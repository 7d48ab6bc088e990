// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import java.io.{ByteArrayOutputStream, DataOutputStream}
import java.nio.charset.StandardCharsets.UTF_8

import scala.collection.immutable.ListMap

import org.apache.avro.Schema
import org.apache.avro.generic.GenericRecord

import io.pyhudi.errors.Errors

/**
 * Encodes log blocks as Hudi 0.14 writes them (hudi-format.md §6.2–6.7). Header entries are
 * written in the map's iteration order: blocks read by [[LogFormatReader]] keep the file's
 * order and so re-encode byte for byte; build new headers as a `ListMap` to fix the order.
 */
object LogBlockWriter {

  /** The bytes of one block, magic to trailing length. */
  def encode(block: LogBlock): Array[Byte] = block match {
    case b: AvroDataBlock => frame(BlockType.AvroData, b.header, b.content)
    case b: ParquetDataBlock => frame(BlockType.ParquetData, b.header, b.content)
    case b: DeleteBlock => frame(BlockType.Delete, b.header, DeleteBlockContent.encode(b.deletes))
    case b: CommandBlock => frame(BlockType.Command, b.header, Array.emptyByteArray)
    case other => throw Errors.internal(s"Cannot encode ${other.getClass.getSimpleName}")
  }

  /** The bytes of a log file holding `blocks` in order. */
  def encodeFile(blocks: Seq[LogBlock]): Array[Byte] = {
    val out = new ByteArrayOutputStream()
    blocks.foreach(b => out.write(encode(b)))
    out.toByteArray
  }

  /** An AVRO_DATA block of `records` written by `instantTime` under `schema`. */
  def avroDataBlock(instantTime: String, schema: Schema, records: Seq[GenericRecord]): AvroDataBlock =
    avroDataBlock(instantTime, schema, avroContent(schema, records), partial = false)

  /**
   * An AVRO_DATA block of `content` (from [[avroContent]] or an [[AvroBlockBuilder]]) written by
   * `instantTime` under `schema`; `partial` marks a partial-column block.
   */
  def avroDataBlock(instantTime: String, schema: Schema, content: Array[Byte], partial: Boolean): AvroDataBlock =
    AvroDataBlock(
      ListMap(HeaderKey.InstantTime -> instantTime, HeaderKey.Schema -> schema.toString) ++
        (if (partial) Seq(HeaderKey.IsPartial -> "true") else Nil),
      content)

  /** AVRO_DATA content (§6.5): version 3, record count, length-prefixed records under `schema`. */
  def avroContent(schema: Schema, records: Seq[GenericRecord]): Array[Byte] =
    AvroBlockContent.encode(schema, records)

  /**
   * A DELETE block. `schema` is the table's writer schema: Java writes it, hudi-rs ignores it.
   * A natural-order delete (orderingValue None) is written as IntWrapper 0, as Java does.
   */
  def deleteBlock(instantTime: String, schema: Schema, deletes: Seq[DeleteRecord]): DeleteBlock =
    DeleteBlock(ListMap(HeaderKey.InstantTime -> instantTime, HeaderKey.Schema -> schema.toString), deletes)

  /** DELETE content (§6.6): version 3 and the Avro `HoodieDeleteRecordList`. */
  def deleteContent(deletes: Seq[DeleteRecord]): Array[Byte] = DeleteBlockContent.encode(deletes)

  /** The rollback command that `rollbackInstant` writes against `targetInstant` (§6.7). */
  def rollbackBlock(rollbackInstant: String, targetInstant: String): CommandBlock =
    CommandBlock(ListMap(
        HeaderKey.InstantTime -> rollbackInstant,
        HeaderKey.CommandBlockType -> CommandType.Rollback.toString,
        HeaderKey.TargetInstantTime -> targetInstant))

  private def frame(blockType: Int, header: Map[Int, String], content: Array[Byte]): Array[Byte] = {
    val headerBytes = mapBytes(header)
    val footerBytes = mapBytes(Map.empty)
    val blockSize = 4L + 4 + headerBytes.length + 8 + content.length + footerBytes.length + 8
    val bytes = new ByteArrayOutputStream((LogBlockParser.FramePrefix + blockSize).toInt)
    val out = new DataOutputStream(bytes)
    out.write(LogBlockParser.Magic)
    out.writeLong(blockSize)
    out.writeInt(LogBlockParser.FormatVersion)
    out.writeInt(blockType)
    out.write(headerBytes)
    out.writeLong(content.length.toLong)
    out.write(content)
    out.write(footerBytes)
    // Hudi's trailing length counts the whole block except itself: magic + blockSize field
    // + blockSize - 8 = blockSize + 6.
    out.writeLong(blockSize + LogBlockParser.Magic.length)
    out.flush()
    bytes.toByteArray
  }

  private def mapBytes(map: Map[Int, String]): Array[Byte] = {
    val bytes = new ByteArrayOutputStream()
    val out = new DataOutputStream(bytes)
    out.writeInt(map.size)
    map.foreach { case (key, value) =>
      val utf8 = value.getBytes(UTF_8)
      out.writeInt(key)
      out.writeInt(utf8.length)
      out.write(utf8)
    }
    out.flush()
    bytes.toByteArray
  }
}
