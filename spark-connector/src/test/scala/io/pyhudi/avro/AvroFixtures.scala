// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import java.io.{ByteArrayOutputStream, DataInputStream, File}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.zip.ZipFile

import scala.jdk.CollectionConverters._

import org.apache.avro.Schema
import org.apache.avro.generic.{GenericDatumReader, GenericDatumWriter, GenericRecord}
import org.apache.avro.io.{DecoderFactory, EncoderFactory}

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.StructType

import io.pyhudi.timeline.CommitMetadata

/** Real schemas and records from the v6 corpus, and Avro binary round trips. */
object AvroFixtures {

  private def corpus: File = new File(sys.props.getOrElse("pyhudi.corpus",
      sys.error("pyhudi.corpus is not set; run the suites through sbt")))

  /** Bytes of the first entry of a corpus zip whose name ends with `suffix`. */
  def zipEntry(zip: String, suffix: String): Array[Byte] = {
    val file = new ZipFile(new File(corpus, zip))
    try {
      val entry = file.entries.asScala.find(_.getName.endsWith(suffix))
        .getOrElse(sys.error(s"$zip has no entry ending with $suffix"))
      file.getInputStream(entry).readAllBytes()
    } finally file.close()
  }

  /** `extraMetadata.schema` of a commit file in a corpus zip. */
  def commitSchema(zip: String, commitFile: String): String =
    CommitMetadata.parse(zipEntry(zip, commitFile)).schema.getOrElse(sys.error(s"$commitFile has no schema"))

  val NonPartitionedZip = "cow/v6_nonpartitioned.zip"

  lazy val nonPartitionedSchema: Schema =
    AvroSchemaConverter.parse(commitSchema(NonPartitionedZip, ".hoodie/20240418173551906.commit"))

  /**
   * Records of the single AVRO_DATA block of a log file (format doc §6.2, §6.5), decoded with the
   * block's SCHEMA header, together with that schema.
   */
  def logBlockRecords(zip: String, logFileSuffix: String): (Schema, Seq[GenericRecord]) = {
    val in = new DataInputStream(new java.io.ByteArrayInputStream(zipEntry(zip, logFileSuffix)))
    in.skipNBytes(6 + 8 + 4) // magic, block size, format version
    require(in.readInt() == 3, "not an AVRO_DATA block")
    val header = (0 until in.readInt()).map { _ =>
      val key = in.readInt()
      key -> new String(in.readNBytes(in.readInt()), UTF_8)
    }.toMap
    val schema = AvroSchemaConverter.parse(header(2))
    in.skipNBytes(8) // content length
    require(in.readInt() == 3, "unexpected content version")
    val reader = new GenericDatumReader[GenericRecord](schema)
    val records = (0 until in.readInt()).map { _ =>
      val bytes = in.readNBytes(in.readInt())
      reader.read(null, DecoderFactory.get.binaryDecoder(bytes, null))
    }
    (schema, records)
  }

  /** The record written and read back in Avro binary, so values take the decoder's forms. */
  def roundTrip(record: GenericRecord): GenericRecord = {
    val out = new ByteArrayOutputStream()
    val encoder = EncoderFactory.get.binaryEncoder(out, null)
    new GenericDatumWriter[GenericRecord](record.getSchema).write(record, encoder)
    encoder.flush()
    val decoder = DecoderFactory.get.binaryDecoder(out.toByteArray, null)
    new GenericDatumReader[GenericRecord](record.getSchema).read(null, decoder)
  }

  /** Binary bytes of `record` under its own schema. */
  def encode(record: GenericRecord): Array[Byte] = {
    val out = new ByteArrayOutputStream()
    val encoder = EncoderFactory.get.binaryEncoder(out, null)
    new GenericDatumWriter[GenericRecord](record.getSchema).write(record, encoder)
    encoder.flush()
    out.toByteArray
  }

  /**
   * A decoded record as a row of `target`, through the converters [[AvroRowDecoder]] uses for
   * fields it reads with Avro's generic reader: the reference the binary path is checked against.
   */
  def toRow(target: StructType, record: GenericRecord): InternalRow =
    AvroValueConverters.record(record.getSchema, target, "")(record)

  /** `record` binary-encoded, then decoded into a row of `target` by [[AvroRowDecoder]]. */
  def decodeBinary(target: StructType, record: GenericRecord): InternalRow =
    new AvroRowDecoder(target).reader(record.getSchema)(DecoderFactory.get.binaryDecoder(encode(record), null))
}
