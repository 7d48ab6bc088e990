// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.shims

import java.nio.file.Files

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.column.ParquetProperties
import org.apache.parquet.example.data.Group
import org.apache.parquet.hadoop.{ParquetFileReader, ParquetReader}
import org.apache.parquet.hadoop.example.GroupReadSupport
import org.apache.parquet.hadoop.metadata.CompressionCodecName
import org.apache.parquet.hadoop.util.{HadoopInputFile, HadoopOutputFile}
import org.apache.parquet.io.{OutputFile, PositionOutputStream}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection
import org.apache.spark.sql.execution.datasources.parquet.SparkToParquetSchemaConverter
import org.apache.spark.sql.internal.SQLConf.ParquetOutputTimestampType
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

class ColumnParquetWriterSuite extends AnyFunSuite {
  import ColumnParquetWriter.Kind

  private def converter(legacy: Boolean,
      ts: ParquetOutputTimestampType.Value = ParquetOutputTimestampType.TIMESTAMP_MICROS) =
    new SparkToParquetSchemaConverter(legacy, ts, false)

  private val flat = StructType(Seq(
      StructField("b", BooleanType), StructField("i", IntegerType), StructField("l", LongType),
      StructField("f", FloatType), StructField("d", DoubleType), StructField("s", StringType),
      StructField("bin", BinaryType), StructField("date", DateType), StructField("ts", TimestampType),
      StructField("ntz", TimestampNTZType), StructField("d5", DecimalType(5, 2)),
      StructField("d18", DecimalType(18, 4)),
      StructField("d25", DecimalType(25, 3), nullable = false)))

  test("kinds follow the parquet layout Spark chose, and nested or INT96 columns are left to Spark") {
    val legacy = ColumnParquetWriter.kinds(flat, converter(legacy = true).convert(flat)).get.toSeq
    assert(legacy == Seq(Kind.Boolean, Kind.Int, Kind.Long, Kind.Float, Kind.Double, Kind.String, Kind.Binary,
      Kind.Int, Kind.Long, Kind.Long, Kind.DecimalFixedFromLong, Kind.DecimalFixedFromLong, Kind.DecimalFixed))
    val standard = ColumnParquetWriter.kinds(flat, converter(legacy = false).convert(flat)).get.toSeq
    assert(standard.takeRight(3) == Seq(Kind.DecimalInt, Kind.DecimalLong, Kind.DecimalFixed))

    val int96 = converter(legacy = true, ParquetOutputTimestampType.INT96)
    assert(ColumnParquetWriter.kinds(flat, int96.convert(flat)).isEmpty)
    for (nested <- Seq(StructType(Seq(StructField("x", IntegerType))), ArrayType(IntegerType),
        MapType(StringType, IntegerType))) {
      val schema = flat.add("n", nested)
      assert(ColumnParquetWriter.kinds(schema, converter(legacy = true).convert(schema)).isEmpty, nested)
    }
  }

  test("values, nulls and sign-extended decimals round-trip through several row groups; abort removes the file") {
    val schema = flat
    val parquet = converter(legacy = true).convert(schema)
    val kinds = ColumnParquetWriter.kinds(schema, parquet).get
    val props = ParquetProperties.builder().withPageSize(1024).build()
    val dir = Files.createTempDirectory("column-writer")
    val conf = new Configuration()
    try {
      val path = new Path(dir.resolve("f.parquet").toUri)
      def open(p: Path) = new ColumnParquetWriter(HadoopOutputFile.fromPath(p, conf), p, conf, parquet, kinds, props,
        CompressionCodecName.SNAPPY, 16 * 1024, Map("k" -> "v"))
      val project = UnsafeProjection.create(schema)
      val n = 5000
      val writer = open(path)
      for (r <- 0 until n) {
        val sign = if (r % 2 == 0) 1 else -1
        val values: Seq[Any] = Seq(r % 3 == 0, sign * r, sign * r.toLong << 20, r / 4f, sign * r / 8d,
          UTF8String.fromString(s"s$r"), Array[Byte](r.toByte), r, sign * r * 1000L, r * 7L,
          Decimal(sign * r % 1000, 5, 2), Decimal(BigDecimal(sign * r.toLong * 1000003L, 4), 18, 4),
          Decimal(BigDecimal(BigInt(sign) * (BigInt(10).pow(24) - r), 3), 25, 3))
        // every nullable column null in every eleventh row
        val row = InternalRow.fromSeq(values.zipWithIndex.map { case (v, c) =>
          if (r % 11 == 5 && schema(c).nullable) null else v
        })
        writer.write(project(row))
      }
      assert(writer.close(Map("extra" -> "x")) > 0)

      val footer = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf))
      try {
        assert(footer.getRowGroups.size > 1, "a 16 KiB row group size closes several row groups")
        assert(footer.getRowGroups.asScala.map(_.getRowCount).sum == n)
        val kv = footer.getFooter.getFileMetaData.getKeyValueMetaData.asScala
        assert(kv.get("k").contains("v") && kv.get("extra").contains("x"))
      } finally footer.close()

      val reader = ParquetReader.builder(new GroupReadSupport(), path).withConf(conf).build()
      try {
        for (r <- 0 until n) {
          val g: Group = reader.read()
          val sign = if (r % 2 == 0) 1 else -1
          if (r % 11 == 5) assert(g.getFieldRepetitionCount("i") == 0)
          else {
            assert(g.getInteger("i", 0) == sign * r)
            assert(g.getLong("l", 0) == (sign * r.toLong << 20))
            assert(g.getString("s", 0) == s"s$r")
            assert(g.getLong("ts", 0) == sign * r * 1000L)
            assert(BigInt(g.getBinary("d5", 0).getBytes) == BigInt(sign * r % 1000))
            assert(BigInt(g.getBinary("d18", 0).getBytes) == BigInt(sign * r.toLong * 1000003L))
          }
          assert(BigInt(g.getBinary("d25", 0).getBytes) == BigInt(sign) * (BigInt(10).pow(24) - r))
          assert(g.getBinary("d25", 0).length == 11)
        }
        assert(reader.read() == null)
      } finally reader.close()

      val aborted = new Path(dir.resolve("aborted.parquet").toUri)
      val w = open(aborted)
      w.write(project(InternalRow.fromSeq(Seq.fill(schema.length)(null).updated(12, Decimal(1, 25, 3)))))
      w.abort()
      assert(!Files.exists(dir.resolve("aborted.parquet")))
    } finally {
      Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.delete(p))
    }
  }

  test("a writer that fails to open removes only the file it created") {
    val schema = StructType(Seq(StructField("i", IntegerType)))
    val parquet = converter(legacy = false).convert(schema)
    val kinds = ColumnParquetWriter.kinds(schema, parquet).get
    val props = ParquetProperties.builder().build()
    val dir = Files.createTempDirectory("column-writer-open")
    val conf = new Configuration()
    def open(file: OutputFile, p: Path) =
      new ColumnParquetWriter(file, p, conf, parquet, kinds, props, CompressionCodecName.SNAPPY, 1 << 20, Map.empty)
    try {
      // an existing file: CREATE refuses it, and it stays as it was
      val existing = dir.resolve("existing.parquet")
      Files.write(existing, Array[Byte](1, 2, 3))
      val p = new Path(existing.toUri)
      intercept[java.io.IOException](open(HadoopOutputFile.fromPath(p, conf), p))
      assert(Files.readAllBytes(existing).toSeq == Seq[Byte](1, 2, 3))

      // a file created and then unwritable (the magic bytes fail): removed
      val broken = new Path(dir.resolve("broken.parquet").toUri)
      val real = HadoopOutputFile.fromPath(broken, conf)
      val failing = new OutputFile {
        private def wrap(out: PositionOutputStream): PositionOutputStream = new PositionOutputStream {
          override def getPos: Long = out.getPos
          override def write(b: Int): Unit = throw new java.io.IOException("disk full")
          override def write(b: Array[Byte], off: Int, len: Int): Unit = throw new java.io.IOException("disk full")
          override def close(): Unit = out.close()
        }
        override def create(hint: Long): PositionOutputStream = wrap(real.create(hint))
        override def createOrOverwrite(hint: Long): PositionOutputStream = wrap(real.createOrOverwrite(hint))
        override def supportsBlockSize(): Boolean = false
        override def defaultBlockSize(): Long = 0L
      }
      val e = intercept[java.io.IOException](open(failing, broken))
      assert(e.getMessage.contains("disk full"))
      assert(!Files.exists(dir.resolve("broken.parquet")))
    } finally {
      Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.delete(p))
    }
  }

  test("parquet options in the Hadoop configuration beyond Spark's own send the files to Spark's writer") {
    val conf = new Configuration(false)
    Seq("parquet.write.support.class" -> "x", "parquet.summary.metadata.level" -> "NONE",
      "parquet.compression" -> "SNAPPY", "parquet.writer.version" -> "PARQUET_1_0").foreach { case (k, v) =>
      conf.set(k, v)
    }
    assert(!ParquetWriterShim.ownParquetSettings(conf))
    conf.set("parquet.writer.version", "PARQUET_2_0")
    assert(ParquetWriterShim.ownParquetSettings(conf))
    conf.set("parquet.writer.version", "PARQUET_1_0")
    conf.set("parquet.bloom.filter.enabled#s", "true")
    assert(ParquetWriterShim.ownParquetSettings(conf))
  }
}
