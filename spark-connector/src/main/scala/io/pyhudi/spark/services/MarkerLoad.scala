// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.services

import java.util.UUID

import org.apache.spark.sql.SparkSession

import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.storage.{SerializableConfiguration, Storage}
import io.pyhudi.timelineservice.TimelineServerMarkers
import io.pyhudi.write.commit.{IOType, Markers}

/** Marker creation and deletion at scale from Spark tasks, direct or through the timeline service (benchmark). */
object MarkerLoad {

  /**
   * Creates `n` markers for instant `instant` of the table at `path` from `tasks` tasks, then
   * deletes the marker folder. Returns (create ms, delete ms, files in the folder before deleting).
   */
  def run(spark: SparkSession, path: String, instant: String, n: Int, tasks: Int, useService: Boolean): Array[Long] = {
    val hadoopConf = ParquetReaderShim.hadoopConf(spark, Map.empty)
    val storage = new Storage(hadoopConf)
    val basePath = storage.qualify(path).stripSuffix("/")
    val address = if (useService) EmbeddedTimelineService.forWrite(spark, basePath, Map.empty) else None
    val conf = new SerializableConfiguration(hadoopConf)
    val started = System.nanoTime()
    spark.sparkContext.parallelize(0 until n, tasks).foreachPartition { it =>
      val markers = TimelineServerMarkers.writer(new Storage(conf.value), basePath, instant, address)
      it.foreach(i =>
        markers.create(s"p${i % 100}", s"${UUID.randomUUID()}-0_0-1-${i}_$instant.parquet", IOType.Create))
    }
    val created = System.nanoTime()
    val folder = new Markers(storage, basePath, instant).folder
    val files = storage.listFilesRecursively(folder).size.toLong
    storage.delete(folder, recursive = true)
    address.foreach(_ => EmbeddedTimelineService.instantEnded(folder))
    val deleted = System.nanoTime()
    Array((created - started) / 1000000L, (deleted - created) / 1000000L, files)
  }
}
