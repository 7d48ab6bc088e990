// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import java.math.{BigDecimal => JBigDecimal, BigInteger}
import java.nio.ByteBuffer

import scala.jdk.CollectionConverters._

import org.apache.avro.{LogicalType, LogicalTypes, Schema}
import org.apache.avro.Schema.Type._
import org.apache.avro.generic.{GenericFixed, IndexedRecord}
import org.apache.avro.util.Utf8
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.catalyst.util.{ArrayBasedMapData, GenericArrayData}
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.errors.Errors

/**
 * Builds, once per (writer schema, Spark type) pair, the function that turns an Avro value into
 * its Catalyst form. Doing the type dispatch up front keeps the per-record work to a few calls.
 */
private[avro] object AvroValueConverters {

  /** Converts a non-null Avro value; callers handle nulls so that every converter can skip them. */
  type Converter = Any => Any

  /** Reads a writer record into a row of `target`, matching fields by name (see [[findField]]). */
  def record(writer: Schema, target: StructType, path: String): IndexedRecord => InternalRow = {
    val matched = target.fields.map { f =>
      val fieldPath = if (path.isEmpty) f.name else s"$path.${f.name}"
      findField(writer, f.name, fieldPath).map(w => (w.pos, converter(w.schema, f.dataType, fieldPath)))
    }
    // A target field the writer lacks stays -1 and reads as null.
    val positions = matched.map(_.fold(-1)(_._1))
    val converters = matched.map(_.fold(null: Converter)(_._2))
    rec => {
      val values = new Array[Any](positions.length)
      var i = 0
      while (i < positions.length) {
        if (positions(i) >= 0) {
          val v = rec.get(positions(i))
          if (v != null) values(i) = converters(i)(v)
        }
        i += 1
      }
      new GenericInternalRow(values)
    }
  }

  /** The writer field for `name`: exact match first, then a unique case-insensitive one. */
  private[avro] def findField(writer: Schema, name: String, path: String): Option[Schema.Field] =
    Option(writer.getField(name)).orElse {
      writer.getFields.asScala.filter(_.name.equalsIgnoreCase(name)).toSeq match {
        case Seq() => None
        case Seq(one) => Some(one)
        case many => throw Errors.ambiguousAvroField(AvroSchemaConverter.display(path), many.map(_.name))
      }
    }

  /** Converter from values of `writerSchema` to `target`, widening where schema evolution allows. */
  def converter(writerSchema: Schema, target: DataType, path: String): Converter = {
    val writer = AvroSchemaConverter.unwrapNullable(writerSchema, path)._1
    val logical = writer.getLogicalType
    def incompatible = Errors.incompatibleAvroField(AvroSchemaConverter.display(path), describe(writer), target.sql)
    (writer.getType, target) match {
      case (NULL, _) => _ => null
      case (BOOLEAN, BooleanType) => identity
      case (INT, IntegerType) => identity // also date and time-millis as their raw int
      case (INT, DateType) if logical.isInstanceOf[LogicalTypes.Date] => identity
      case (INT, ByteType) => v => v.asInstanceOf[Number].byteValue
      case (INT, ShortType) => v => v.asInstanceOf[Number].shortValue
      case (INT, LongType) => v => v.asInstanceOf[Number].longValue
      case (LONG, LongType) => identity
      case (LONG, TimestampType) if isTimestamp(logical, local = false) => micros(logical)
      case (LONG, TimestampNTZType) if isTimestamp(logical, local = true) => micros(logical)
      case (INT | LONG, FloatType) => v => v.asInstanceOf[Number].floatValue
      case (INT | LONG | FLOAT, DoubleType) => v => v.asInstanceOf[Number].doubleValue
      case (FLOAT, FloatType) | (DOUBLE, DoubleType) => identity
      case (STRING | ENUM, StringType) => utf8
      case (STRING | ENUM, BinaryType) => v => utf8(v).getBytes
      case (BYTES | FIXED, BinaryType) if !isDecimal(logical) => bytes
      case (BYTES | FIXED, StringType) if !isDecimal(logical) => v => UTF8String.fromBytes(bytes(v))
      case (BYTES | FIXED, t: DecimalType) if isDecimal(logical) =>
        decimal(logical.asInstanceOf[LogicalTypes.Decimal], t, path)
      case (ARRAY, ArrayType(elementType, _)) =>
        array(converter(writer.getElementType, elementType, s"$path.element"))
      case (MAP, MapType(StringType, valueType, _)) =>
        map(converter(writer.getValueType, valueType, s"$path.value"))
      case (RECORD, struct: StructType) =>
        val read = record(writer, struct, path)
        v => read(v.asInstanceOf[IndexedRecord])
      case _ => throw incompatible
    }
  }

  private def isDecimal(logical: LogicalType): Boolean = logical.isInstanceOf[LogicalTypes.Decimal]

  // Spark keeps instant (TimestampType) and wall-clock (TimestampNTZType) times apart, so each
  // reads only from its own Avro family.
  private def isTimestamp(logical: LogicalType, local: Boolean): Boolean = logical match {
    case _: LogicalTypes.TimestampMillis | _: LogicalTypes.TimestampMicros => !local
    case _: LogicalTypes.LocalTimestampMillis | _: LogicalTypes.LocalTimestampMicros => local
    case _ => false
  }

  /** Catalyst timestamps are microseconds; Avro millis are scaled up. */
  private def micros(logical: LogicalType): Converter = logical match {
    case _: LogicalTypes.TimestampMillis | _: LogicalTypes.LocalTimestampMillis =>
      v => Math.multiplyExact(v.asInstanceOf[Number].longValue, 1000L)
    case _ => identity
  }

  /** Strings come as Utf8 from decoders, String or other CharSequences from hand-built records. */
  private def utf8(v: Any): UTF8String = v match {
    // Decoders reuse a Utf8's buffer for the next record, so the row gets its own copy.
    case u: Utf8 => UTF8String.fromBytes(java.util.Arrays.copyOf(u.getBytes, u.getByteLength))
    case s: String => UTF8String.fromString(s)
    case other => UTF8String.fromString(other.toString) // CharSequence, enum symbol
  }

  /** A copy of the bytes of a `bytes` (ByteBuffer) or `fixed` value. */
  private def bytes(v: Any): Array[Byte] = v match {
    case b: ByteBuffer =>
      val out = new Array[Byte](b.remaining)
      b.duplicate().get(out) // duplicate: reading must not move the record's buffer
      out
    case f: GenericFixed => f.bytes.clone()
    case a: Array[Byte] => a.clone()
    case other => throw Errors.internal(s"Not an Avro bytes value: ${other.getClass.getName}")
  }

  /** Decimals are big-endian two's complement unscaled values, rescaled to the read type. */
  private def decimal(writer: LogicalTypes.Decimal, target: DecimalType, path: String): Converter = {
    val (precision, scale) = (writer.getPrecision, writer.getScale)
    val rescale = precision != target.precision || scale != target.scale
    v => {
      val d = v match {
        case bd: JBigDecimal => Decimal(bd, precision, scale)
        case b: ByteBuffer if b.hasArray => unscaled(b.array, b.arrayOffset + b.position, b.remaining, precision, scale)
        case f: GenericFixed => unscaled(f.bytes, 0, f.bytes.length, precision, scale)
        case other => val a = bytes(other); unscaled(a, 0, a.length, precision, scale)
      }
      if (rescale && !d.changePrecision(target.precision, target.scale))
        throw Errors.incompatibleAvroField(AvroSchemaConverter.display(path),
          s"decimal($precision,$scale) value $d", target.sql)
      d
    }
  }

  private def unscaled(a: Array[Byte], offset: Int, length: Int, precision: Int, scale: Int): Decimal =
    if (length <= 8) {
      // Fits a long: skip BigInteger, the common case for precision <= 18.
      var x = if (length > 0 && a(offset) < 0) -1L else 0L
      var i = offset
      while (i < offset + length) { x = (x << 8) | (a(i) & 0xffL); i += 1 }
      if (precision <= Decimal.MAX_LONG_DIGITS) Decimal(x, precision, scale)
      else Decimal(JBigDecimal.valueOf(x, scale), precision, scale)
    } else Decimal(new JBigDecimal(new BigInteger(a, offset, length), scale), precision, scale)

  private def array(element: Converter): Converter = v => {
    val items = v.asInstanceOf[java.util.Collection[Any]]
    val out = new Array[Any](items.size)
    val it = items.iterator
    var i = 0
    while (it.hasNext) {
      val item = it.next()
      if (item != null) out(i) = element(item)
      i += 1
    }
    new GenericArrayData(out)
  }

  private def map(value: Converter): Converter = v => {
    val entries = v.asInstanceOf[java.util.Map[Any, Any]]
    val keys = new Array[Any](entries.size)
    val values = new Array[Any](entries.size)
    var i = 0
    entries.forEach { (k, item) =>
      keys(i) = utf8(k)
      if (item != null) values(i) = value(item)
      i += 1
    }
    new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values))
  }

  private def describe(s: Schema): String =
    Option(s.getLogicalType).fold(s.getType.getName)(l => s"${s.getType.getName} (${l.getName})")
}
