// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import java.time.LocalDate

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types._

import io.pyhudi.errors.Errors

/**
 * A record-key or partition field resolved once against the input schema: the ordinal to
 * follow at each nesting level of a dotted name such as `a.b`, and the leaf type.
 */
final class KeyField private (val name: String, ordinals: Array[Int], widths: Array[Int],
    val dataType: DataType) extends Serializable {

  /** The Catalyst value, or null when it or an enclosing struct is null. */
  def value(row: InternalRow): Any = {
    var r = row
    var i = 0
    while (i < ordinals.length - 1) {
      if (r.isNullAt(ordinals(i))) return null
      r = r.getStruct(ordinals(i), widths(i))
      i += 1
    }
    val last = ordinals(ordinals.length - 1)
    if (r.isNullAt(last)) null else r.get(last, dataType)
  }

  // Top-level strings and integers, the usual keys, are rendered without boxing their value.
  private val direct = if (ordinals.length != 1) KeyField.BoxedKey
  else dataType match {
    case _: StringType => KeyField.Utf8Key
    case LongType => KeyField.LongKey
    case IntegerType => KeyField.IntKey
    case _ => KeyField.BoxedKey
  }

  /** The value as Hudi writes it into keys and partition paths, or null. */
  def string(row: InternalRow): String = direct match {
    case KeyField.BoxedKey => KeyField.render(dataType, value(row))
    case _ if row.isNullAt(ordinals(0)) => null
    case KeyField.Utf8Key => row.getUTF8String(ordinals(0)).toString
    case KeyField.LongKey => java.lang.Long.toString(row.getLong(ordinals(0)))
    case _ => Integer.toString(row.getInt(ordinals(0)))
  }
}

object KeyField {
  private final val BoxedKey = 0
  private final val Utf8Key = 1
  private final val LongKey = 2
  private final val IntKey = 3

  /**
   * Resolves a (possibly dotted) field name; names are matched exactly, as Hudi matches Avro
   * field names. Fails naming the field and the columns available at the level it missed.
   */
  def resolve(role: String, name: String, schema: StructType): KeyField = {
    val parts = name.split('.')
    val ordinals = new Array[Int](parts.length)
    val widths = new Array[Int](parts.length)
    var struct = schema
    var leaf: DataType = null
    parts.indices.foreach { i =>
      val scope = if (i == 0) "columns" else s"fields of ${parts.take(i).mkString(".")}"
      val available = if (struct == null) Nil else struct.fieldNames.toSeq
      val ordinal = available.indexOf(parts(i))
      if (ordinal < 0) throw Errors.keyFieldNotFound(role, name, scope, available)
      ordinals(i) = ordinal
      leaf = struct.fields(ordinal).dataType
      leaf match {
        case s: StructType => widths(i) = s.length; struct = s
        case _ => struct = null
      }
    }
    if (!isSupported(leaf))
      throw Errors.unsupportedKeyFieldType(role, name, leaf.simpleString,
        "cannot be turned into a key or partition value; use a string, number, boolean, " +
          "decimal, date or timestamp column")
    new KeyField(name, ordinals, widths, leaf)
  }

  private def isSupported(t: DataType): Boolean = t match {
    case _: StringType | _: CharType | _: VarcharType => true
    case BooleanType | ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType => true
    case _: DecimalType | DateType | TimestampType | TimestampNTZType => true
    case _ => false
  }

  /**
   * Hudi 0.14 turns Spark rows into Avro records and prints the Avro value with `toString`,
   * after converting dates to `LocalDate` and decimals to `BigDecimal`; this gives the same text
   * from the Catalyst value.
   */
  def render(t: DataType, v: Any): String = if (v == null) null
  else t match {
    case DateType => LocalDate.ofEpochDay(v.asInstanceOf[Int].toLong).toString
    case d: DecimalType =>
      val bd = v.asInstanceOf[Decimal].toJavaBigDecimal
      // BigDecimal.toString, as Hudi prints it: `1E-8` rather than `0.00000001` for tiny values.
      (if (bd.scale == d.scale) bd else bd.setScale(d.scale)).toString
    // Timestamps stay the Avro long, microseconds since the epoch: Hudi converts them to
    // java.sql.Timestamp only with
    // hoodie.datasource.write.keygenerator.consistent.logical.timestamp.enabled=true, which is
    // off by default and not supported here, so `2023-04-01 12:01:00` is keyed `1680350460000000`.
    case TimestampType | TimestampNTZType => v.toString
    // UTF8String, boxed java.lang numbers and booleans print as Java prints them.
    case _ => v.toString
  }
}
