// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.services

import java.util.UUID

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Ascending, BoundReference, InterpretedOrdering, SortOrder}
import org.apache.spark.sql.types.StructType

import io.pyhudi.avro.SparkToAvro
import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors
import io.pyhudi.filegroup.FileSlice
import io.pyhudi.merge.MergeMode
import io.pyhudi.read.{FileSliceReader, SliceReadContext}
import io.pyhudi.schema.{MetaFields, TableSchemaResolver}
import io.pyhudi.services.clustering.{ClusteringConfig, ClusteringPlanner, ClusteringSlices, ClusteringTransaction}
import io.pyhudi.spark.shims.{ParquetReaderShim, ParquetWriterShim}
import io.pyhudi.spark.write.WriteExecution
import io.pyhudi.storage.{SerializableConfiguration, Storage}
import io.pyhudi.table.{CrashPoint, HoodieTable}
import io.pyhudi.timeline.State
import io.pyhudi.timeline.avro.ClusteringPlan
import io.pyhudi.transaction.ConcurrencyConfig
import io.pyhudi.write.commit.WriteStats
import io.pyhudi.write.handle.{BloomConfig, ClusterHandle, HandleContext}

/**
 * Runs clusterings as Spark jobs: one task per clustering group reads the group's slices (merged
 * for merge-on-read, as a snapshot read does), sorts the records by the plan's sort columns and
 * writes them to base files of new file groups at the clustering instant.
 */
object Clusterer {

  /**
   * Executes pending clusterings, then plans and runs a new one (only writes the plan with
   * `scheduleOnly`). Returns the new clustering's instant, else the last pending one executed, or
   * None when nothing was clustered.
   *
   * @throws io.pyhudi.errors.InvalidOptionException when a sort column is not a table column, or the
   *         options name a BUCKET index
   */
  def cluster(spark: SparkSession, table: HoodieTable, options: Map[String, String],
      scheduleOnly: Boolean = false): Option[String] = {
    val config = ClusteringConfig.from(options)
    config.checkSortColumns(dataColumns(table))
    // New file ids would break the key-to-bucket mapping; Apache Hudi does not cluster simple-bucket tables either.
    WriteConfig.IndexType.from(options).filter(_.isBucket).foreach { i =>
      throw Errors.invalidOption(WriteConfig.IndexType.key, i.name,
        "clustering writes new file groups, which a BUCKET index cannot address; it does not run on bucket-index tables")
    }
    val pending = runPending(spark, table, options)
    val current = if (pending.isEmpty) table else table.reload()
    ClusteringPlanner.plan(current, config).map { plan =>
      val instant = ClusteringTransaction.schedule(current, plan, concurrency = ConcurrencyConfig.from(options))
      if (!scheduleOnly) execute(spark, current.reload(), instant, plan, options)
      instant
    }.orElse(pending.lastOption)
  }

  /**
   * Executes every pending clustering, oldest first; an inflight one (its writer died) is rolled
   * back to requested and executed again. One another process runs now (live heartbeat) fails the call.
   */
  def runPending(spark: SparkSession, table: HoodieTable, options: Map[String, String]): Seq[String] =
    ClusteringTransaction.pendingClusterings(table).map { case (instant, plan) =>
      val concurrency = ConcurrencyConfig.from(options)
      if (ClusteringTransaction.isRunning(table, instant, concurrency))
        throw Errors.liveWriters(table.basePath, s"$instant (clustering)", concurrency.heartbeat.expiryMs)
      val fresh = table.reload()
      if (fresh.timeline.instants.exists(i => i.timestamp == instant && i.state == State.Inflight))
        ClusteringTransaction.rollbackInflight(fresh, instant)
      execute(spark, fresh.reload(), instant, plan, options)
      instant
    }

  private def dataColumns(table: HoodieTable): Seq[String] =
    TableSchemaResolver.resolve(table).fieldNames.toSeq.filterNot(MetaFields.isMeta)

  private def execute(spark: SparkSession, table: HoodieTable, instant: String, plan: ClusteringPlan,
      options: Map[String, String]): Unit = {
    val concurrency = ConcurrencyConfig.from(options)
    val heartbeat = ClusteringTransaction.start(table, instant, concurrency)
    try run(spark, table, instant, plan, options, concurrency)
    finally heartbeat.close()
  }

  private def run(spark: SparkSession, table: HoodieTable, instant: String, plan: ClusteringPlan,
      options: Map[String, String], concurrency: ConcurrencyConfig): Unit = {
    val hadoopConf = ParquetReaderShim.hadoopConf(spark, options)
    val conf = new SerializableConfiguration(hadoopConf)
    val tableSchema = TableSchemaResolver.resolve(table)
    val config = table.config
    val ordering = config.precombineField.map(f => tableSchema.fieldNames.indexOf(f)).filter(_ >= 0)
    val mergeMode = MergeMode.fromPayloadClass(config.payloadClass)
    val latest = table.timeline.latestCompletedWrite.map(_.timestamp).getOrElse(instant)
    val readCtx = SliceReadContext(tableSchema, Seq(tableSchema.fieldNames.indexOf(MetaFields.RecordKey)),
      config.recordKeyFields, useMetaKey = true, ordering, mergeMode, None, None,
      table.timeline.visibility(latest))
    // The plan carries its sort columns, so a pending plan runs as it was made.
    val sortColumns = plan.strategy.flatMap(_.strategyParams).flatMap(p => WriteConfig.ClusteringSortColumns.from(p))
      .getOrElse(Nil)
    ClusteringConfig(sortColumns = sortColumns).checkSortColumns(dataColumns(table))
    val sortKeys = sortColumns.map { c =>
      val i = tableSchema.fieldNames.indexOf(c)
      SortOrder(BoundReference(i, tableSchema(i).dataType, tableSchema(i).nullable), Ascending)
    }
    val targetSize = WriteConfig.ClusteringTargetFileMaxBytes.from(options).get
    val writeCtx = HandleContext(table.basePath, instant, tableSchema, mergeMode, ordering,
      BloomConfig(WriteConfig.BloomNumEntries.from(options).get, WriteConfig.BloomFpp.from(options).get,
        WriteConfig.BloomFilterType.from(options).get, WriteConfig.BloomMaxEntries.from(options).get),
      targetSize, conf,
      ParquetWriterShim.factory(spark, tableSchema, hadoopConf, WriteConfig.CompressionCodec.from(options).get,
        WriteConfig.ParquetBlockSize.from(options).get, WriteConfig.ParquetPageSize.from(options).get),
      _ => Iterator.empty, config.name,
      timelineService = EmbeddedTimelineService.forWrite(spark, table.basePath, options))
    val reader = ParquetReaderShim.buildReader(spark, tableSchema, tableSchema, Nil, returningBatch = false, hadoopConf)
    val groups: Seq[(Seq[FileSlice], String)] = plan.groups.map { g =>
      (g.slices.getOrElse(Nil).map(s => ClusteringSlices.toFileSlice(table, instant, s)), UUID.randomUUID().toString)
    }.filter(_._1.nonEmpty)
    val results = spark.sparkContext.parallelize(groups, math.max(1, groups.size)).flatMap { case (slices, prefix) =>
      val storage = new Storage(conf.value)
      val base = (slice: FileSlice) =>
        slice.baseFile.map(b =>
          reader(ParquetReaderShim.partitionedFile(b.path, 0L, b.size, b.size))).getOrElse(Iterator.empty)
      val sliceReader = new FileSliceReader(storage, readCtx, base, bytes => ParquetReaderShim.readBytes(reader, bytes))
      val rows = slices.iterator.flatMap(sliceReader.read)
      // Sorting holds one group's rows in the task's memory (at most max.bytes.per.group of input).
      val ordered: Iterator[InternalRow] =
        if (sortKeys.isEmpty) rows
        else rows.map(_.copy()).toArray.sorted(new InterpretedOrdering(sortKeys)).iterator
      new ClusterHandle(writeCtx, slices.head.groupId.partitionPath, prefix, WriteExecution.writeToken()).write(ordered)
    }.collect().toSeq
    writeCtx.timelineService.foreach(_ =>
      EmbeddedTimelineService.instantEnded(ClusteringTransaction.markers(table, instant).folder))
    val data = StructType(tableSchema.fields.filterNot(f => MetaFields.isMeta(f.name)))
    CrashPoint("clustering.before-commit")
    ClusteringTransaction.commit(table.reload(), instant, results.map(WriteStats.written),
      SparkToAvro.tableSchema(data, config.name).toString, concurrency)
  }
}
