// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import org.apache.avro.generic.GenericRecordBuilder
import org.apache.avro.io.DecoderFactory
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

/** What [[AvroRowDecoder]] adds to the rules it shares with the converters (both checked in AvroRowsEvolutionSuite). */
class AvroRowDecoderSuite extends AnyFunSuite {

  private val older = AvroSchemaConverter.parse(
    """{"type":"record","name":"r","fields":[{"name":"id","type":"int"},
      |{"name":"skipped","type":["null",{"type":"array","items":"string"}]},
      |{"name":"color","type":{"type":"enum","name":"c","symbols":["RED","BLUE"]}}]}""".stripMargin)
  private val newer = AvroSchemaConverter.parse(
    """{"type":"record","name":"r","fields":[{"name":"name","type":"string"},
      |{"name":"gone","type":{"type":"fixed","name":"f","size":3}},{"name":"id","type":"long"}]}""".stripMargin)
  private val target = StructType(Seq(StructField("id", LongType), StructField("name", StringType),
      StructField("color", StringType)))

  private def bytes(schema: org.apache.avro.Schema, values: (String, Any)*): Array[Byte] = {
    val b = new GenericRecordBuilder(schema)
    values.foreach { case (k, v) => b.set(k, v) }
    AvroFixtures.encode(b.build())
  }

  test("one decoder reads datums of several writer schemas, skipping fields the target lacks") {
    val decoder = new AvroRowDecoder(target)
    val a = bytes(older, "id" -> 1, "skipped" -> java.util.List.of("x", "y"),
      "color" -> new org.apache.avro.generic.GenericData.EnumSymbol(older.getField("color").schema, "BLUE"))
    val b = bytes(newer, "name" -> "n",
      "gone" -> new org.apache.avro.generic.GenericData.Fixed(newer.getField("gone").schema, Array[Byte](1, 2, 3)),
      "id" -> 2L)
    for (_ <- 1 to 2) {
      val r1 = decoder.reader(older)(DecoderFactory.get.binaryDecoder(a, null))
      assert(r1.getLong(0) === 1L && r1.isNullAt(1) && r1.getUTF8String(2).toString === "BLUE")
      val r2 = decoder.reader(newer)(DecoderFactory.get.binaryDecoder(b, null))
      assert(r2.getLong(0) === 2L && r2.getUTF8String(1).toString === "n" && r2.isNullAt(2))
    }
  }

  test("rows own their values when one decoder reads datums back to back") {
    val reader = new AvroRowDecoder(target).reader(newer)
    val fixed = new org.apache.avro.generic.GenericData.Fixed(newer.getField("gone").schema, Array[Byte](0, 0, 0))
    val both = bytes(newer, "name" -> "first-value", "gone" -> fixed, "id" -> 1L) ++
      bytes(newer, "name" -> "second", "gone" -> fixed, "id" -> 2L)
    val d = DecoderFactory.get.binaryDecoder(both, null)
    val first = reader(d)
    val second = reader(d)
    assert(first.getUTF8String(1).toString === "first-value" && second.getUTF8String(1).toString === "second")
  }
}
