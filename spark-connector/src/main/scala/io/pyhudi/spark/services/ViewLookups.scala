// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.services

import org.apache.spark.sql.SparkSession

import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.storage.{SerializableConfiguration, Storage}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timelineservice.FallbackTableView

/**
 * Latest-base-file lookups from Spark tasks, through the driver's timeline service or with
 * each task building its own view: the workload of the timeline-service benchmark and tests.
 */
object ViewLookups {

  /**
   * Looks up the latest base file of every (partition, file id) in `tasks` tasks; returns the
   * answers (the base file's name, or "" when there is none), in input order.
   */
  def latestBaseFiles(spark: SparkSession, path: String, lookups: java.util.List[java.util.List[String]],
      tasks: Int, useService: Boolean): java.util.List[String] = {
    val basePath = new Storage(ParquetReaderShim.hadoopConf(spark, Map.empty)).qualify(path).stripSuffix("/")
    val address = if (!useService) None else EmbeddedTimelineService.forWrite(spark, basePath, Map.empty)
    latestBaseFilesVia(spark, basePath, lookups, tasks, address.orNull)
  }

  /** As [[latestBaseFiles]], through the service at `address` (null: none). */
  def latestBaseFilesVia(spark: SparkSession, path: String, lookups: java.util.List[java.util.List[String]],
      tasks: Int, address: String): java.util.List[String] = {
    val hadoopConf = ParquetReaderShim.hadoopConf(spark, Map.empty)
    val storage = new Storage(hadoopConf)
    val basePath = storage.qualify(path).stripSuffix("/")
    val latest = HoodieTable.open(basePath, storage).timeline.latestCompletedWrite.map(_.timestamp)
    val service = Option(address)
    val conf = new SerializableConfiguration(hadoopConf)
    val asks = lookups.toArray.toSeq.map(_.asInstanceOf[java.util.List[String]]).zipWithIndex.map { case (l, i) =>
      (i, l.get(0), l.get(1))
    }
    val answers = spark.sparkContext.parallelize(asks, tasks).mapPartitions { it =>
      val view = FallbackTableView(new Storage(conf.value), basePath, service, latest)
      it.map { case (i, partition, fileId) => i -> view.latestBaseFile(partition, fileId).map(_.name).getOrElse("") }
    }.collect().sortBy(_._1).map(_._2)
    java.util.Arrays.asList(answers: _*)
  }

  /** Answers tasks got from a service and fallbacks to local views, in this JVM (local mode: tests). */
  def remoteAnswers: Long = FallbackTableView.remoteAnswers.get()
  def fallbacks: Long = FallbackTableView.fallbacks.get()
}
