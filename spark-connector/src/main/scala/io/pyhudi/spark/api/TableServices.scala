package io.pyhudi.spark.api

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.SparkSession

import io.pyhudi.spark.services.Compactor
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.table.HoodieTable

/** Table services callable from Scala and, through py4j, from the `pyhudi` Python package. */
object TableServices {

  /**
   * Compacts a merge-on-read table now (pending compactions first); returns the new compaction's
   * instant, else the last pending one executed, or null when there was nothing to compact.
   */
  def compact(spark: SparkSession, path: String, options: java.util.Map[String, String]): String = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    val table = HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
    Compactor.compact(spark, table, opts).orNull
  }

  /** Writes a compaction plan without executing it; returns its instant or null. */
  def scheduleCompaction(spark: SparkSession, path: String, options: java.util.Map[String, String]): String = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    val table = HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
    Compactor.compact(spark, table, opts, scheduleOnly = true).orNull
  }

  /** Executes every pending compaction; returns their instants. */
  def runPendingCompactions(spark: SparkSession, path: String, options: java.util.Map[String, String]): java.util.List[String] = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    val table = HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
    Compactor.runPending(spark, table, opts).asJava
  }
}
