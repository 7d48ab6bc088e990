// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import java.io.StringReader
import java.nio.charset.StandardCharsets.UTF_8
import java.util.Properties

import org.apache.avro.Schema
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.schema.{MetaFields, TableSchemaResolver}

import io.pyhudi.errors.InvalidTableException

class AvroSchemaConverterSuite extends AnyFunSuite {

  private val nonPartitionedStruct = StructType(Seq(
      StructField("id", IntegerType),
      StructField("name", StringType),
      StructField("isActive", BooleanType),
      StructField("byteField", IntegerType),
      StructField("shortField", IntegerType),
      StructField("intField", IntegerType),
      StructField("longField", LongType),
      StructField("floatField", FloatType),
      StructField("doubleField", DoubleType),
      StructField("decimalField", DecimalType(10, 5)),
      StructField("dateField", DateType),
      StructField("timestampField", TimestampType),
      StructField("binaryField", BinaryType),
      StructField("arrayField",
        ArrayType(StructType(Seq(
              StructField("arr_struct_f1", StringType),
              StructField("arr_struct_f2", IntegerType))), containsNull = true)),
      StructField("mapField",
        MapType(StringType,
          StructType(Seq(
              StructField("map_field_value_struct_f1", DoubleType),
              StructField("map_field_value_struct_f2", BooleanType))), valueContainsNull = true)),
      StructField("structField",
        StructType(Seq(
            StructField("field1", StringType),
            StructField("field2", IntegerType),
            StructField("child_struct",
              StructType(Seq(
                  StructField("child_field1", DoubleType),
                  StructField("child_field2", BooleanType)))))))))

  private def fieldType(avroType: String): DataType =
    AvroSchemaConverter.toStructType(AvroSchemaConverter.parse(
        s"""{"type":"record","name":"r","fields":[{"name":"f","type":$avroType}]}""")).head.dataType

  test("the v6_nonpartitioned commit schema maps to the table's StructType, field by field") {
    val struct = AvroSchemaConverter.toStructType(AvroFixtures.nonPartitionedSchema)
    assert(struct.fieldNames.toSeq === nonPartitionedStruct.fieldNames.toSeq)
    struct.fields.zip(nonPartitionedStruct.fields).foreach { case (got, want) => assert(got === want) }
    assert(struct === nonPartitionedStruct)
  }

  test("toTableSchema puts the five meta columns first, once, for commit and log schemas alike") {
    val table = TableSchemaResolver.withMetaFields(AvroSchemaConverter.toStructType(AvroFixtures.nonPartitionedSchema),
      populateMetaFields = true)
    assert(table.fieldNames.take(5).toSeq === MetaFields.Names)
    assert(table.take(5).forall(f => f.dataType == StringType && f.nullable))
    assert(StructType(table.drop(5)) === nonPartitionedStruct)

    val (logSchema, _) = AvroFixtures.logBlockRecords("mor/v6_trips_8i1u.zip", ".log.1_0-26-85")
    val fromLog =
      TableSchemaResolver.withMetaFields(AvroSchemaConverter.toStructType(logSchema), populateMetaFields = true)
    assert(fromLog.fieldNames.toSeq === MetaFields.Names ++ Seq("ts", "uuid", "rider", "driver", "fare", "city"))
    val commit = AvroFixtures.commitSchema("mor/v6_trips_8i1u.zip", ".hoodie/20250331030645735.deltacommit")
    assert(TableSchemaResolver.withMetaFields(AvroSchemaConverter.toStructType(AvroSchemaConverter.parse(commit)),
      populateMetaFields = true) === fromLog)
  }

  test("create.schema from hoodie.properties parses with and without the properties escapes") {
    val text = new String(AvroFixtures.zipEntry(AvroFixtures.NonPartitionedZip, ".hoodie/hoodie.properties"), UTF_8)
    val key = "hoodie.table.create.schema="
    val raw = text.linesIterator.find(_.startsWith(key)).get.stripPrefix(key)
    assert(raw.contains("\\:"))
    val props = new Properties()
    props.load(new StringReader(text))
    val loaded = props.getProperty("hoodie.table.create.schema")
    assert(!loaded.contains("\\:"))
    // create.schema writes unions as [T, "null"]; the Spark type is the same as ["null", T].
    assert(AvroSchemaConverter.toStructType(AvroSchemaConverter.parse(raw)) === nonPartitionedStruct)
    assert(AvroSchemaConverter.toStructType(AvroSchemaConverter.parse(loaded)) === nonPartitionedStruct)
  }

  test("logical types map to their Spark types") {
    assert(fieldType("""{"type":"int","logicalType":"date"}""") === DateType)
    assert(fieldType("""{"type":"int","logicalType":"time-millis"}""") === IntegerType)
    assert(fieldType("""{"type":"long","logicalType":"time-micros"}""") === LongType)
    assert(fieldType("""{"type":"long","logicalType":"timestamp-millis"}""") === TimestampType)
    assert(fieldType("""{"type":"long","logicalType":"timestamp-micros"}""") === TimestampType)
    assert(fieldType("""{"type":"long","logicalType":"local-timestamp-millis"}""") === TimestampNTZType)
    assert(fieldType("""{"type":"long","logicalType":"local-timestamp-micros"}""") === TimestampNTZType)
    assert(fieldType("""{"type":"string","logicalType":"uuid"}""") === StringType)
    assert(fieldType("""{"type":"enum","name":"e","symbols":["A","B"]}""") === StringType)
    assert(fieldType("""{"type":"bytes","logicalType":"decimal","precision":38,"scale":10}""") === DecimalType(38, 10))
    assert(fieldType("""{"type":"fixed","name":"x","size":16}""") === BinaryType)
    assert(fieldType(""""bytes"""") === BinaryType)
    assert(fieldType(""""null"""") === NullType)
  }

  test("containers take their nullability from the item union") {
    assert(fieldType("""{"type":"array","items":"long"}""") === ArrayType(LongType, containsNull = false))
    assert(fieldType("""{"type":"array","items":["long","null"]}""") === ArrayType(LongType, containsNull = true))
    assert(fieldType("""{"type":"map","values":"string"}""") === MapType(StringType, StringType,
      valueContainsNull = false))
    assert(fieldType("""["null",{"type":"map","values":["null","int"]}]""") === MapType(StringType, IntegerType))
    val nonNull = AvroSchemaConverter.toStructType(AvroSchemaConverter.parse(
        """{"type":"record","name":"r","fields":[{"name":"f","type":"int"}]}"""))
    assert(nonNull.head.nullable, "Hudi reads every field as nullable")
  }

  test("a union of several non-null types fails naming the field path") {
    val e = intercept[InvalidTableException](AvroSchemaConverter.toSparkType(AvroSchemaConverter.parse(
          """{"type":"record","name":"r","fields":[{"name":"outer","type":{"type":"record","name":"o",
        |"fields":[{"name":"choice","type":["null","int","string"]}]}}]}""".stripMargin)))
    assert(e.getMessage.contains("'outer.choice'"))
    assert(e.getMessage.contains("union[null, int, string]"))

    val top = intercept[InvalidTableException](AvroSchemaConverter.toSparkType(Schema.createUnion(
          Schema.create(Schema.Type.INT), Schema.create(Schema.Type.LONG))))
    assert(top.getMessage.contains("<top level>"))

    val inArray = intercept[InvalidTableException](fieldType("""{"type":"array","items":["int","string"]}"""))
    assert(inArray.getMessage.contains("'f.element'"))
  }

  test("recursive records and oversized decimals fail clearly") {
    val recursive = intercept[InvalidTableException](AvroSchemaConverter.toSparkType(AvroSchemaConverter.parse(
          """{"type":"record","name":"node","fields":[{"name":"next","type":["null","node"]}]}""")))
    assert(recursive.getMessage.contains("'next'") && recursive.getMessage.contains("recursive"))
    val wide = intercept[InvalidTableException](
      fieldType("""{"type":"bytes","logicalType":"decimal","precision":40,"scale":2}"""))
    assert(wide.getMessage.contains("decimal(40,2)"))
  }

  test("toStructType rejects a non-record schema and parse rejects bad JSON") {
    intercept[InvalidTableException](AvroSchemaConverter.toStructType(Schema.create(Schema.Type.STRING)))
    val e = intercept[InvalidTableException](AvroSchemaConverter.parse("""{"type":"record","name":"""))
    assert(e.getMessage.contains("Cannot parse Avro schema"))
    assert(AvroSchemaConverter.toStructType(AvroSchemaConverter.parse(
        """["null",{"type":"record","name":"r","fields":[{"name":"a","type":"int"}]}]""")).fieldNames.toSeq === Seq(
      "a"))
  }
}
