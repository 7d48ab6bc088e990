// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.avro.{LogicalTypes, NameValidator, Schema}
import org.apache.avro.Schema.Type._
import org.apache.spark.sql.types._

import io.pyhudi.errors.Errors

/**
 * Maps Avro schemas to Spark types the way Apache Hudi's Spark reader does: every struct field
 * nullable, `["null", T]` unions read as a nullable `T`, logical types to their Spark
 * counterparts (date, timestamps, decimals).
 */
object AvroSchemaConverter {

  /**
   * Spark type for an Avro schema. Unions `["null", T]` / `[T, "null"]` become `T` (nullable);
   * any other union fails with an error naming the field, as do recursive records.
   */
  def toSparkType(schema: Schema): DataType = convert(schema, "", Set.empty)

  /** Record schema (or a nullable union of one) to a StructType whose fields are all nullable. */
  def toStructType(schema: Schema): StructType = toSparkType(schema) match {
    case s: StructType => s
    case other => throw Errors.unsupportedAvroType(
        schema.getFullName, schema.getType.getName, s"expected a record, which maps to a struct, not $other")
  }

  /**
   * Parses schema JSON. Text copied raw from `hoodie.properties` still carries the properties
   * escapes (`\:`), which JSON rejects, so a failed parse is retried with them removed.
   */
  def parse(json: String): Schema =
    try newParser().parse(json)
    catch {
      case NonFatal(first) =>
        val unescaped = json.replaceAll(PropertiesEscape, "$1")
        if (unescaped == json) throw Errors.invalidAvroSchema(json, first)
        try newParser().parse(unescaped)
        catch { case NonFatal(_) => throw Errors.invalidAvroSchema(json, first) }
    }

  /** `\` before a character that needs no JSON escape but that java.util.Properties escapes. */
  private val PropertiesEscape = """\\([:=#! ])"""

  // A parser remembers the names it has seen, so each parse needs its own. Readers accept what
  // writers wrote: no name checks, and invalid defaults are not the reader's concern.
  private def newParser(): Schema.Parser =
    new Schema.Parser(NameValidator.NO_VALIDATION).setValidateDefaults(false)

  /**
   * The non-null branch of a nullable union together with whether the union admits null;
   * other schemas are returned as they are (not nullable). Multi-branch unions fail.
   */
  private[avro] def unwrapNullable(schema: Schema, path: String): (Schema, Boolean) =
    if (schema.getType != UNION) (schema, false)
    else {
      val branches = schema.getTypes.asScala.toSeq
      branches.filterNot(_.getType == NULL) match {
        case Seq(single) => (single, branches.size > 1)
        case Seq() => (Schema.create(NULL), true)
        case many => throw Errors.unsupportedAvroType(display(path), unionName(branches),
            s"only unions of null and one other type can be read (found ${many.size} non-null branches)")
      }
    }

  private def convert(schema: Schema, path: String, seen: Set[String]): DataType =
    schema.getType match {
      case NULL => NullType
      case BOOLEAN => BooleanType
      case INT => schema.getLogicalType match {
          case _: LogicalTypes.Date => DateType
          case _ => IntegerType // plain int and time-millis
        }
      case LONG => schema.getLogicalType match {
          case _: LogicalTypes.TimestampMillis | _: LogicalTypes.TimestampMicros => TimestampType
          case _: LogicalTypes.LocalTimestampMillis | _: LogicalTypes.LocalTimestampMicros => TimestampNTZType
          case _ => LongType // plain long, time-micros and logical types Spark has no type for
        }
      case FLOAT => FloatType
      case DOUBLE => DoubleType
      case STRING | ENUM => StringType
      case BYTES | FIXED => schema.getLogicalType match {
          case d: LogicalTypes.Decimal => decimalType(d, path)
          case _ => BinaryType
        }
      case ARRAY =>
        val (item, nullable) = unwrapNullable(schema.getElementType, s"$path.element")
        ArrayType(convert(item, s"$path.element", seen), containsNull = nullable)
      case MAP =>
        val (value, nullable) = unwrapNullable(schema.getValueType, s"$path.value")
        MapType(StringType, convert(value, s"$path.value", seen), valueContainsNull = nullable)
      case RECORD =>
        if (seen.contains(schema.getFullName)) throw Errors.unsupportedAvroType(display(path),
          schema.getFullName, "recursive records have no Spark equivalent")
        val inner = seen + schema.getFullName
        StructType(schema.getFields.asScala.toSeq.map { f =>
          val fieldPath = if (path.isEmpty) f.name else s"$path.${f.name}"
          StructField(f.name, convert(unwrapNullable(f.schema, fieldPath)._1, fieldPath, inner), nullable = true)
        })
      case UNION => convert(unwrapNullable(schema, path)._1, path, seen)
    }

  private def decimalType(d: LogicalTypes.Decimal, path: String): DecimalType =
    if (d.getPrecision > DecimalType.MAX_PRECISION || d.getScale > d.getPrecision)
      throw Errors.unsupportedAvroType(display(path), s"decimal(${d.getPrecision},${d.getScale})",
        s"Spark decimals allow a precision of at most ${DecimalType.MAX_PRECISION} and a scale within it")
    else DecimalType(d.getPrecision, d.getScale)

  private[avro] def display(path: String): String =
    if (path.isEmpty) "<top level>" else path.stripPrefix(".")

  private def unionName(branches: Seq[Schema]): String =
    branches.map(b =>
      if (b.getType == RECORD || b.getType == FIXED || b.getType == ENUM) b.getFullName
      else b.getType.getName).mkString("union[", ", ", "]")
}
