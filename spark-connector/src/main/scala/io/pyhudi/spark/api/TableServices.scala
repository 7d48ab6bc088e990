// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.api

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.SparkSession

import io.pyhudi.services.restore.{InstantRollback, Restore}
import io.pyhudi.services.savepoint.{Savepoint, Savepoints}
import io.pyhudi.spark.services.{Cleaner, Clusterer, Compactor, TimelineArchiver}
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.table.HoodieTable
import io.pyhudi.transaction.ConcurrencyConfig
import io.pyhudi.write.commit.WriteTransaction

/** Table services callable from Scala and, through py4j, from the `pyhudi` Python package. */
object TableServices {

  /**
   * Compacts a merge-on-read table now (pending compactions first); returns the new compaction's
   * instant, else the last pending one executed, or null when there was nothing to compact.
   */
  def compact(spark: SparkSession, path: String, options: java.util.Map[String, String]): String = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    val table = HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
    val instant = Compactor.compact(spark, table, opts).orNull
    if (instant != null) {
      Cleaner.afterCommit(spark, table.reload(), opts)
      TimelineArchiver.afterCommit(table.reload(), opts)
    }
    instant
  }

  /**
   * Cleans the table now (docs/clean.md): finishes cleans left pending, then deletes the file
   * slices the clean policy no longer needs. Returns the completed clean instants, oldest first.
   */
  def clean(spark: SparkSession, path: String, options: java.util.Map[String, String]): java.util.List[String] = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    val table = HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
    // Apache Hudi's clean under the LAZY failed-writes policy: writes whose heartbeat expired are
    // rolled back first (under the lock); a write whose writer still beats is left to finish.
    val concurrency = ConcurrencyConfig.from(opts)
    if (concurrency.failedWrites == io.pyhudi.transaction.FailedWritesCleanPolicy.Lazy)
      WriteTransaction.rollbackFailedWrites(table, concurrency)
    Cleaner.clean(spark, table.reload(), opts).asJava
  }

  /**
   * Archives the table now (docs/archival.md): finishes an interrupted archival, then moves the
   * oldest instants to the archived timeline when more than `hoodie.keep.max.commits` commits
   * are active. Returns the archived instants as timeline file names (`T.commit`), oldest first.
   */
  def archive(spark: SparkSession, path: String, options: java.util.Map[String, String]): java.util.List[String] = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    val table = HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
    TimelineArchiver.archive(table, opts).map(_.toString).asJava
  }

  /**
   * Clusters the table now (docs/clustering.md): rolls back failed writes, executes clusterings
   * left pending, then plans and runs a new one from the `hoodie.clustering.plan.strategy.*`
   * options (with `scheduleOnly`, only writes its plan). Returns the new clustering's instant,
   * else the last pending one executed, or null when nothing was clustered.
   */
  def cluster(spark: SparkSession, path: String, options: java.util.Map[String, String],
      scheduleOnly: Boolean): String = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    val table = HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
    val concurrency = ConcurrencyConfig.from(opts)
    WriteTransaction.rollbackFailedWrites(table, concurrency)
    WriteTransaction.requireNoLiveWriters(table, concurrency)
    val instant = Clusterer.cluster(spark, table.reload(), opts, scheduleOnly).orNull
    if (instant != null && !scheduleOnly) Cleaner.afterCommit(spark, table.reload(), opts)
    instant
  }

  /** Writes a compaction plan without executing it; returns its instant or null. */
  def scheduleCompaction(spark: SparkSession, path: String, options: java.util.Map[String, String]): String = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    val table = HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
    Compactor.compact(spark, table, opts, scheduleOnly = true).orNull
  }

  /** Executes every pending compaction; returns their instants. */
  def runPendingCompactions(
      spark: SparkSession, path: String, options: java.util.Map[String, String]): java.util.List[String] = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    val table = HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts))
    Compactor.runPending(spark, table, opts).asJava
  }

  private def open(
      spark: SparkSession, path: String, options: java.util.Map[String, String]): (HoodieTable, ConcurrencyConfig) = {
    val opts = io.pyhudi.spark.source.PyhudiSource.withSessionConf(spark, options.asScala.toMap)
    (HoodieTable.open(path, ParquetReaderShim.hadoopConf(spark, opts)), ConcurrencyConfig.from(opts))
  }

  private def optional[T](v: T): Option[T] = Option(v).filter {
    case s: String => s.trim.nonEmpty
    case _ => true
  }

  /**
   * Savepoints `instant` (null: the latest completed write); `name`, `retainDays` (<= 0: none)
   * and `comment` may be null. Returns the savepointed instant.
   */
  def savepoint(spark: SparkSession, path: String, instant: String, name: String, retainDays: Int,
      comment: String, options: java.util.Map[String, String]): String = {
    val (table, concurrency) = open(spark, path, options)
    Savepoints.create(table, optional(instant), optional(name), Some(retainDays).filter(_ > 0),
      optional(comment), concurrency = concurrency).instant
  }

  /** The completed savepoints, oldest first, as maps: instant, name, expires, created, comment, files. */
  def savepoints(spark: SparkSession, path: String, options: java.util.Map[String, String])
      : java.util.List[java.util.Map[String, String]] = {
    val (table, _) = open(spark, path, options)
    Savepoints.list(table).map(describe).asJava
  }

  private def describe(s: Savepoint): java.util.Map[String, String] = {
    val m = new java.util.LinkedHashMap[String, String]()
    m.put("instant", s.instant)
    m.put("name", s.name.orNull)
    m.put("expires", s.expiresAt.map(_.toString).orNull)
    m.put("created", s.createdAt.toString)
    m.put("savepointed_by", s.metadata.savepointedBy)
    m.put("comment", s.label.comment.orNull)
    m.put("files", s.metadata.fileCount.toString)
    m
  }

  /** Deletes the savepoint with this name or instant; returns its instant. */
  def deleteSavepoint(spark: SparkSession, path: String, nameOrInstant: String,
      options: java.util.Map[String, String]): String = {
    val (table, concurrency) = open(spark, path, options)
    Savepoints.delete(table, nameOrInstant, concurrency)
  }

  /**
   * Rolls back the latest completed write (`instant`, when not null, must be it); returns the
   * rolled-back instant. Failed writes are rolled back first.
   */
  def rollback(spark: SparkSession, path: String, instant: String, options: java.util.Map[String, String]): String = {
    val (table, concurrency) = open(spark, path, options)
    WriteTransaction.rollbackFailedWrites(table, concurrency)
    WriteTransaction.requireNoLiveWriters(table, concurrency)
    concurrency.withLock(table.storage, table.metaPath) {
      InstantRollback.rollbackLatest(table, optional(instant))._1
    }
  }

  /**
   * Restores the table to the savepoint with this name or instant (finishing an interrupted
   * restore first); returns the restore instant.
   */
  def restore(spark: SparkSession, path: String, savepoint: String, options: java.util.Map[String, String]): String = {
    val (table, concurrency) = open(spark, path, options)
    WriteTransaction.rollbackFailedWrites(table, concurrency)
    WriteTransaction.requireNoLiveWriters(table, concurrency)
    concurrency.withLock(table.storage, table.metaPath) {
      Restore.restore(table, savepoint)
    }
  }
}
