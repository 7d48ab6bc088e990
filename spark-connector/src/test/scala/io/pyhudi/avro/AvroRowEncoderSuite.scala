// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import java.io.ByteArrayOutputStream
import java.math.{BigDecimal => JBigDecimal}
import java.nio.ByteBuffer

import scala.jdk.CollectionConverters._

import org.apache.avro.{LogicalTypes, Schema, SchemaBuilder}
import org.apache.avro.generic.{GenericData, GenericDatumReader, GenericDatumWriter, GenericRecord}
import org.apache.avro.io.{DecoderFactory, EncoderFactory}
import org.apache.spark.sql.Row
import org.apache.spark.sql.catalyst.{CatalystTypeConverters, InternalRow}
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{InvalidRecordException, InvalidTableException}
import io.pyhudi.schema.MetaFields

class AvroRowEncoderSuite extends AnyFunSuite {

  private val point = StructType(Seq(StructField("x", IntegerType), StructField("label", StringType)))
  private val struct = StructType(Seq(
      StructField("b", BooleanType), StructField("by", ByteType), StructField("sh", ShortType),
      StructField("i", IntegerType), StructField("l", LongType), StructField("f", FloatType),
      StructField("d", DoubleType), StructField("s", StringType), StructField("bin", BinaryType),
      StructField("dec", DecimalType(10, 2)), StructField("big", DecimalType(38, 10)),
      StructField("date", DateType), StructField("ts", TimestampType), StructField("ntz", TimestampNTZType),
      StructField("points", ArrayType(point, containsNull = true)),
      StructField("byName", MapType(StringType, point, valueContainsNull = true)),
      StructField("nested",
        StructType(Seq(
            StructField("inner", StructType(Seq(StructField("z", LongType)))),
            StructField("tags", ArrayType(StringType, containsNull = false))))),
      StructField("deep", ArrayType(MapType(StringType, ArrayType(IntegerType, containsNull = true))))))
  private val avroSchema = SparkToAvro.tableSchema(struct, "t")

  // Rows are built and compared with dates as Int days and timestamps as Long micros, their
  // Catalyst form: java.sql.Date conversion needs JDK internals the test JVM does not open.
  private val physical = StructType(struct.fields.map {
    case f if f.dataType == DateType => f.copy(dataType = IntegerType)
    case f if f.dataType == TimestampType || f.dataType == TimestampNTZType => f.copy(dataType = LongType)
    case f => f
  })
  private def toCatalyst(row: Row): InternalRow =
    CatalystTypeConverters.createToCatalystConverter(physical)(row).asInstanceOf[InternalRow]
  private def toScala(row: InternalRow): Row =
    CatalystTypeConverters.createToScalaConverter(physical)(row).asInstanceOf[Row]

  private val full = Row(true, 7.toByte, (-300).toShort, Int.MinValue, Long.MaxValue, 1.5f, -2.25, "héllo",
    Array[Byte](0, -1, 127), new JBigDecimal("-12345678.90"),
    new JBigDecimal("-1234567890123456789012345678.0123456789"), 19782,
    1711888496123456L, -1L,
    Seq(Row(1, "a"), null, Row(null, "c")),
    Map("p" -> Row(2, null), "q" -> null),
    Row(Row(-5L), Seq("x", "y")),
    Seq(Map("k" -> Seq[Integer](1, null, 3)), Map.empty[String, Seq[Integer]]))
  private val nulls = Row.fromSeq(Seq.fill(struct.size)(null))
  private val small = Row(false, 0.toByte, 0.toShort, 0, 0L, 0f, 0d, "", Array.emptyByteArray,
    new JBigDecimal("0.01"), new JBigDecimal("1.0000000000"), -719162,
    Long.MinValue / 1000, 946684800000000L,
    Seq.empty, Map.empty, Row(null, Seq.empty), Seq.empty)

  /** `row` encoded by AvroRowEncoder, as bytes. */
  private def encoded(st: StructType, schema: Schema, row: InternalRow): Array[Byte] = {
    val out = new ByteArrayOutputStream()
    val encoder = EncoderFactory.get.binaryEncoder(out, null)
    new AvroRowEncoder(st, schema).write(row, encoder)
    encoder.flush()
    out.toByteArray
  }

  /** `row` encoded by AvroRowEncoder and read back by Avro's own reader, which checks the encoding. */
  private def viaAvro(st: StructType, schema: Schema, row: InternalRow): GenericRecord = {
    val bytes = encoded(st, schema, row)
    val decoder = DecoderFactory.get.binaryDecoder(bytes, null)
    val record = new GenericDatumReader[GenericRecord](schema).read(null, decoder)
    assert(decoder.isEnd, "the datum is read to its last byte")
    record
  }

  private def assertRowsEqual(actual: Row, expected: Row): Unit =
    assert(actual.toSeq.zip(expected.toSeq).forall {
        case (a: Array[Byte], e: Array[Byte]) => a.sameElements(e)
        case (a, e) => a == e
      }, s"\n$actual\n!=\n$expected")

  test("rows of every written type survive the encoder, Avro's reader, the converters and AvroRowDecoder") {
    Seq(full, nulls, small).foreach { row =>
      val record = viaAvro(struct, avroSchema, toCatalyst(row))
      assert(GenericData.get.validate(avroSchema, record))
      assertRowsEqual(toScala(AvroFixtures.toRow(struct, record)), row)
      val decoded = new AvroRowDecoder(struct).reader(avroSchema)(
        DecoderFactory.get.binaryDecoder(encoded(struct, avroSchema, toCatalyst(row)), null))
      assertRowsEqual(toScala(decoded), row)
    }
  }

  test("the bytes are those of Avro's generic writer for the same record") {
    Seq(full, nulls, small).foreach { row =>
      val record = viaAvro(struct, avroSchema, toCatalyst(row))
      val out = new ByteArrayOutputStream()
      val encoder = EncoderFactory.get.binaryEncoder(out, null)
      new GenericDatumWriter[GenericRecord](avroSchema).write(record, encoder)
      encoder.flush()
      assert(encoded(struct, avroSchema, toCatalyst(row)).sameElements(out.toByteArray))
    }
  }

  test("strings are read in place or copied out of off-heap memory alike") {
    val st = StructType(Seq(StructField("s", StringType)))
    val schema = SchemaBuilder.record("r").fields().name("s").`type`().optional().stringType().endRecord()
    // A string in the middle of a larger array: the encoder must honour its offset.
    val wide = "xxhéllo-world".getBytes("UTF-8")
    val inArray = UTF8String.fromBytes(wide, 2, wide.length - 2)
    assert(viaAvro(st, schema, InternalRow(inArray)).get("s").toString == "héllo-world")
    val memory = org.apache.spark.unsafe.Platform.allocateMemory(wide.length.toLong)
    try {
      org.apache.spark.unsafe.Platform.copyMemory(wide, org.apache.spark.unsafe.Platform.BYTE_ARRAY_OFFSET, null,
        memory, wide.length.toLong)
      val offHeap = UTF8String.fromAddress(null, memory + 2, wide.length - 2)
      assert(viaAvro(st, schema, InternalRow(offHeap)).get("s").toString == "héllo-world")
    } finally org.apache.spark.unsafe.Platform.freeMemory(memory)
  }

  test("fixed decimals are sign-padded big-endian unscaled values") {
    val record = viaAvro(struct, avroSchema, toCatalyst(full))
    val dec = record.get("dec").asInstanceOf[GenericData.Fixed]
    assert(dec.bytes.length == 5)
    assert(BigInt(dec.bytes) == BigInt(-1234567890L))
    assert(dec.bytes.sameElements(Array[Byte](-1, 0xb6.toByte, 0x69, 0xfd.toByte, 0x2e)))
    val big = record.get("big").asInstanceOf[GenericData.Fixed]
    assert(big.bytes.length == 16)
    assert(BigInt(big.bytes) == BigInt("-12345678901234567890123456780123456789"))
    val one = viaAvro(struct, avroSchema, toCatalyst(small)).get("dec")
    assert(one.asInstanceOf[GenericData.Fixed].bytes.sameElements(Array[Byte](0, 0, 0, 0, 1)))
  }

  test("bytes decimals, byte and short as int, null-second unions, and fields the row lacks") {
    val decimalBytes = LogicalTypes.decimal(20, 4).addToSchema(Schema.create(Schema.Type.BYTES))
    val schema = SchemaBuilder.record("r").fields()
      .name("amount").`type`().unionOf().nullType().and().`type`(decimalBytes).endUnion().nullDefault()
      .name("by").`type`().intType().noDefault()
      .name("s").`type`().unionOf().stringType().and().nullType().endUnion().stringDefault("")
      .name("bin").`type`().optional().bytesType()
      .name("absent").`type`().optional().longType()
      .endRecord()
    val st = StructType(Seq(StructField("amount", DecimalType(20, 4)), StructField("by", ByteType),
        StructField("s", StringType), StructField("bin", BinaryType)))
    val row = CatalystTypeConverters.createToCatalystConverter(st)(
      Row(new JBigDecimal("-0.0001"), (-3).toByte, "x", Array[Byte](9))).asInstanceOf[InternalRow]
    val rec = viaAvro(st, schema, row)
    val amount = rec.get("amount").asInstanceOf[ByteBuffer]
    assert(BigInt(amount.array.slice(amount.position, amount.limit)) == BigInt(-1))
    assert(rec.get("by") == -3)
    assert(rec.get("s").toString == "x")
    assert(rec.get("bin").asInstanceOf[ByteBuffer].array.sameElements(Array[Byte](9)))
    assert(rec.get("absent") == null)
    val nullString = CatalystTypeConverters.createToCatalystConverter(st)(
      Row(null, 1.toByte, null, null)).asInstanceOf[InternalRow]
    assert(viaAvro(st, schema, nullString).get("s") == null)
    val back = AvroFixtures.toRow(st, rec)
    assert(back.getDecimal(0, 20, 4).toJavaBigDecimal == new JBigDecimal("-0.0001"))
    assert(back.getByte(1) == -3)
  }

  test("a null in a non-nullable Avro field fails naming the field") {
    val schema = SchemaBuilder.record("r").fields().name("n").`type`().intType().noDefault().endRecord()
    val st = StructType(Seq(StructField("n", IntegerType)))
    val e = intercept[InvalidRecordException](encoded(st, schema, InternalRow(null)))
    assert(e.getMessage.contains("'n'"))
  }

  test("a field of the row that the Avro record lacks, or a type it cannot take, fails up front") {
    val schema = SchemaBuilder.record("r").fields().name("n").`type`().intType().noDefault().endRecord()
    val missing = intercept[InvalidTableException](
      new AvroRowEncoder(StructType(Seq(StructField("m", IntegerType))), schema))
    assert(missing.getMessage.contains("m"))
    val wrongType = intercept[InvalidTableException](
      new AvroRowEncoder(StructType(Seq(StructField("n", StringType))), schema))
    assert(wrongType.getMessage.contains("n"))
    val unnullable = SchemaBuilder.record("r").fields().name("n").`type`().intType().noDefault()
      .name("k").`type`().intType().noDefault().endRecord()
    intercept[InvalidTableException](new AvroRowEncoder(StructType(Seq(StructField("n", IntegerType))), unnullable))
  }

  test("withMetaFields puts the five meta fields first in Hudi's shape") {
    val schema = SparkToAvro.withMetaFields(StructType(Seq(StructField("ts", LongType))), "trips")
    assert(schema.getFullName == "hoodie.trips.trips_record")
    assert(schema.getFields.asScala.map(_.name) == MetaFields.Names :+ "ts")
    assert(schema.toString.startsWith("""{"type":"record","name":"trips_record","namespace":"hoodie.trips",""" +
        """"fields":[{"name":"_hoodie_commit_time","type":["null","string"],"doc":"","default":null},"""))
    assert(schema.toString.endsWith("""{"name":"ts","type":["null","long"],"default":null}]}"""))
  }
}
