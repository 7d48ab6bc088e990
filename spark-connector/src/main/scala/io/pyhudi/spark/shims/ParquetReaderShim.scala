// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.shims

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.spark.paths.SparkPath
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.{FileFormat, PartitionedFile}
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.StructType

/**
 * The one place that calls Spark's internal (non-connector) API: Spark's own vectorized parquet
 * reader. Its signatures are the same in Spark 4.0 through 4.3; if a future minor breaks them,
 * only this file changes.
 */
object ParquetReaderShim {

  type FileReader = PartitionedFile => Iterator[InternalRow]

  /** A Hadoop configuration with the session's settings and the scan's options applied. */
  def hadoopConf(spark: SparkSession, options: Map[String, String]): Configuration =
    spark.asInstanceOf[org.apache.spark.sql.classic.SparkSession]
      .sessionState.newHadoopConfWithOptions(options)

  /** The session's `spark.sql.files.*` split settings, as Spark's own file scans read them. */
  final case class FilesConf(maxPartitionBytes: Long, openCostInBytes: Long, minPartitions: Int, parallelism: Int)

  def filesConf(spark: SparkSession): FilesConf = {
    val session = spark.asInstanceOf[org.apache.spark.sql.classic.SparkSession]
    val conf = session.sessionState.conf
    val parallelism = conf.getConf(org.apache.spark.sql.internal.SQLConf.LEAF_NODE_DEFAULT_PARALLELISM)
      .getOrElse(session.sparkContext.defaultParallelism)
    FilesConf(conf.filesMaxPartitionBytes, conf.filesOpenCostInBytes, conf.filesMinPartitionNum.getOrElse(parallelism),
      parallelism)
  }

  /** Rows per columnar batch of Spark's vectorized parquet reader. */
  def batchSize(spark: SparkSession): Int =
    spark.asInstanceOf[org.apache.spark.sql.classic.SparkSession].sessionState.conf.parquetVectorizedReaderBatchSize

  def supportBatch(spark: SparkSession, schema: StructType): Boolean =
    new ParquetFileFormat().supportBatch(spark, schema)

  /**
   * Builds, on the driver, a serializable function that reads `requiredSchema` from a parquet
   * file, pushing `filters` into row-group and page skipping. With `returningBatch` the
   * iterator yields `ColumnarBatch`es (typed as rows, as Spark's file scans do). Columns of
   * `constantSchema` are not read: they follow the required ones, holding the values given as
   * [[partitionedFile]]'s `constants`, as the partition columns of Spark's own file scans do.
   */
  def buildReader(spark: SparkSession, dataSchema: StructType, requiredSchema: StructType,
      filters: Seq[Filter], returningBatch: Boolean, conf: Configuration,
      constantSchema: StructType = new StructType()): FileReader =
    // Spark records the requested schema in the conf it is given and broadcasts that object:
    // each reader needs a conf of its own, or a later reader changes what an earlier one reads.
    new ParquetFileFormat().buildReaderWithPartitionValues(
      spark, dataSchema, constantSchema, requiredSchema, filters,
      Map(FileFormat.OPTION_RETURNING_BATCH -> returningBatch.toString), new Configuration(conf))

  def partitionedFile(path: String, start: Long, length: Long, fileSize: Long,
      constants: InternalRow = InternalRow.empty): PartitionedFile =
    PartitionedFile(constants, SparkPath.fromPath(new Path(path)), start, length,
      Array.empty[String], 0L, fileSize, Map.empty)

  /**
   * Rows of a parquet file held in memory (a parquet log block), read through `reader` via a
   * local temporary file. Rows are copied, so they outlive the reader.
   */
  def readBytes(reader: FileReader, bytes: Array[Byte]): Iterator[InternalRow] = {
    val file = java.io.File.createTempFile("pyhudi-log-block", ".parquet")
    try {
      java.nio.file.Files.write(file.toPath, bytes)
      val it = reader(partitionedFile(file.toURI.toString, 0L, bytes.length, bytes.length))
      val rows = scala.collection.mutable.ArrayBuffer.empty[InternalRow]
      try it.foreach(r => rows += r.copy())
      finally it match { case c: AutoCloseable => c.close(); case _ => () }
      rows.iterator
    } finally file.delete()
  }
}
