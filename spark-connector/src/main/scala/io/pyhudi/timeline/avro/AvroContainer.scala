// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import java.io.ByteArrayOutputStream
import java.{util => ju}

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.avro.Schema
import org.apache.avro.file.{DataFileReader, DataFileWriter, SeekableByteArrayInput}
import org.apache.avro.generic.{GenericData, GenericDatumReader, GenericDatumWriter, GenericRecord}

import io.pyhudi.errors.Errors

/**
 * One record in an Avro object container file (null codec), the form of every Avro state file
 * on a v6 timeline, plus conversions between Avro's Java values and Scala ones.
 */
private[avro] object AvroContainer {

  def write(schema: Schema, record: GenericRecord): Array[Byte] = {
    val bytes = new ByteArrayOutputStream()
    val writer = new DataFileWriter[GenericRecord](new GenericDatumWriter[GenericRecord](schema))
    try {
      writer.create(schema, bytes)
      writer.append(record)
    } finally writer.close()
    bytes.toByteArray
  }

  /**
   * Reads the single record of a container file, resolving the file's own (writer) schema to
   * `schema` by Avro's rules. `what` names the content in errors.
   */
  def read(bytes: Array[Byte], schema: Schema, what: String): GenericRecord = {
    val reader =
      try new DataFileReader[GenericRecord](new SeekableByteArrayInput(bytes),
          new GenericDatumReader[GenericRecord](null, schema))
      catch { case NonFatal(e) => throw Errors.corruptFile(what, s"not an Avro container file (${e.getMessage})", e) }
    try {
      if (!reader.hasNext) throw Errors.corruptFile(what, "the Avro container holds no record")
      try reader.next()
      catch {
        case NonFatal(e) => throw Errors.corruptFile(what, s"cannot decode ${schema.getName}: ${e.getMessage}", e)
      }
    } finally reader.close()
  }

  def record(schema: Schema, values: (String, Any)*): GenericRecord = {
    val r = new GenericData.Record(schema)
    values.foreach { case (k, v) => r.put(k, v) }
    r
  }

  // Scala to Avro.

  def nullable[T](o: Option[T]): Any = o.map(_.asInstanceOf[AnyRef]).orNull

  def list[T](s: Seq[T]): ju.List[T] = new ju.ArrayList[T](s.asJava)

  def map[V](m: Map[String, V]): ju.Map[String, V] = {
    val out = new ju.LinkedHashMap[String, V]()
    m.foreach { case (k, v) => out.put(k, v) }
    out
  }

  def longMap(m: Map[String, Long]): ju.Map[String, java.lang.Long] = map(m.map { case (k, v) => k -> Long.box(v) })

  // Avro to Scala.

  def str(r: GenericRecord, field: String): Option[String] = Option(r.get(field)).map(_.toString)

  def int(r: GenericRecord, field: String): Option[Int] = Option(r.get(field)).map(_.asInstanceOf[Number].intValue)

  def seq(r: GenericRecord, field: String): Option[Seq[AnyRef]] =
    Option(r.get(field)).map(_.asInstanceOf[ju.Collection[AnyRef]].asScala.toSeq)

  def strings(r: GenericRecord, field: String): Option[Seq[String]] = seq(r, field).map(_.map(_.toString))

  def records(r: GenericRecord, field: String): Option[Seq[GenericRecord]] =
    seq(r, field).map(_.map(_.asInstanceOf[GenericRecord]))

  def mapOf[V](r: GenericRecord, field: String)(value: AnyRef => V): Option[Map[String, V]] =
    Option(r.get(field)).map(_.asInstanceOf[ju.Map[AnyRef, AnyRef]].asScala.toSeq.map {
      case (k, v) => k.toString -> value(v)
    }.toMap)
}
