// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.services

import org.apache.spark.sql.SparkSession

import io.pyhudi.config.WriteConfig
import io.pyhudi.services.clean.{CleanConfig, CleanTransaction, DeleteResult}
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.storage.{SerializableConfiguration, Storage}
import io.pyhudi.table.HoodieTable
import io.pyhudi.transaction.ConcurrencyConfig

/**
 * Runs cleans with the deletes as a Spark job: the plan (file paths only) is made on the driver,
 * executors delete the files and report which are gone.
 */
object Cleaner {

  /**
   * Finishes pending cleans and, unless `planNew` is false, plans and runs a new one. Returns the
   * completed clean instants, oldest first.
   */
  def clean(spark: SparkSession, table: HoodieTable, options: Map[String, String],
      planNew: Boolean = true): Seq[String] = {
    val conf = new SerializableConfiguration(ParquetReaderShim.hadoopConf(spark, options))
    val delete: CleanTransaction.Deleter = paths =>
      if (paths.isEmpty) Nil
      else spark.sparkContext.parallelize(paths, math.min(paths.size, spark.sparkContext.defaultParallelism))
        .mapPartitions { it =>
          val storage = new Storage(conf.value)
          it.map(p => DeleteResult(p, CleanTransaction.delete(storage, p)))
        }.collect().toSeq
    CleanTransaction.clean(table, CleanConfig.from(options), delete, ConcurrencyConfig.from(options), planNew)
  }

  /** After a write or compaction: finish pending cleans, and clean when `hoodie.clean.automatic` is on. */
  def afterCommit(spark: SparkSession, table: HoodieTable, options: Map[String, String]): Seq[String] =
    clean(spark, table, options, planNew = WriteConfig.CleanAutomatic.from(options).get)
}
