// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.shims

import java.util.Locale

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, LocalFileSystem, Path}
import org.apache.hadoop.mapreduce.Job
import org.apache.parquet.column.ParquetProperties
import org.apache.parquet.hadoop.{ParquetFileWriter, ParquetWriter}
import org.apache.parquet.hadoop.api.WriteSupport
import org.apache.parquet.hadoop.api.WriteSupport.FinalizedWriteContext
import org.apache.parquet.hadoop.metadata.CompressionCodecName
import org.apache.parquet.hadoop.util.HadoopStreams
import org.apache.parquet.io.{OutputFile, PositionOutputStream}
import org.apache.parquet.schema.{MessageType, MessageTypeParser}
import org.apache.spark.SPARK_VERSION_SHORT
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.parquet.{
  ParquetFileFormat,
  ParquetReadSupport,
  ParquetWriteSupport,
  SparkToParquetSchemaConverter
}
import org.apache.spark.sql.types.StructType

import io.pyhudi.schema.MetaFields
import io.pyhudi.storage.SerializableConfiguration
import io.pyhudi.write.handle.{BaseFileWriter, BaseFileWriterFactory}

/**
 * Writes base files as Spark's `df.write.parquet` would, adding Hudi's footer entries (bloom
 * filter, key range) when the file is closed: a table of top-level primitive columns through
 * [[ColumnParquetWriter]], any other through Spark's own row-to-parquet converter. Internal Spark
 * API, kept to this file like [[ParquetReaderShim]].
 */
object ParquetWriterShim {

  val Codecs: Seq[String] = Seq("gzip", "snappy", "zstd", "lz4", "uncompressed")

  def factory(spark: SparkSession, schema: StructType, conf: Configuration, codec: io.pyhudi.write.CompressionCodec,
      blockSize: Long, pageSize: Int): BaseFileWriterFactory = {
    // Spark's write support reads its settings from the Hadoop conf, and which ones it requires
    // differs between Spark minors: let Spark's own parquet source fill them in, as it does for
    // df.write.parquet, then pin what Hudi readers need.
    val job = Job.getInstance(conf)
    new ParquetFileFormat().prepareWrite(spark, job, Map.empty, schema)
    val c = job.getConfiguration
    ParquetWriteSupport.setSchema(schema, c)
    // Decimals go into FIXED_LEN_BYTE_ARRAY, as Apache Hudi's Avro writers store them: Hudi's
    // merge path reads an INT32/INT64 decimal as its unscaled integer (12.12 came back as
    // 1212.00 after Hudi 1.2 rewrote a pyhudi file). Spark writes fixed decimals only in its
    // legacy layout, so that layout is used whenever a decimal would otherwise be an integer,
    // which is what Hudi's own row writer does; otherwise the standard layout.
    c.set("spark.sql.parquet.writeLegacyFormat", hasIntegerDecimal(schema).toString)
    c.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
    c.set("spark.sql.parquet.fieldId.write.enabled", "false")
    c.set("spark.sql.parquet.datetimeRebaseModeInWrite", "CORRECTED")
    c.set("spark.sql.parquet.int96RebaseModeInWrite", "CORRECTED")
    val plain = UniqueMetaFields.filter(schema.fieldNames.contains)
    val noStatistics = NoStatisticsFields.filter(schema.fieldNames.contains)
    val parquetSchema = new SparkToParquetSchemaConverter(c).convert(schema)
    ColumnParquetWriter.kinds(schema, parquetSchema) match {
      case Some(kinds) if !c.getBoolean(RecordConsumerKey, false) && !ownParquetSettings(c) =>
        // Spark's write support puts these in every footer; readers recover Spark's types by them.
        val metadata = Map(SparkVersionKey -> SPARK_VERSION_SHORT, ParquetReadSupport.SPARK_METADATA_KEY -> schema.json)
        new ColumnFactory(new SerializableConfiguration(c), codec.name, blockSize, pageSize, plain, noStatistics,
          parquetSchema.toString, kinds, metadata)
      case _ => new Factory(new SerializableConfiguration(c), codec.name, blockSize, pageSize, plain, noStatistics)
    }
  }

  /**
   * Hadoop setting that sends every base file through Spark's write support, as before
   * [[ColumnParquetWriter]]; for comparing the two.
   */
  val RecordConsumerKey = "pyhudi.parquet.write.record-consumer"

  /**
   * True when the Hadoop configuration sets parquet options beyond the ones Spark's own parquet
   * source sets: [[ColumnParquetWriter]] builds its properties from the table's options alone, so
   * such files (bloom filters, encryption, other page limits ...) stay with Spark's writer.
   */
  private[shims] def ownParquetSettings(c: Configuration): Boolean =
    c.iterator().asScala.exists(e => e.getKey.startsWith("parquet.") && !SparkParquetKeys(e.getKey)) ||
      Option(c.get("parquet.writer.version")).exists(_ != "PARQUET_1_0")

  private val SparkParquetKeys =
    Set("parquet.write.support.class", "parquet.summary.metadata.level", "parquet.compression",
      "parquet.writer.version")

  // Spark's name for the footer entry of the writing Spark's version (private to Spark's sql package).
  private val SparkVersionKey = "org.apache.spark.version"

  /**
   * Meta columns with a distinct value in every row. A dictionary never pays for them: parquet
   * tries one until it outgrows its page and falls back to plain, and the tries (hashing and
   * comparing every key into the dictionary) cost more than writing the column; readers then
   * decode the dictionary-encoded part of the record key column value by value.
   */
  private val UniqueMetaFields = Seq(MetaFields.CommitSeqNo, MetaFields.RecordKey)

  // Min/max statistics compare every value with both bounds, whole when equal: a few percent of
  // a load for the unique `_hoodie_commit_seqno`, and again for `_hoodie_file_name`, the longest
  // value of every row. No reader filters or skips by either, and Apache Hudi's column stats
  // index never covers them (it always indexes only the commit time, record key and partition
  // path among the meta columns), so those three keep their statistics.
  private val NoStatisticsFields = Seq(MetaFields.CommitSeqNo, MetaFields.FileName)

  /** True when Spark's standard layout would store some decimal (at any depth) as an integer. */
  private[shims] def hasIntegerDecimal(t: org.apache.spark.sql.types.DataType): Boolean = {
    import org.apache.spark.sql.types._
    t match {
      case d: DecimalType => d.precision <= Decimal.MAX_LONG_DIGITS
      case s: StructType => s.fields.exists(f => hasIntegerDecimal(f.dataType))
      case a: ArrayType => hasIntegerDecimal(a.elementType)
      case m: MapType => hasIntegerDecimal(m.keyType) || hasIntegerDecimal(m.valueType)
      case _ => false
    }
  }

  private final class Factory(conf: SerializableConfiguration, codec: String, blockSize: Long,
      pageSize: Int, plainColumns: Seq[String], noStatisticsColumns: Seq[String]) extends BaseFileWriterFactory {
    override def open(path: String): BaseFileWriter = {
      val support = new FooterWriteSupport
      val file = new RawOutputFile(new Path(path), conf.value)
      val builder = new Builder(file, support)
        .withConf(conf.value)
        .withWriteMode(ParquetFileWriter.Mode.CREATE)
        .withCompressionCodec(CompressionCodecName.fromConf(codec.toUpperCase(Locale.ROOT)))
        .withRowGroupSize(blockSize)
        .withPageSize(pageSize)
      val plain = plainColumns.foldLeft(builder)((b, c) => b.withDictionaryEncoding(c, false))
      val writer = noStatisticsColumns.foldLeft(plain)((b, c) => b.withStatisticsEnabled(c, false)).build()
      new Writer(writer, support, path, conf)
    }
  }

  /** Files of top-level primitive columns, written by [[ColumnParquetWriter]]. */
  private final class ColumnFactory(conf: SerializableConfiguration, codec: String, blockSize: Long, pageSize: Int,
      plainColumns: Seq[String], noStatisticsColumns: Seq[String], parquetSchema: String,
      kinds: Array[ColumnParquetWriter.Kind], metadata: Map[String, String]) extends BaseFileWriterFactory {
    @transient private lazy val schema: MessageType = MessageTypeParser.parseMessageType(parquetSchema)
    // The same properties as the builder of ParquetWriter sets in `Factory.open`.
    @transient private lazy val props: ParquetProperties = {
      val withPage = ParquetProperties.builder().withPageSize(pageSize)
      val plain = plainColumns.foldLeft(withPage)((b, c) => b.withDictionaryEncoding(c, false))
      noStatisticsColumns.foldLeft(plain)((b, c) => b.withStatisticsEnabled(c, false)).build()
    }
    override def open(path: String): BaseFileWriter = {
      val p = new Path(path)
      new ColumnParquetWriter(new RawOutputFile(p, conf.value), p, conf.value, schema, kinds, props,
        CompressionCodecName.fromConf(codec.toUpperCase(Locale.ROOT)), blockSize, metadata)
    }
  }

  /**
   * A new file on the table's file system; local paths bypass Hadoop's checksum layer, so no
   * `.crc` side files appear next to base files (Apache Hudi's tables have none).
   */
  private final class RawOutputFile(path: Path, conf: Configuration) extends OutputFile {
    private def fs: FileSystem = path.getFileSystem(conf) match {
      case local: LocalFileSystem => local.getRaw
      case other => other
    }
    override def create(blockSizeHint: Long): PositionOutputStream = HadoopStreams.wrap(fs.create(path, false))
    override def createOrOverwrite(blockSizeHint: Long): PositionOutputStream =
      HadoopStreams.wrap(fs.create(path, true))
    override def supportsBlockSize(): Boolean = false
    override def defaultBlockSize(): Long = 0L
    override def getPath: String = path.toString
  }

  /** Spark's write support with extra key-value metadata decided at close time. */
  private final class FooterWriteSupport extends ParquetWriteSupport {
    @volatile var footer: Map[String, String] = Map.empty
    override def finalizeWrite(): FinalizedWriteContext = new FinalizedWriteContext(footer.asJava)
  }

  private final class Builder(file: OutputFile, support: FooterWriteSupport)
      extends ParquetWriter.Builder[InternalRow, Builder](file) {
    override def self(): Builder = this
    override def getWriteSupport(conf: Configuration): WriteSupport[InternalRow] = support
  }

  private final class Writer(writer: ParquetWriter[InternalRow], support: FooterWriteSupport,
      path: String, conf: SerializableConfiguration) extends BaseFileWriter {
    override def write(row: InternalRow): Unit = writer.write(row)
    override def dataSize: Long = writer.getDataSize
    override def close(footer: Map[String, String]): Long = {
      support.footer = footer
      writer.close()
      val p = new Path(path)
      p.getFileSystem(conf.value).getFileStatus(p).getLen
    }
    override def abort(): Unit = {
      try writer.close()
      catch { case _: Exception => () }
      val p = new Path(path)
      try p.getFileSystem(conf.value).delete(p, false)
      catch { case _: Exception => () }
    }
  }
}
