// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.example.ExampleParquetWriter
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.MessageTypeParser
import org.apache.spark.sql.types.{IntegerType, LongType, StringType, StructField, StructType}
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.testutil.TempDirs

/** Partition values proven by real parquet footers written by parquet-mr. */
class PartitionValuesSuite extends AnyFunSuite {

  private val conf = new Configuration()
  private val dir = TempDirs.create("partition-values")
  private val schema = MessageTypeParser.parseMessageType(
    "message t { required int64 id; optional binary day (STRING); optional int32 hour; optional int64 shard; " +
      "optional binary raw; optional int32 tiny (INTEGER(8,false)); }")

  private val columns = StructType(Seq(StructField("day", StringType), StructField("hour", IntegerType),
      StructField("shard", LongType)))

  private var files = 0

  /** A parquet file of `rows` (day, hour, shard); small row groups give several when `groups`. */
  private def write(rows: Seq[(String, Integer, java.lang.Long)], groups: Boolean = false): String = {
    files += 1
    val path = dir.resolve(s"f$files.parquet").toString
    val builder = ExampleParquetWriter.builder(new Path(path)).withConf(conf).withType(schema)
    val writer = (if (groups) builder.withRowGroupSize(1024L).withPageSize(256).withMinRowCountForPageSizeCheck(1)
                    .withMaxRowCountForPageSizeCheck(1)
                  else builder).build()
    val factory = new SimpleGroupFactory(schema)
    try rows.zipWithIndex.foreach { case ((day, hour, shard), i) =>
        val g = factory.newGroup().append("id", i.toLong).append("raw", "x").append("tiny", 1)
        if (day != null) g.append("day", day)
        if (hour != null) g.append("hour", hour.intValue)
        if (shard != null) g.append("shard", shard.longValue)
        writer.write(g)
      }
    finally writer.close()
    path
  }

  private def footer(path: String): ParquetMetadata = {
    val reader = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(path), conf))
    try reader.getFooter
    finally reader.close()
  }

  private def same(n: Int, day: String, hour: Integer = 7, shard: java.lang.Long = 3L) = Seq.fill(n)((day, hour, shard))

  test("one value and no nulls in every row group: the values, as Spark holds them") {
    val path = write(same(3000, "2026-01-02"), groups = true)
    assert(footer(path).getBlocks.size > 1, "the file should have several row groups")
    val row = PartitionValues.read(conf, path, columns).get
    assert(row.getUTF8String(0) == UTF8String.fromString("2026-01-02"))
    assert(row.getInt(1) == 7)
    assert(row.getLong(2) == 3L)
  }

  test("the empty string is a value like any other") {
    assert(PartitionValues.read(conf, write(same(10, "")), columns).map(_.getUTF8String(0).toString).contains(""))
  }

  test("a null, a second value or a second row group's different value in any column: none") {
    assert(PartitionValues.read(conf, write(same(10, "a") :+ ((null, 7, 3L))), columns).isEmpty)
    assert(PartitionValues.read(conf, write(same(10, "a") :+ (("b", 7, 3L))), columns).isEmpty)
    assert(PartitionValues.read(conf, write(same(10, "a") :+ (("a", 8, 3L))), columns).isEmpty)
    assert(PartitionValues.read(conf, write(same(10, "a") :+ (("a", 7, null))), columns).isEmpty)
    val a = footer(write(same(10, "a")))
    val b = footer(write(same(10, "b")))
    val both = new ParquetMetadata(a.getFileMetaData, (a.getBlocks.asScala ++ b.getBlocks.asScala).asJava)
    assert(PartitionValues.of(a, columns).isDefined)
    assert(PartitionValues.of(both, columns).isEmpty)
  }

  test("a missing column, another type or an unreadable file: none") {
    val path = write(same(10, "a"))
    assert(PartitionValues.read(conf, path, StructType(Seq(StructField("absent", StringType)))).isEmpty)
    assert(PartitionValues.read(conf, path, StructType(Seq(StructField("hour", LongType)))).isEmpty)
    assert(PartitionValues.read(conf, path, StructType(Seq(StructField("raw", StringType)))).isEmpty,
      "binary without the string annotation")
    assert(PartitionValues.read(conf, path, StructType(Seq(StructField("tiny", IntegerType)))).isEmpty,
      "unsigned integers")
    assert(PartitionValues.read(conf, dir.resolve("missing.parquet").toString, columns).isEmpty)
    val corrupt = dir.resolve("corrupt.parquet")
    java.nio.file.Files.write(corrupt, "not parquet".getBytes)
    assert(PartitionValues.read(conf, corrupt.toString, columns).isEmpty)
  }

  test("only string, int and long columns qualify") {
    assert(Seq(StringType, IntegerType, LongType).forall(PartitionValues.supports))
    assert(!PartitionValues.supports(org.apache.spark.sql.types.DateType))
    assert(!PartitionValues.supports(org.apache.spark.sql.types.DecimalType(10, 2)))
  }
}
