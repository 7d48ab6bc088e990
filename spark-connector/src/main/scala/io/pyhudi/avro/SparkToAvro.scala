// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import scala.jdk.CollectionConverters._

import org.apache.avro.{LogicalTypes, Schema, SchemaBuilder}
import org.apache.avro.Schema.Field
import org.apache.spark.sql.types._

import io.pyhudi.errors.Errors
import io.pyhudi.schema.MetaFields

/**
 * Spark schema → the Avro writer schema Hudi records in commit metadata (`extraMetadata.schema`)
 * and log block headers: record `<table>_record` in namespace `hoodie.<table>`, every field a
 * `["null", T]` union with default null, nested records named after their field in the parent's
 * namespace, decimals as named `fixed`. Byte and short columns become Avro ints, so the table
 * schema Hudi reads back has them as ints.
 */
object SparkToAvro {

  /** Hudi names a table's record namespace `<this>.<table>`. */
  private val NamespacePrefix = "hoodie"

  def tableSchema(schema: StructType, tableName: String): Schema =
    record(schema, s"${tableName}_record", s"$NamespacePrefix.$tableName")

  /**
   * The writer schema of log data blocks (hudi-format.md §6.4): [[tableSchema]] of the data
   * columns `dataSchema` with the five meta fields first, each
   * `{"name":"_hoodie_…","type":["null","string"],"doc":"","default":null}`.
   */
  def withMetaFields(dataSchema: StructType, tableName: String): Schema = {
    val data = tableSchema(dataSchema, tableName)
    val meta =
      MetaFields.Names.map(n => new Field(n, nullable(Schema.create(Schema.Type.STRING)), "", Field.NULL_DEFAULT_VALUE))
    // A Field belongs to one record: the data fields are copied.
    val copied = data.getFields.asScala.map(f => new Field(f, f.schema))
    Schema.createRecord(data.getName, null, data.getNamespace, false, (meta ++ copied).asJava)
  }

  private def record(struct: StructType, name: String, namespace: String): Schema = {
    val fields = struct.fields.map { f =>
      val t = nullable(convert(f.dataType, f.name, s"$namespace.$name"))
      new Field(f.name, t, null, Field.NULL_DEFAULT_VALUE)
    }
    Schema.createRecord(name, null, namespace, false, fields.toList.asJava)
  }

  private def nullable(s: Schema): Schema = Schema.createUnion(Schema.create(Schema.Type.NULL), s)

  private def convert(t: DataType, name: String, namespace: String): Schema = t match {
    case BooleanType => Schema.create(Schema.Type.BOOLEAN)
    case ByteType | ShortType | IntegerType => Schema.create(Schema.Type.INT)
    case LongType => Schema.create(Schema.Type.LONG)
    case FloatType => Schema.create(Schema.Type.FLOAT)
    case DoubleType => Schema.create(Schema.Type.DOUBLE)
    case StringType => Schema.create(Schema.Type.STRING)
    case BinaryType => Schema.create(Schema.Type.BYTES)
    case DateType => LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT))
    case TimestampType => LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG))
    case TimestampNTZType => LogicalTypes.localTimestampMicros().addToSchema(Schema.create(Schema.Type.LONG))
    case d: DecimalType =>
      val fixed = SchemaBuilder.fixed("fixed").namespace(s"$namespace.$name").size(minBytes(d.precision))
      LogicalTypes.decimal(d.precision, d.scale).addToSchema(fixed)
    case ArrayType(element, containsNull) =>
      val item = convert(element, name, namespace)
      Schema.createArray(if (containsNull) nullable(item) else item)
    case MapType(StringType, value, containsNull) =>
      val v = convert(value, name, namespace)
      Schema.createMap(if (containsNull) nullable(v) else v)
    case s: StructType => record(s, name, namespace)
    case other => throw Errors.unsupportedAvroType(name, other.simpleString,
        "pyhudi writes boolean, numeric, string, binary, decimal, date, timestamp, array, " +
          "string-keyed map and struct columns")
  }

  /** Fewest bytes whose two's complement holds every unscaled value of `precision` digits. */
  private def minBytes(precision: Int): Int = {
    var bytes = 1
    while (math.pow(2.0, 8 * bytes - 1) < math.pow(10.0, precision)) bytes += 1
    bytes
  }
}
