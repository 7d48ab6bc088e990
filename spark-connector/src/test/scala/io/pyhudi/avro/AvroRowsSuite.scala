// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import java.math.{BigDecimal => JBigDecimal}
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.UTF_8

import scala.jdk.CollectionConverters._

import org.apache.avro.{Conversions, Schema}
import org.apache.avro.generic.{GenericData, GenericRecord, GenericRecordBuilder}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.schema.{MetaFields, TableSchemaResolver}

/** Corpus records as rows: every type, nulls, and the real log block records. */
class AvroRowsSuite extends AnyFunSuite {

  private val schema = AvroFixtures.nonPartitionedSchema
  private val struct = AvroSchemaConverter.toStructType(schema)
  private val decimals = new Conversions.DecimalConversion

  /** The non-null branch of a field's `["null", T]` union. */
  private def nonNull(s: Schema): Schema = AvroSchemaConverter.unwrapNullable(s, "")._1
  private def fieldSchema(s: Schema, name: String): Schema = nonNull(s.getField(name).schema)

  private val arrayItem = nonNull(fieldSchema(schema, "arrayField").getElementType)
  private val mapValue = nonNull(fieldSchema(schema, "mapField").getValueType)
  private val structSchema = fieldSchema(schema, "structField")
  private val childSchema = fieldSchema(structSchema, "child_struct")
  private val decimalSchema = fieldSchema(schema, "decimalField")

  private def record(s: Schema, values: (String, Any)*): GenericRecord = {
    val b = new GenericRecordBuilder(s)
    values.foreach { case (k, v) => b.set(k, v) }
    b.build()
  }

  /** A record of the real table schema holding a value of every type, nulls included. */
  private def fullRecord: GenericRecord = record(schema,
    "id" -> 1, "name" -> "alice", "isActive" -> true, "byteField" -> 7, "shortField" -> 300,
    "intField" -> 42, "longField" -> 1234567890123L, "floatField" -> 1.5f, "doubleField" -> 2.25,
    "decimalField" -> decimals.toFixed(new JBigDecimal("-12345.67890"), decimalSchema, decimalSchema.getLogicalType),
    "dateField" -> 19450, "timestampField" -> 1700000000123456L,
    "binaryField" -> ByteBuffer.wrap("bin".getBytes(UTF_8)),
    "arrayField" -> List(record(arrayItem, "arr_struct_f1" -> "a", "arr_struct_f2" -> 1), null,
      record(arrayItem, "arr_struct_f2" -> 2)).asJava,
    "mapField" -> Map[String, Any](
      "k1" -> record(mapValue, "map_field_value_struct_f1" -> 1.5, "map_field_value_struct_f2" -> true),
      "k2" -> null).asJava,
    "structField" -> record(structSchema, "field1" -> "s",
      "child_struct" -> record(childSchema, "child_field1" -> 3.5, "child_field2" -> false)))

  private def checkFullRow(row: InternalRow): Unit = {
    assert(row.numFields === struct.size)
    assert(row.getInt(0) === 1)
    assert(row.getUTF8String(1).toString === "alice")
    assert(row.getBoolean(2))
    assert(row.getInt(3) === 7 && row.getInt(4) === 300 && row.getInt(5) === 42)
    assert(row.getLong(6) === 1234567890123L)
    assert(row.getFloat(7) === 1.5f && row.getDouble(8) === 2.25)
    assert(row.getDecimal(9, 10, 5) === Decimal(new JBigDecimal("-12345.67890")))
    assert(row.getInt(10) === 19450)
    assert(row.getLong(11) === 1700000000123456L)
    assert(new String(row.getBinary(12), UTF_8) === "bin")

    val array = row.getArray(13)
    assert(array.numElements() === 3)
    assert(array.getStruct(0, 2).getUTF8String(0).toString === "a" && array.getStruct(0, 2).getInt(1) === 1)
    assert(array.isNullAt(1))
    assert(array.getStruct(2, 2).isNullAt(0) && array.getStruct(2, 2).getInt(1) === 2)

    val map = row.getMap(14)
    val entries = (0 until map.numElements()).map(i => map.keyArray().getUTF8String(i).toString -> i).toMap
    assert(entries.keySet === Set("k1", "k2"))
    val k1 = map.valueArray().getStruct(entries("k1"), 2)
    assert(k1.getDouble(0) === 1.5 && k1.getBoolean(1))
    assert(map.valueArray().isNullAt(entries("k2")))

    val nested = row.getStruct(15, 3)
    assert(nested.getUTF8String(0).toString === "s" && nested.isNullAt(1))
    val child = nested.getStruct(2, 2)
    assert(child.getDouble(0) === 3.5 && !child.getBoolean(1))
  }

  test("every type of the real table schema converts from a hand-built record") {
    checkFullRow(AvroFixtures.toRow(struct, fullRecord))
  }

  test("every type converts from a decoded record (Utf8, ByteBuffer, GenericData.Array)") {
    val decoded = AvroFixtures.roundTrip(fullRecord)
    assert(decoded.get("name").isInstanceOf[org.apache.avro.util.Utf8])
    checkFullRow(AvroFixtures.toRow(struct, decoded))
  }

  test("null fields, including containers and nested records, read as null") {
    val empty = AvroFixtures.roundTrip(record(schema))
    val row = AvroFixtures.toRow(struct, empty)
    assert((0 until struct.size).forall(row.isNullAt))
  }

  test("a real log block record converts into a pruned, reordered table schema") {
    val (_, records) = AvroFixtures.logBlockRecords("mor/v6_trips_8i1u.zip", ".log.1_0-26-85")
    val commit = AvroFixtures.commitSchema("mor/v6_trips_8i1u.zip", ".hoodie/20250331030645735.deltacommit")
    val table = TableSchemaResolver.withMetaFields(AvroSchemaConverter.toStructType(AvroSchemaConverter.parse(commit)),
      populateMetaFields = true)
    val target = StructType(Seq("fare", MetaFields.RecordKey, "rider", MetaFields.CommitSeqNo, "ts").map(table(_)))
    val row = AvroFixtures.toRow(target, records.head)
    assert(records.size === 1)
    assert(row.getDouble(0) === 25.0)
    assert(row.getUTF8String(1).toString === "9909a8b1-2d15-4d3d-8ec9-efc48c536a00")
    assert(row.getUTF8String(2).toString === "rider-D")
    assert(row.getUTF8String(3).toString === "20250331030645735_0_1")
    assert(row.getLong(4) === 1695046462179L)
  }

  private val timesSchema = AvroSchemaConverter.parse(
    """{"type":"record","name":"t","fields":[
      |{"name":"millis","type":["null",{"type":"long","logicalType":"timestamp-millis"}]},
      |{"name":"micros","type":{"type":"long","logicalType":"timestamp-micros"}},
      |{"name":"local","type":["null",{"type":"long","logicalType":"local-timestamp-millis"}]},
      |{"name":"localMicros","type":{"type":"long","logicalType":"local-timestamp-micros"}},
      |{"name":"day","type":{"type":"int","logicalType":"date"}},
      |{"name":"kind","type":{"type":"enum","name":"k","symbols":["A","B"]}},
      |{"name":"small","type":{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}},
      |{"name":"big","type":["null",{"type":"bytes","logicalType":"decimal","precision":38,"scale":10}]},
      |{"name":"bigFixed","type":{"type":"fixed","name":"f","size":16,"logicalType":"decimal","precision":30,"scale":3}}
      |]}""".stripMargin)

  test("timestamps become micros, dates days, enums strings, decimals exact at any precision") {
    def field(n: String) = timesSchema.getField(n).schema
    val big = new JBigDecimal("-1234567890123456789012345678.0123456789")
    val bigFixed = new JBigDecimal("123456789012345678901234567.891")
    val rec = record(timesSchema, "millis" -> 1700000000123L, "micros" -> 1700000000123456L,
      "local" -> -1L, "localMicros" -> 42L, "day" -> -3,
      "kind" -> new GenericData.EnumSymbol(field("kind"), "B"),
      "small" -> decimals.toBytes(new JBigDecimal("-1.05"), field("small"), field("small").getLogicalType),
      "big" -> decimals.toBytes(big, nonNull(field("big")), nonNull(field("big")).getLogicalType),
      "bigFixed" -> decimals.toFixed(bigFixed, field("bigFixed"), field("bigFixed").getLogicalType))
    val target = AvroSchemaConverter.toStructType(timesSchema)
    assert(target.map(_.dataType) === Seq(TimestampType, TimestampType, TimestampNTZType, TimestampNTZType,
      DateType, StringType, DecimalType(5, 2), DecimalType(38, 10), DecimalType(30, 3)))
    for (r <- Seq(rec, AvroFixtures.roundTrip(rec))) {
      val row = AvroFixtures.toRow(target, r)
      assert(row.getLong(0) === 1700000000123000L)
      assert(row.getLong(1) === 1700000000123456L)
      assert(row.getLong(2) === -1000L && row.getLong(3) === 42L)
      assert(row.getInt(4) === -3)
      assert(row.getUTF8String(5).toString === "B")
      assert(row.getDecimal(6, 5, 2) === Decimal(new JBigDecimal("-1.05")))
      assert(row.getDecimal(7, 38, 10).toJavaBigDecimal === big)
      assert(row.getDecimal(8, 30, 3).toJavaBigDecimal === bigFixed)
    }
  }
}
