// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import java.io.ByteArrayOutputStream
import java.math.{BigDecimal => JBigDecimal}
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.UTF_8

import scala.jdk.CollectionConverters._
import scala.util.{Failure, Success, Try}

import org.apache.avro.{Conversions, Schema}
import org.apache.avro.generic.{GenericDatumReader, GenericDatumWriter, GenericRecord, GenericRecordBuilder}
import org.apache.avro.io.{DecoderFactory, EncoderFactory}
import org.apache.spark.sql.catalyst.{CatalystTypeConverters, InternalRow}
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.InvalidTableException

/** Reading records whose writer schema differs from the requested one. */
class AvroRowsEvolutionSuite extends AnyFunSuite {

  private val writer = AvroSchemaConverter.parse(
    """{"type":"record","name":"r","fields":[
      |{"name":"id","type":"int"},
      |{"name":"name","type":["null","string"]},
      |{"name":"big","type":["null","long"]},
      |{"name":"price","type":["null","float"]},
      |{"name":"payload","type":["null","bytes"]},
      |{"name":"dec","type":["null",{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}]},
      |{"name":"nested","type":["null",{"type":"record","name":"n","fields":[
      |  {"name":"a","type":["null","int"]},{"name":"b","type":["null","string"]}]}]},
      |{"name":"items","type":{"type":"array","items":{"type":"record","name":"i","fields":[
      |  {"name":"x","type":"int"},{"name":"y","type":["null","string"]}]}}},
      |{"name":"extra","type":["null","string"]}
      |]}""".stripMargin)

  private def nonNull(s: Schema): Schema = AvroSchemaConverter.unwrapNullable(s, "")._1
  private val decSchema = nonNull(writer.getField("dec").schema)

  private def record(s: Schema, values: (String, Any)*): GenericRecord = {
    val b = new GenericRecordBuilder(s)
    values.foreach { case (k, v) => b.set(k, v) }
    b.build()
  }

  private val sample: GenericRecord = AvroFixtures.roundTrip(record(writer,
      "id" -> 7, "name" -> "seven", "big" -> 9000000000L, "price" -> 0.1f,
      "payload" -> ByteBuffer.wrap("raw".getBytes(UTF_8)),
      "dec" -> new Conversions.DecimalConversion().toBytes(new JBigDecimal("123.45"), decSchema,
        decSchema.getLogicalType),
      "nested" -> record(nonNull(writer.getField("nested").schema), "a" -> 1, "b" -> "bee"),
      "items" -> List(record(writer.getField("items").schema.getElementType, "x" -> 5, "y" -> "why")).asJava,
      "extra" -> "ignored"))

  /**
   * The converters' row of the decoded `rec`, checked against [[AvroRowDecoder]]'s decoding of the
   * record's binary form: the same values, or the same error.
   */
  private def deserialize(target: StructType, rec: GenericRecord): InternalRow = {
    val generic = Try(AvroFixtures.toRow(target, rec))
    val binary = Try(AvroFixtures.decodeBinary(target, rec))
    def scala(row: InternalRow) = CatalystTypeConverters.createToScalaConverter(target)(row)
    (generic, binary) match {
      case (Success(g), Success(b)) => assert(scala(b) === scala(g))
      case (Failure(g), Failure(b)) => assert(b.getClass === g.getClass && b.getMessage === g.getMessage)
      case _ => fail(s"the converters gave $generic but AvroRowDecoder $binary")
    }
    generic.get
  }

  private def read(fields: StructField*) = deserialize(StructType(fields), sample)

  test("a pruned, reordered target reads only its fields, nested ones included") {
    val row = read(
      StructField("items", ArrayType(StructType(Seq(StructField("y", StringType))))),
      StructField("nested", StructType(Seq(StructField("b", StringType)))),
      StructField("name", StringType),
      StructField("id", IntegerType))
    assert(row.numFields === 4)
    val item = row.getArray(0).getStruct(0, 1)
    assert(item.numFields === 1 && item.getUTF8String(0).toString === "why")
    assert(row.getStruct(1, 1).getUTF8String(0).toString === "bee")
    assert(row.getUTF8String(2).toString === "seven" && row.getInt(3) === 7)
  }

  test("fields the writer lacks read as null, at the top level and nested") {
    val row = read(StructField("id", IntegerType), StructField("added", LongType),
      StructField("nested", StructType(Seq(StructField("c", DoubleType), StructField("a", IntegerType)))))
    assert(row.getInt(0) === 7 && row.isNullAt(1))
    assert(row.getStruct(2, 2).isNullAt(0) && row.getStruct(2, 2).getInt(1) === 1)
  }

  test("names match exactly first, then case-insensitively, and ambiguity fails") {
    assert(read(StructField("ID", IntegerType), StructField("Name", StringType)).getInt(0) === 7)
    val twoCases = AvroSchemaConverter.parse("""{"type":"record","name":"c","fields":[
      |{"name":"Key","type":"string"},{"name":"key","type":"string"}]}""".stripMargin)
    val rec = record(twoCases, "Key" -> "upper", "key" -> "lower")
    val exact = deserialize(StructType(Seq(StructField("key", StringType), StructField("Key", StringType))), rec)
    assert(exact.getUTF8String(0).toString === "lower" && exact.getUTF8String(1).toString === "upper")
    val e = intercept[InvalidTableException](
      deserialize(StructType(Seq(StructField("KEY", StringType))), rec))
    assert(e.getMessage.contains("'KEY'") && e.getMessage.contains("Key, key"))
  }

  test("numbers widen as schema evolution allows") {
    val row = read(
      StructField("id", LongType), StructField("id", FloatType), StructField("id", DoubleType),
      StructField("id", ShortType), StructField("id", ByteType),
      StructField("big", FloatType), StructField("big", DoubleType), StructField("price", DoubleType))
    assert(row.getLong(0) === 7L && row.getFloat(1) === 7f && row.getDouble(2) === 7.0)
    assert(row.getShort(3) === 7.toShort && row.getByte(4) === 7.toByte)
    assert(row.getFloat(5) === 9.0e9f && row.getDouble(6) === 9.0e9)
    assert(row.getDouble(7) === 0.1f.toDouble)
  }

  test("strings and binary convert both ways; decimals change precision and scale") {
    val row = read(StructField("name", BinaryType), StructField("payload", StringType),
      StructField("dec", DecimalType(10, 4)))
    assert(new String(row.getBinary(0), UTF_8) === "seven")
    assert(row.getUTF8String(1).toString === "raw")
    assert(row.getDecimal(2, 10, 4) === Decimal(new JBigDecimal("123.4500")))
    val overflow = intercept[InvalidTableException](read(StructField("dec", DecimalType(4, 2))))
    assert(overflow.getMessage.contains("'dec'") && overflow.getMessage.contains("123.45"))
  }

  test("a writer type that cannot become the target type fails naming the field") {
    val e = intercept[InvalidTableException](read(StructField("name", IntegerType)))
    assert(e.getMessage.contains("'name'") && e.getMessage.contains("string") && e.getMessage.contains("INT"))
    val nested = intercept[InvalidTableException](
      read(StructField("nested", StructType(Seq(StructField("b", DateType))))))
    assert(nested.getMessage.contains("'nested.b'"))
    val narrowing = intercept[InvalidTableException](read(StructField("big", IntegerType)))
    assert(narrowing.getMessage.contains("'big'"))
  }

  test("a writer field with a non-nullable multi-branch union fails clearly") {
    val union = AvroSchemaConverter.parse(
      """{"type":"record","name":"u","fields":[{"name":"v","type":["int","string"]}]}""")
    val e = intercept[InvalidTableException](
      deserialize(StructType(Seq(StructField("v", StringType))), record(union, "v" -> 1)))
    assert(e.getMessage.contains("'v'") && e.getMessage.contains("union[int, string]"))
  }

  test("records of several writer schemas read into one target") {
    val older = AvroSchemaConverter.parse(
      """{"type":"record","name":"r","fields":[{"name":"id","type":"int"}]}""")
    val newer = AvroSchemaConverter.parse(
      """{"type":"record","name":"r","fields":[{"name":"name","type":"string"},{"name":"id","type":"long"}]}""")
    val target = StructType(Seq(StructField("id", LongType), StructField("name", StringType)))
    for (_ <- 1 to 2) {
      val a = deserialize(target, record(older, "id" -> 1))
      assert(a.getLong(0) === 1L && a.isNullAt(1))
      val b = deserialize(target, record(newer, "name" -> "n", "id" -> 2L))
      assert(b.getLong(0) === 2L && b.getUTF8String(1).toString === "n")
    }
  }

  test("rows keep their values when the decoder reuses the record for the next one") {
    val s = AvroSchemaConverter.parse(
      """{"type":"record","name":"s","fields":[{"name":"t","type":"string"},{"name":"b","type":"bytes"}]}""")
    def encode(t: String): Array[Byte] = {
      val out = new ByteArrayOutputStream()
      val enc = EncoderFactory.get.binaryEncoder(out, null)
      new GenericDatumWriter[GenericRecord](s).write(record(s, "t" -> t, "b" -> ByteBuffer.wrap(t.getBytes(UTF_8))),
        enc)
      enc.flush()
      out.toByteArray
    }
    val datumReader = new GenericDatumReader[GenericRecord](s)
    val target = StructType(Seq(StructField("t", StringType), StructField("b", BinaryType)))
    val reused = datumReader.read(null, DecoderFactory.get.binaryDecoder(encode("first-value"), null))
    val first = AvroFixtures.toRow(target, reused)
    val again = datumReader.read(reused, DecoderFactory.get.binaryDecoder(encode("second"), null))
    assert(again eq reused)
    val second = AvroFixtures.toRow(target, again)
    assert(first.getUTF8String(0).toString === "first-value" && new String(first.getBinary(1), UTF_8) === "first-value")
    assert(second.getUTF8String(0).toString === "second" && new String(second.getBinary(1), UTF_8) === "second")
  }
}
