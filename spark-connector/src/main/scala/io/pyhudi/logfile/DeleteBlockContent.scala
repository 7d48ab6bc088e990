// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import java.io.{ByteArrayOutputStream, DataOutputStream}
import java.math.{BigDecimal => JBigDecimal, BigInteger}
import java.nio.{BufferUnderflowException, ByteBuffer}

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.avro.Schema
import org.apache.avro.generic.{GenericData, GenericDatumReader, GenericDatumWriter, GenericRecord}
import org.apache.avro.io.{DecoderFactory, EncoderFactory}

import io.pyhudi.errors.{CorruptFileException, Errors}

/**
 * Content of a DELETE block, version 3 (hudi-format.md §6.6): int32 version, int32 length, then
 * the Avro binary datum of a `HoodieDeleteRecordList`. Versions 1 and 2 held Kryo-serialized
 * Java objects and are refused.
 */
private[logfile] object DeleteBlockContent {

  val Version = 3

  /** Scale of Hudi's DecimalWrapper, decimal(30, 15). */
  val DecimalScale = 15

  /** Union branches of `orderingVal` after `null`, in schema order: wrapper name, value type. */
  private val Wrappers: Seq[(String, String)] = Seq(
    "BooleanWrapper" -> "\"boolean\"",
    "IntWrapper" -> "\"int\"",
    "LongWrapper" -> "\"long\"",
    "FloatWrapper" -> "\"float\"",
    "DoubleWrapper" -> "\"double\"",
    "BytesWrapper" -> "\"bytes\"",
    "StringWrapper" -> "\"string\"",
    "DateWrapper" -> "\"int\"",
    "DecimalWrapper" ->
      s"""{"type":"bytes","logicalType":"decimal","precision":30,"scale":$DecimalScale}""",
    "TimeMicrosWrapper" -> """{"type":"long","logicalType":"time-micros"}""",
    "TimestampMicrosWrapper" -> "\"long\"")

  private def nullable(name: String) = s"""{"name":"$name","type":["null","string"],"default":null}"""

  /** Hudi's `HoodieDeleteRecordList` schema with the wrapper records defined inline. */
  val ListSchema: Schema = {
    val wrappers = Wrappers.map { case (name, valueType) =>
      s"""{"type":"record","name":"$name","fields":[{"name":"value","type":$valueType}]}"""
    }
    val record =
      s"""{"type":"record","name":"HoodieDeleteRecord","fields":[${nullable("recordKey")},""" +
        s"""${nullable("partitionPath")},""" +
        s"""{"name":"orderingVal","type":["null",${wrappers.mkString(",")}],"default":null}]}"""
    new Schema.Parser().parse(
      s"""{"type":"record","name":"HoodieDeleteRecordList","namespace":"org.apache.hudi.avro.model",""" +
        s""""fields":[{"name":"deleteRecordList","type":{"type":"array","items":$record}}]}""")
  }

  private val RecordSchema = ListSchema.getField("deleteRecordList").schema.getElementType
  private val OrderingSchema = RecordSchema.getField("orderingVal").schema

  def decode(content: Array[Byte], path: String, offset: Long): Seq[DeleteRecord] = {
    def corrupt(why: String, cause: Throwable = null): CorruptFileException =
      Errors.corruptFile(path, s"DELETE block at offset $offset: $why", cause)

    val buf = ByteBuffer.wrap(content)
    val (version, length) =
      try (buf.getInt(), buf.getInt())
      catch { case e: BufferUnderflowException => throw corrupt("content shorter than its 8-byte prefix", e) }
    if (version != Version)
      throw corrupt(s"content version $version is not supported (only version $Version, Avro-encoded, " +
        "written since Hudi 0.14)")
    if (length < 0 || length > buf.remaining)
      throw corrupt(s"list length $length but ${buf.remaining} bytes remain")
    val list =
      try {
        val decoder = DecoderFactory.get().binaryDecoder(content, buf.position(), length, null)
        new GenericDatumReader[GenericRecord](ListSchema).read(null, decoder)
      } catch { case NonFatal(e) => throw corrupt(s"delete list does not decode: ${e.getMessage}", e) }
    list.get("deleteRecordList").asInstanceOf[java.util.List[GenericRecord]].asScala.toSeq.map { r =>
      val key = Option(r.get("recordKey")).map(_.toString)
        .getOrElse(throw corrupt("a delete record has no key"))
      DeleteRecord(key, Option(r.get("partitionPath")).map(_.toString), orderingValue(r.get("orderingVal")))
    }
  }

  private def orderingValue(wrapper: Any): Option[Any] = wrapper match {
    case null => None
    case w: GenericRecord =>
      (w.getSchema.getName, w.get("value")) match {
        case ("IntWrapper", i: Integer) if i == 0 => None
        case ("DecimalWrapper", b: ByteBuffer) =>
          Some(new JBigDecimal(new BigInteger(bytesOf(b)), DecimalScale))
        case (_, b: ByteBuffer) => Some(bytesOf(b))
        case (_, s: CharSequence) => Some(s.toString)
        case (_, v) => Some(v)
      }
    case other => Some(other)
  }

  private def bytesOf(b: ByteBuffer): Array[Byte] = {
    val out = new Array[Byte](b.remaining)
    b.duplicate().get(out)
    out
  }

  def encode(deletes: Seq[DeleteRecord]): Array[Byte] = {
    val list = new GenericData.Record(ListSchema)
    list.put("deleteRecordList", deletes.map(toAvro).asJava)
    val datum = new ByteArrayOutputStream()
    val encoder = EncoderFactory.get().directBinaryEncoder(datum, null)
    new GenericDatumWriter[GenericRecord](ListSchema).write(list, encoder)
    val bytes = new ByteArrayOutputStream()
    val out = new DataOutputStream(bytes)
    out.writeInt(Version)
    out.writeInt(datum.size)
    datum.writeTo(out)
    out.flush()
    bytes.toByteArray
  }

  private def toAvro(d: DeleteRecord): GenericRecord = {
    val r = new GenericData.Record(RecordSchema)
    r.put("recordKey", d.recordKey)
    r.put("partitionPath", d.partitionPath.orNull)
    r.put("orderingVal", wrap(d.orderingValue))
    r
  }

  /**
   * The wrapper for an ordering value. Natural order is written as IntWrapper 0, what Java's
   * delete carries by default. Integer and Long map to IntWrapper and LongWrapper; pass a
   * LocalDate or an Instant to get DateWrapper or TimestampMicrosWrapper.
   */
  private def wrap(value: Option[Any]): GenericRecord = {
    def wrapper(name: String, v: Any): GenericRecord = {
      val w = new GenericData.Record(OrderingSchema.getTypes.asScala.find(_.getName == name).get)
      w.put("value", v)
      w
    }
    value match {
      case None => wrapper("IntWrapper", 0)
      case Some(v: java.lang.Boolean) => wrapper("BooleanWrapper", v)
      case Some(v: java.lang.Integer) => wrapper("IntWrapper", v)
      case Some(v: java.lang.Long) => wrapper("LongWrapper", v)
      case Some(v: java.lang.Float) => wrapper("FloatWrapper", v)
      case Some(v: java.lang.Double) => wrapper("DoubleWrapper", v)
      case Some(v: Array[Byte]) => wrapper("BytesWrapper", ByteBuffer.wrap(v))
      case Some(v: String) => wrapper("StringWrapper", v)
      case Some(v: java.time.LocalDate) => wrapper("DateWrapper", Int.box(v.toEpochDay.toInt))
      case Some(v: JBigDecimal) =>
        wrapper("DecimalWrapper", ByteBuffer.wrap(v.setScale(DecimalScale).unscaledValue.toByteArray))
      case Some(v: java.time.Instant) =>
        val micros = Math.addExact(Math.multiplyExact(v.getEpochSecond, 1000000L), v.getNano / 1000L)
        wrapper("TimestampMicrosWrapper", Long.box(micros))
      case Some(other) =>
        throw Errors.internal(s"No Hudi ordering-value wrapper for ${other.getClass.getName}")
    }
  }
}
