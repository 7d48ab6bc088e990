// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import java.math.{BigDecimal => JBigDecimal, RoundingMode}

import scala.jdk.CollectionConverters._

import org.apache.avro.{LogicalTypes, Schema}
import org.apache.avro.Schema.Type._
import org.apache.avro.io.Encoder
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.errors.Errors

/**
 * Writes Catalyst rows of `sparkSchema` as Avro binary datums of `avroSchema`, the inverse of
 * [[AvroRowDecoder]] for the schemas [[SparkToAvro]] produces (meta fields included). Fields
 * are matched by name; `["null", T]` unions take null or the T branch. Byte and short columns
 * become Avro ints, dates days, timestamps microseconds (milliseconds for the `-millis` logical
 * types), decimals big-endian two's complement unscaled values (`fixed` sign-padded to its
 * size, or `bytes`).
 *
 * Rows go straight to the encoder: a merge-on-read upsert writes every record into a log block,
 * and building an Avro record first, then resolving each of its unions again in Avro's generic
 * writer, took most of the time of appending the logs. The type dispatch runs once, in the
 * constructor. Not thread-safe (a scratch buffer is shared by the fixed decimals).
 *
 * @throws io.pyhudi.errors.InvalidTableException from the constructor when a Spark field has no
 *   Avro field of the same name or a type that cannot be written as it
 */
final class AvroRowEncoder(sparkSchema: StructType, avroSchema: Schema) {

  import AvroRowEncoder._

  private val writeRecord: (InternalRow, Encoder) => Unit = recordWriter(sparkSchema, avroSchema, "")

  /**
   * Encodes `row` as one datum.
   * @throws io.pyhudi.errors.InvalidRecordException when a null meets a non-nullable Avro type
   */
  def write(row: InternalRow, out: Encoder): Unit = writeRecord(row, out)
}

private object AvroRowEncoder {

  /** Writes element `ordinal` (known non-null) of a row or array. */
  type Writer = (SpecializedGetters, Int, Encoder) => Unit

  /** A record's fields in the Avro schema's order, each read from its Spark ordinal. */
  def recordWriter(struct: StructType, schema: Schema, path: String): (InternalRow, Encoder) => Unit = {
    if (schema.getType != RECORD) throw Errors.internal(s"a log block's schema is not a record: ${schema.getType}")
    def pathOf(name: String) = if (path.isEmpty) name else s"$path.$name"
    val byPosition = struct.fields.zipWithIndex.map { case (f, i) =>
      val avroField = Option(schema.getField(f.name)).getOrElse(
        throw Errors.unsupportedAvroType(pathOf(f.name), "(missing)",
          s"the Avro record ${schema.getFullName} has no such field"))
      avroField.pos -> (i, nullable(f.dataType, avroField.schema, pathOf(f.name)))
    }.toMap
    // Avro writes every field of the record, in its order; one the Spark schema lacks is null.
    val steps = schema.getFields.asScala.toArray.map { f =>
      byPosition.getOrElse(f.pos, (0, absent(f.schema, pathOf(f.name))))
    }
    val ordinals = steps.map(_._1)
    val writers = steps.map(_._2)
    (row, out) => {
      var i = 0
      while (i < writers.length) {
        writers(i)(row, ordinals(i), out)
        i += 1
      }
    }
  }

  /** A writer that also accepts nulls: the null branch of a union, an error otherwise. */
  private def nullable(t: DataType, schema: Schema, path: String): Writer = {
    val display = AvroSchemaConverter.display(path)
    val (nullIndex, valueIndex) = branches(schema, display)
    val w = writer(t, if (valueIndex < 0) schema else schema.getTypes.get(valueIndex), path)
    if (valueIndex < 0) (g, i, out) =>
      if (!g.isNullAt(i)) w(g, i, out)
      else throw Errors.nullInNonNullableAvro(display, schema.toString)
    else (g, i, out) =>
      if (!g.isNullAt(i)) { out.writeIndex(valueIndex); w(g, i, out) }
      else if (nullIndex >= 0) { out.writeIndex(nullIndex); out.writeNull() }
      else throw Errors.nullInNonNullableAvro(display, schema.toString)
  }

  /** The writer of a field the row lacks: always its null branch. */
  private def absent(schema: Schema, path: String): Writer = {
    val display = AvroSchemaConverter.display(path)
    val (nullIndex, _) = branches(schema, display)
    if (nullIndex < 0) throw Errors.unsupportedAvroType(display, schema.toString,
      "the row has no such field and the Avro type takes no null")
    (_, _, out) => { out.writeIndex(nullIndex); out.writeNull() }
  }

  /**
   * A union's null and value branch indexes (-1: none), or (-1, -1) for a schema that is not a
   * union; only `["null", T]` unions (either order) and `[T]` are written.
   */
  private def branches(schema: Schema, display: String): (Int, Int) =
    if (schema.getType != UNION) (-1, -1)
    else {
      val types = schema.getTypes.asScala.toIndexedSeq
      val nullIndex = types.indexWhere(_.getType == NULL)
      val valueIndex = types.indexWhere(_.getType != NULL)
      if (types.size > 2 || (types.size == 2 && nullIndex < 0) || valueIndex < 0)
        throw Errors.unsupportedAvroType(display, schema.toString, "only [\"null\", T] unions are written")
      (nullIndex, valueIndex)
    }

  private def writer(t: DataType, schema: Schema, path: String): Writer = {
    def unwritable = Errors.unsupportedAvroType(AvroSchemaConverter.display(path), schema.toString,
      s"cannot write Spark type ${t.sql} as it")
    val logical = schema.getLogicalType
    (t, schema.getType) match {
      case (BooleanType, BOOLEAN) => (g, i, out) => out.writeBoolean(g.getBoolean(i))
      case (ByteType, INT) => (g, i, out) => out.writeInt(g.getByte(i).toInt)
      case (ShortType, INT) => (g, i, out) => out.writeInt(g.getShort(i).toInt)
      case (IntegerType | DateType, INT) => (g, i, out) => out.writeInt(g.getInt(i))
      case (ByteType, LONG) => (g, i, out) => out.writeLong(g.getByte(i).toLong)
      case (ShortType, LONG) => (g, i, out) => out.writeLong(g.getShort(i).toLong)
      case (IntegerType, LONG) => (g, i, out) => out.writeLong(g.getInt(i).toLong)
      case (LongType, LONG) => (g, i, out) => out.writeLong(g.getLong(i))
      case (TimestampType | TimestampNTZType, LONG) => logical match {
          case _: LogicalTypes.TimestampMillis | _: LogicalTypes.LocalTimestampMillis =>
            (g, i, out) => out.writeLong(Math.floorDiv(g.getLong(i), 1000L))
          case _ => (g, i, out) => out.writeLong(g.getLong(i))
        }
      case (FloatType, FLOAT) => (g, i, out) => out.writeFloat(g.getFloat(i))
      case (FloatType, DOUBLE) => (g, i, out) => out.writeDouble(g.getFloat(i).toDouble)
      case (DoubleType, DOUBLE) => (g, i, out) => out.writeDouble(g.getDouble(i))
      // A string's binary form is a bytes value: its UTF-8 bytes, length first.
      case (_: StringType, STRING) => (g, i, out) => utf8(g.getUTF8String(i), out)
      case (BinaryType, BYTES) => (g, i, out) => { val b = g.getBinary(i); out.writeBytes(b, 0, b.length) }
      case (d: DecimalType, FIXED | BYTES) if logical.isInstanceOf[LogicalTypes.Decimal] =>
        decimal(d, schema, logical.asInstanceOf[LogicalTypes.Decimal])
      case (ArrayType(element, _), ARRAY) =>
        val item = nullable(element, schema.getElementType, s"$path.element")
        (g, i, out) => {
          val a = g.getArray(i)
          val n = a.numElements()
          out.writeArrayStart()
          out.setItemCount(n.toLong)
          var j = 0
          while (j < n) { out.startItem(); item(a, j, out); j += 1 }
          out.writeArrayEnd()
        }
      case (MapType(_: StringType, value, _), MAP) =>
        val v = nullable(value, schema.getValueType, s"$path.value")
        (g, i, out) => {
          val m = g.getMap(i)
          val (keys, values) = (m.keyArray(), m.valueArray())
          val n = m.numElements()
          out.writeMapStart()
          out.setItemCount(n.toLong)
          var j = 0
          while (j < n) { out.startItem(); utf8(keys.getUTF8String(j), out); v(values, j, out); j += 1 }
          out.writeMapEnd()
        }
      case (s: StructType, RECORD) =>
        val rec = recordWriter(s, schema, path)
        (g, i, out) => rec(g.getStruct(i, s.size), out)
      case _ => throw unwritable
    }
  }

  /** The UTF-8 bytes of `s`, read in place when they sit in a byte array (a view, not a copy). */
  private def utf8(s: UTF8String, out: Encoder): Unit = out.writeBytes(s.getByteBuffer)

  /** Unscaled value at the Avro scale as big-endian two's complement: sign-padded for `fixed`. */
  private def decimal(t: DecimalType, schema: Schema, logical: LogicalTypes.Decimal): Writer = {
    val scale = logical.getScale
    val fixedSize = if (schema.getType == FIXED) schema.getFixedSize else -1
    val scratch = new Array[Byte](math.max(fixedSize, 0))
    (g, i, out) => {
      val d = g.getDecimal(i, t.precision, t.scale)
      if (d.scale == scale && d.precision <= Decimal.MAX_LONG_DIGITS && fixedSize >= 0 && fixedSize <= 8) {
        var x = d.toUnscaledLong
        var k = fixedSize - 1
        while (k >= 0) { scratch(k) = x.toByte; x >>= 8; k -= 1 }
        out.writeFixed(scratch, 0, fixedSize)
      } else {
        val bd: JBigDecimal = d.toJavaBigDecimal.setScale(scale, RoundingMode.UNNECESSARY)
        val raw = bd.unscaledValue.toByteArray
        if (fixedSize < 0) out.writeBytes(raw, 0, raw.length)
        else { val b = pad(raw, fixedSize, bd.signum < 0); out.writeFixed(b, 0, b.length) }
      }
    }
  }

  private def pad(raw: Array[Byte], size: Int, negative: Boolean): Array[Byte] =
    if (raw.length == size) raw
    else if (raw.length > size) {
      // toByteArray can carry one redundant sign byte beyond what the fixed size holds.
      val extra = raw.length - size
      val sign = (raw(extra) >> 7).toByte
      // Spark's decimal precision bounds the value, and the fixed size is derived from it.
      if (!raw.iterator.take(extra).forall(_ == sign)) throw Errors.internal(s"decimal value exceeds $size bytes")
      raw.drop(extra)
    } else {
      val out = Array.fill[Byte](size)(if (negative) -1 else 0)
      System.arraycopy(raw, 0, out, size - raw.length, raw.length)
      out
    }
}
