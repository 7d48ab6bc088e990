// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import java.math.{BigDecimal => JBigDecimal, RoundingMode}
import java.nio.ByteBuffer

import scala.jdk.CollectionConverters._

import org.apache.avro.{LogicalTypes, Schema}
import org.apache.avro.Schema.Type._
import org.apache.avro.generic.{GenericData, GenericRecord}
import org.apache.avro.util.Utf8
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters
import org.apache.spark.sql.types._

import io.pyhudi.errors.Errors

/**
 * Converts Catalyst rows of `sparkSchema` into Avro records of `avroSchema`, the inverse of
 * [[AvroRowDecoder]] for the schemas [[SparkToAvro]] produces (meta fields included). Fields
 * are matched by name; `["null", T]` unions take null or the T branch. Byte and short columns
 * become Avro ints, strings `Utf8`, binaries `ByteBuffer`, decimals big-endian two's complement
 * unscaled values (`fixed` sign-padded to its size, or `bytes`), dates days, timestamps
 * microseconds (milliseconds for the `-millis` logical types).
 *
 * The type dispatch runs once, in the constructor; each call builds a new record.
 *
 * @throws io.pyhudi.errors.InvalidTableException from the constructor when a Spark field has no
 *   Avro field of the same name or a type that cannot be written as it
 */
final class AvroSerializer(sparkSchema: StructType, avroSchema: Schema) {

  import AvroSerializer._

  private val write: InternalRow => GenericRecord = recordWriter(sparkSchema, avroSchema, "")

  /**
   * The Avro record for `row`.
   * @throws io.pyhudi.errors.InvalidRecordException when a null meets a non-nullable Avro type
   */
  def serialize(row: InternalRow): GenericRecord = write(row)
}

private object AvroSerializer {

  /** Reads element `ordinal` (known non-null) of a row or array and returns its Avro value. */
  type Writer = (SpecializedGetters, Int) => Any

  def recordWriter(struct: StructType, schema: Schema, path: String): InternalRow => GenericRecord = {
    val fields = struct.fields.map { f =>
      val fieldPath = if (path.isEmpty) f.name else s"$path.${f.name}"
      val avroField = Option(schema.getField(f.name)).getOrElse(
        throw Errors.unsupportedAvroType(fieldPath, "(missing)",
          s"the Avro record ${schema.getFullName} has no such field"))
      (avroField.pos, nullable(f.dataType, avroField.schema, fieldPath))
    }
    val positions = fields.map(_._1)
    val writers = fields.map(_._2)
    row => {
      val rec = new GenericData.Record(schema)
      var i = 0
      while (i < writers.length) {
        rec.put(positions(i), writers(i)(row, i))
        i += 1
      }
      rec
    }
  }

  /** A writer that also accepts nulls: null for a union with a null branch, an error otherwise. */
  private def nullable(t: DataType, schema: Schema, path: String): Writer = {
    val (inner, allowsNull) = unwrap(schema, path)
    val w = writer(t, inner, path)
    (g, i) =>
      if (!g.isNullAt(i)) w(g, i)
      else if (allowsNull) null
      else throw Errors.nullInNonNullableAvro(AvroSchemaConverter.display(path), schema.toString)
  }

  private def unwrap(schema: Schema, path: String): (Schema, Boolean) =
    if (schema.getType != UNION) (schema, false)
    else schema.getTypes.asScala.toSeq.partition(_.getType == NULL) match {
      case (nulls, Seq(one: Schema)) => (one, nulls.nonEmpty)
      case _ => throw Errors.unsupportedAvroType(AvroSchemaConverter.display(path), schema.toString,
          "only [\"null\", T] unions are written")
    }

  private def writer(t: DataType, schema: Schema, path: String): Writer = {
    def unwritable = Errors.unsupportedAvroType(AvroSchemaConverter.display(path), schema.toString,
      s"cannot write Spark type ${t.sql} as it")
    val logical = schema.getLogicalType
    (t, schema.getType) match {
      case (BooleanType, BOOLEAN) => (g, i) => g.getBoolean(i)
      case (ByteType, INT) => (g, i) => g.getByte(i).toInt
      case (ShortType, INT) => (g, i) => g.getShort(i).toInt
      case (IntegerType | DateType, INT) => (g, i) => g.getInt(i)
      case (ByteType, LONG) => (g, i) => g.getByte(i).toLong
      case (ShortType, LONG) => (g, i) => g.getShort(i).toLong
      case (IntegerType, LONG) => (g, i) => g.getInt(i).toLong
      case (LongType, LONG) => (g, i) => g.getLong(i)
      case (TimestampType | TimestampNTZType, LONG) => logical match {
          case _: LogicalTypes.TimestampMillis | _: LogicalTypes.LocalTimestampMillis =>
            (g, i) => Math.floorDiv(g.getLong(i), 1000L)
          case _ => (g, i) => g.getLong(i)
        }
      case (FloatType, FLOAT) => (g, i) => g.getFloat(i)
      case (FloatType, DOUBLE) => (g, i) => g.getFloat(i).toDouble
      case (DoubleType, DOUBLE) => (g, i) => g.getDouble(i)
      case (StringType, STRING) => (g, i) => new Utf8(g.getUTF8String(i).getBytes)
      case (BinaryType, BYTES) => (g, i) => ByteBuffer.wrap(g.getBinary(i).clone())
      case (d: DecimalType, FIXED | BYTES) if logical.isInstanceOf[LogicalTypes.Decimal] =>
        decimal(d, schema, logical.asInstanceOf[LogicalTypes.Decimal])
      case (ArrayType(element, _), ARRAY) =>
        val item = nullable(element, schema.getElementType, s"$path.element")
        (g, i) => {
          val a = g.getArray(i)
          val out = new java.util.ArrayList[Any](a.numElements())
          var j = 0
          while (j < a.numElements()) { out.add(item(a, j)); j += 1 }
          out
        }
      case (MapType(StringType, value, _), MAP) =>
        val v = nullable(value, schema.getValueType, s"$path.value")
        (g, i) => {
          val m = g.getMap(i)
          val (keys, values) = (m.keyArray(), m.valueArray())
          val out = new java.util.LinkedHashMap[Utf8, Any](m.numElements() * 4 / 3 + 1)
          var j = 0
          while (j < m.numElements()) { out.put(new Utf8(keys.getUTF8String(j).getBytes), v(values, j)); j += 1 }
          out
        }
      case (s: StructType, RECORD) =>
        val rec = recordWriter(s, schema, path)
        (g, i) => rec(g.getStruct(i, s.size))
      case _ => throw unwritable
    }
  }

  /** Unscaled value at the Avro scale as big-endian two's complement: sign-padded for `fixed`. */
  private def decimal(t: DecimalType, schema: Schema, logical: LogicalTypes.Decimal): Writer = {
    val scale = logical.getScale
    val fixedSize = if (schema.getType == FIXED) schema.getFixedSize else -1
    (g, i) => {
      val d = g.getDecimal(i, t.precision, t.scale)
      val bytes =
        if (d.scale == scale && d.precision <= Decimal.MAX_LONG_DIGITS && fixedSize >= 0 && fixedSize <= 8)
          longBytes(d.toUnscaledLong, fixedSize)
        else {
          val bd: JBigDecimal = d.toJavaBigDecimal.setScale(scale, RoundingMode.UNNECESSARY)
          val raw = bd.unscaledValue.toByteArray
          if (fixedSize < 0) raw else pad(raw, fixedSize, bd.signum < 0)
        }
      if (fixedSize < 0) ByteBuffer.wrap(bytes) else new GenericData.Fixed(schema, bytes)
    }
  }

  private def longBytes(v: Long, size: Int): Array[Byte] = {
    val out = new Array[Byte](size)
    var x = v
    var k = size - 1
    while (k >= 0) { out(k) = x.toByte; x >>= 8; k -= 1 }
    out
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
