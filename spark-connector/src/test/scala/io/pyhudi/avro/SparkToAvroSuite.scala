// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import java.io.File
import java.nio.file.Files

import org.apache.avro.Schema
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.testutil.Corpus
import io.pyhudi.timeline.CommitMetadata

class SparkToAvroSuite extends AnyFunSuite {

  private def commitSchema(table: String): String = {
    val hoodie = new File(Corpus.extract(table), ".hoodie")
    val commit = hoodie.listFiles().filter(_.getName.endsWith(".commit")).maxBy(_.getName)
    CommitMetadata.parse(Files.readAllBytes(commit.toPath)).schema.get
  }

  test("reproduces the writer schema Apache Hudi recorded, names and namespaces included") {
    for (table <- Seq("cow/v6_nonpartitioned", "cow/v6_complexkeygen_hivestyle")) {
      val original = new Schema.Parser().parse(commitSchema(table))
      val name = table.split('/').last
      val rebuilt = SparkToAvro.tableSchema(AvroSchemaConverter.toStructType(original), name)
      assert(rebuilt == original, s"$table:\n$rebuilt\n!=\n$original")
    }
  }

  test("bytes and shorts become ints; decimals use the smallest fixed size") {
    val s = SparkToAvro.tableSchema(StructType(Seq(StructField("b", ByteType), StructField("s", ShortType),
          StructField("d", DecimalType(38, 10)), StructField("n", TimestampNTZType))), "t")
    val back = AvroSchemaConverter.toStructType(s)
    assert(back.map(_.dataType) == Seq(IntegerType, IntegerType, DecimalType(38, 10), TimestampNTZType))
    assert(s.getField("d").schema().getTypes.get(1).getFixedSize == 16)
  }

  test("unsupported types fail naming the column") {
    val e = intercept[Exception](SparkToAvro.tableSchema(StructType(Seq(
            StructField("m", MapType(IntegerType, StringType)))), "t"))
    assert(e.getMessage.contains("m"))
  }
}
