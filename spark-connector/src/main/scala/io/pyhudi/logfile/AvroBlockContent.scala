// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import java.nio.{BufferUnderflowException, ByteBuffer}

import scala.util.control.NonFatal

import org.apache.avro.Schema
import org.apache.avro.generic.{GenericDatumReader, GenericDatumWriter, GenericRecord}
import org.apache.avro.io.{BinaryDecoder, DecoderFactory}

import io.pyhudi.errors.{Errors, PyhudiException}

/**
 * Content of an AVRO_DATA block (hudi-format.md §6.5): int32 content version, int32 record
 * count, then per record an int32 length and the Avro binary datum under the SCHEMA header.
 */
private[logfile] object AvroBlockContent {

  /** Version Hudi 0.14 writes. Versions 1 and 2 have the same layout (all carry a record count). */
  val Version = 3

  private def where(path: String): String = if (path.isEmpty) "<in-memory log block>" else path

  private def block(offset: Long): String = if (offset >= 0) s"AVRO_DATA block at offset $offset" else "AVRO_DATA block"

  def schemaOf(header: Map[Int, String], path: String, offset: Long = -1): Schema = header.get(HeaderKey.Schema) match {
    case None => throw Errors.corruptFile(where(path), s"${block(offset)} has no SCHEMA header")
    case Some(json) =>
      try new Schema.Parser().parse(json)
      catch {
        case NonFatal(e) =>
          throw Errors.corruptFile(
            where(path), s"${block(offset)} has an invalid SCHEMA header: ${e.getMessage}", e)
      }
  }

  def decode(content: Array[Byte], schema: Schema, path: String, offset: Long = -1): Iterator[GenericRecord] = {
    val reader = new GenericDatumReader[GenericRecord](schema)
    decodeWith(content, path, offset)(reader.read(null, _))
  }

  /**
   * The block's records, each decoded by `read` from a decoder positioned at its datum. Errors
   * of pyhudi's own (e.g. a value the read type cannot hold) pass through; any other failure
   * names the record as corrupt.
   */
  def decodeWith[T](content: Array[Byte], path: String, offset: Long)(read: BinaryDecoder => T): Iterator[T] = {
    def corrupt(why: String, cause: Throwable = null) =
      Errors.corruptFile(where(path), s"${block(offset)}: $why", cause)

    val buf = ByteBuffer.wrap(content)
    val (version, recordCount) =
      try (buf.getInt(), buf.getInt())
      catch { case e: BufferUnderflowException => throw corrupt("content shorter than its 8-byte prefix", e) }
    if (version < 1 || version > Version) throw corrupt(s"unsupported content version $version")
    if (recordCount < 0) throw corrupt(s"negative record count $recordCount")

    new Iterator[T] {
      private var index = 0
      private var decoder: BinaryDecoder = _

      def hasNext: Boolean = index < recordCount

      def next(): T = {
        if (!hasNext) throw new NoSuchElementException("no more records in the AVRO_DATA block")
        val length =
          try buf.getInt()
          catch { case e: BufferUnderflowException => throw corrupt(s"record $index is missing", e) }
        if (length < 0 || length > buf.remaining)
          throw corrupt(s"record $index has length $length but ${buf.remaining} bytes remain")
        decoder = DecoderFactory.get().binaryDecoder(content, buf.position(), length, decoder)
        val record =
          try read(decoder)
          catch {
            case e: PyhudiException => throw e
            case NonFatal(e) => throw corrupt(s"record $index does not decode: ${e.getMessage}", e)
          }
        buf.position(buf.position() + length)
        index += 1
        record
      }
    }
  }

  def encode(schema: Schema, records: Iterable[GenericRecord]): Array[Byte] = {
    val writer = new GenericDatumWriter[GenericRecord](schema)
    val block = new AvroBlockBuilder
    records.foreach { r =>
      block.encode(writer.write(r, _))
      block.append()
    }
    block.content()
  }
}
