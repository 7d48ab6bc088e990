// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.api

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.types._

import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.spark.source.PyhudiSource
import io.pyhudi.table.{FileGroupSummary, HoodieTable, TableHistory}

/**
 * What a table is made of, as small DataFrames built on the driver from timeline and listing
 * metadata (never from data files): the history of its instants and its file groups.
 */
object TableInfo {

  /** `history()`'s `index_lookup`: io.pyhudi.index.IndexLookup's figures (null: no lookup). */
  val IndexLookupSchema: StructType = StructType(
    StructField("index_type", StringType, nullable = false) +:
      Seq("lookup_ms", "files_indexed", "files_in_range", "files_probed", "files_matched", "keys_read",
        "bloom_checks", "bloom_positives", "records_found").map(StructField(_, LongType, nullable = false)))

  val HistorySchema: StructType = StructType(Seq(
      StructField("instant", StringType, nullable = false),
      StructField("action", StringType, nullable = false),
      StructField("state", StringType, nullable = false),
      StructField("operation", StringType),
      StructField("rows_inserted", LongType, nullable = false),
      StructField("rows_updated", LongType, nullable = false),
      StructField("rows_deleted", LongType, nullable = false),
      StructField("files_written", LongType, nullable = false),
      StructField("bytes_written", LongType, nullable = false),
      StructField("started_at", TimestampType),
      StructField("completed_at", TimestampType),
      StructField("duration_ms", LongType),
      StructField("index_lookup", IndexLookupSchema)))

  val FileGroupsSchema: StructType = StructType(Seq(
      StructField("partition", StringType, nullable = false),
      StructField("file_id", StringType, nullable = false),
      StructField("slices", IntegerType, nullable = false),
      StructField("latest_instant", StringType, nullable = false),
      StructField("base_file", StringType),
      StructField("base_size", LongType, nullable = false),
      StructField("log_files", IntegerType, nullable = false),
      StructField("log_size", LongType, nullable = false),
      StructField("total_size", LongType, nullable = false)))

  /** One row per instant of the active timeline, oldest first. */
  def history(spark: SparkSession, path: String, options: java.util.Map[String, String]): DataFrame = {
    val rows = TableHistory.entries(open(spark, path, options)).map { e =>
      Row(e.instant, e.action, e.state, e.operation.orNull, e.rowsInserted, e.rowsUpdated, e.rowsDeleted,
        e.filesWritten, e.bytesWritten, e.startedAt.map(new java.sql.Timestamp(_)).orNull,
        e.completedAt.map(new java.sql.Timestamp(_)).orNull, e.durationMs.map(Long.box).orNull,
        e.indexLookup.map(l =>
          Row(l.indexType.name, l.millis, l.filesIndexed, l.filesInRange, l.filesProbed,
            l.filesMatched, l.keysRead, l.bloomChecks, l.bloomPositives, l.recordsFound)).orNull)
    }
    spark.createDataFrame(rows.asJava, HistorySchema)
  }

  /** One row per file group a snapshot query reads, by partition and file id. */
  def fileGroups(spark: SparkSession, path: String, options: java.util.Map[String, String]): DataFrame = {
    val rows = FileGroupSummary.of(open(spark, path, options)).map { g =>
      Row(g.partition, g.fileId, g.slices, g.latestInstant, g.baseFile.orNull, g.baseSize, g.logFiles,
        g.logSize, g.totalSize)
    }
    spark.createDataFrame(rows.asJava, FileGroupsSchema)
  }

  /** The table's `hoodie.properties` (opening validates the table: a missing path fails here). */
  def properties(
      spark: SparkSession, path: String, options: java.util.Map[String, String]): java.util.Map[String, String] = {
    val table = open(spark, path, options)
    HoodieTable.readProperties(table.storage, table.basePath).asJava
  }

  /** The latest completed commit, deltacommit or replacecommit, or null for a table without one. */
  def latestInstant(spark: SparkSession, path: String, options: java.util.Map[String, String]): String =
    open(spark, path, options).timeline.latestCompletedWrite.map(_.timestamp).orNull

  private def open(spark: SparkSession, path: String, options: java.util.Map[String, String]): HoodieTable = {
    val opts = PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
  }
}
