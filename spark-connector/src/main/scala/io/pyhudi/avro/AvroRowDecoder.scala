// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import org.apache.avro.Schema
import org.apache.avro.Schema.Type._
import org.apache.avro.generic.{GenericDatumReader, GenericRecord}
import org.apache.avro.io.BinaryDecoder
import org.apache.avro.util.Utf8
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.types.{DataType, StringType, StructType}
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.errors.Errors

/**
 * Converts Avro binary datums into Catalyst rows of `target`, whatever schema wrote them: each
 * target field is looked up in the writer schema by name (case-sensitive first, then
 * case-insensitive), nested records included. Fields the writer lacks read as null, writer fields
 * the target lacks are skipped, and values are widened where schema evolution allows
 * ([[AvroValueConverters]]). Datums are decoded straight into rows: log replay reads every record
 * of a slice's log blocks, and going through a GenericRecord first spent most of that time
 * building objects it then took apart. Scalars are
 * read into the row; nested records, arrays and maps go through Avro's generic reader for that
 * field alone. Every row is new and shares nothing with the decoder. Not thread-safe.
 */
final class AvroRowDecoder(target: StructType) {

  private val byWriter = mutable.HashMap.empty[Schema, BinaryDecoder => InternalRow]
  private var lastWriter: Schema = _
  private var lastRead: BinaryDecoder => InternalRow = _

  /**
   * The function that decodes one datum written with `writer` into a row of `target`.
   * @throws io.pyhudi.errors.InvalidTableException when a matched field's writer type cannot be
   *   read as its target type, or the writer schema holds an unsupported union
   */
  def reader(writer: Schema): BinaryDecoder => InternalRow = {
    if (writer ne lastWriter) {
      lastRead = byWriter.getOrElseUpdate(writer, AvroRowDecoder.record(writer, target))
      lastWriter = writer
    }
    lastRead
  }
}

private object AvroRowDecoder {

  private type Read = BinaryDecoder => Any

  def record(writer: Schema, target: StructType): BinaryDecoder => InternalRow = {
    if (writer.getType != RECORD) throw Errors.internal(s"a log block's schema is not a record: ${writer.getType}")
    // Which target fields each writer field fills; a writer field no target field names is skipped.
    val targets = Array.fill(writer.getFields.size)(mutable.ArrayBuffer.empty[Int])
    target.fields.indices.foreach { i =>
      AvroValueConverters.findField(writer, target(i).name, target(i).name).foreach(w => targets(w.pos) += i)
    }
    // Two target fields reading one writer field as different types: the generic path converts
    // the one decoded value twice.
    if (targets.exists(ts => ts.map(target(_).dataType).distinct.size > 1)) {
      val generic = new GenericDatumReader[GenericRecord](writer)
      val convert = AvroValueConverters.record(writer, target, "")
      return d => convert(generic.read(null, d))
    }
    val steps: Array[Read] = writer.getFields.asScala.map { w =>
      targets(w.pos).toSeq match {
        case Seq() => skip(w.schema)
        case ts => value(w.schema, target(ts.head).dataType, target(ts.head).name)
      }
    }.toArray
    val into: Array[Array[Int]] = targets.map(_.toArray)
    val width = target.length
    d => {
      val values = new Array[Any](width)
      var f = 0
      while (f < steps.length) {
        val v = steps(f)(d)
        val ts = into(f)
        var j = 0
        while (j < ts.length) { values(ts(j)) = v; j += 1 }
        f += 1
      }
      new GenericInternalRow(values)
    }
  }

  /** Reads a value of `schema` as `t`; the converter is built first so type errors match. */
  private def value(schema: Schema, t: DataType, path: String): Read = {
    val convert = AvroValueConverters.converter(schema, t, path)
    if (schema.getType == UNION) {
      // converter accepted it, so at most one branch is not null
      val branches = schema.getTypes.asScala.toArray
      val reads: Array[Read] =
        branches.map(b => if (b.getType == NULL) (_: BinaryDecoder) => null else value(b, t, path))
      d => reads(d.readIndex())(d)
    } else schema.getType match {
      case NULL => d => { d.readNull(); null }
      case BOOLEAN => d => convert(d.readBoolean())
      case INT => d => convert(d.readInt())
      case LONG => d => convert(d.readLong())
      case FLOAT => d => convert(d.readFloat())
      case DOUBLE => d => convert(d.readDouble())
      case STRING if t == StringType => d => UTF8String.fromBytes(bytes(d))
      case STRING => d => convert(new Utf8(bytes(d)))
      case BYTES => d => convert(java.nio.ByteBuffer.wrap(bytes(d)))
      case FIXED =>
        val size = schema.getFixedSize
        d => { val a = new Array[Byte](size); d.readFixed(a); convert(java.nio.ByteBuffer.wrap(a)) }
      case ENUM =>
        val symbols = schema.getEnumSymbols.asScala.toArray
        d => convert(symbols(d.readEnum()))
      case _ =>
        val generic = new GenericDatumReader[Any](schema)
        d => { val v = generic.read(null, d); if (v == null) null else convert(v) }
    }
  }

  /** Reads past a value of `schema`. */
  private def skip(schema: Schema): Read = schema.getType match {
    case NULL => _ => null
    case BOOLEAN => d => d.readBoolean()
    case INT => d => d.readInt()
    case LONG => d => d.readLong()
    case FLOAT => d => d.readFloat()
    case DOUBLE => d => d.readDouble()
    case STRING | BYTES => d => { d.skipBytes(); null }
    case FIXED => val size = schema.getFixedSize; d => { d.skipFixed(size); null }
    case ENUM => d => d.readEnum()
    case UNION =>
      val branches: Array[Read] = schema.getTypes.asScala.map(skip).toArray
      d => branches(d.readIndex())(d)
    case RECORD =>
      val fields: Array[Read] = schema.getFields.asScala.map(f => skip(f.schema)).toArray
      d => { fields.foreach(_(d)); null }
    case _ =>
      val generic = new GenericDatumReader[Any](schema)
      d => generic.read(null, d)
  }

  /** A string's or bytes' content in an array of its own (Avro's length checks apply). */
  private def bytes(d: BinaryDecoder): Array[Byte] = d.readBytes(null).array()
}
