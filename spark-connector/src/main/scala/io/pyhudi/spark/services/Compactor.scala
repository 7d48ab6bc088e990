// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.services

import org.apache.spark.sql.SparkSession

import io.pyhudi.avro.SparkToAvro
import io.pyhudi.config.WriteConfig
import io.pyhudi.filegroup.{BaseFile, FileSlice}
import io.pyhudi.merge.MergeMode
import io.pyhudi.read.{FileSliceReader, SliceReadContext}
import io.pyhudi.schema.{MetaFields, TableSchemaResolver}
import io.pyhudi.services.compaction.{CompactionOperations, CompactionPlanner, CompactionTransaction}
import io.pyhudi.spark.shims.{ParquetReaderShim, ParquetWriterShim}
import io.pyhudi.spark.write.WriteExecution
import io.pyhudi.storage.{SerializableConfiguration, Storage}
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.timeline.avro.CompactionPlan
import io.pyhudi.transaction.ConcurrencyConfig
import io.pyhudi.errors.Errors
import io.pyhudi.write.commit.{CompactionCounts, WriteStats}
import io.pyhudi.write.handle.{BloomConfig, CompactHandle, HandleContext}

/**
 * Runs compactions of merge-on-read tables as Spark jobs: one task per planned file slice reads
 * the slice merged (base file plus log blocks, as a snapshot read does) and writes the group's
 * new base file at the compaction instant, keeping every record's commit time.
 */
object Compactor {

  /**
   * Plans and runs a compaction now, after finishing any pending one; with `scheduleOnly` it
   * only writes the plan. Returns the new compaction's instant, else the last pending one it
   * executed, or None when there was nothing to compact.
   */
  def compact(spark: SparkSession, table: HoodieTable, options: Map[String, String],
      scheduleOnly: Boolean = false): Option[String] = {
    val pending = runPending(spark, table, options)
    val current = if (pending.isEmpty) table else table.reload()
    val targetIo = WriteConfig.CompactionTargetIo.from(options)
    CompactionPlanner.plan(current, targetIo).map { plan =>
      val instant = CompactionTransaction.schedule(current, plan, concurrency = ConcurrencyConfig.from(options))
      if (!scheduleOnly) execute(spark, current.reload(), instant, plan, options)
      instant
    }.orElse(pending.lastOption)
  }

  /**
   * Executes every pending compaction, oldest first; a half-run one is rolled back and rerun.
   * One that another process is executing now (live heartbeat) fails the call.
   */
  def runPending(spark: SparkSession, table: HoodieTable, options: Map[String, String]): Seq[String] =
    if (table.tableType != TableType.MergeOnRead) Nil
    else CompactionTransaction.pendingCompactions(table).map { case (instant, plan) =>
      val concurrency = ConcurrencyConfig.from(options)
      if (CompactionTransaction.isRunning(table, instant, concurrency))
        throw Errors.liveWriters(table.basePath, s"$instant (compaction)", concurrency.heartbeat.expiryMs)
      val fresh = table.reload()
      if (fresh.timeline.instants.exists(i => i.timestamp == instant && i.state == io.pyhudi.timeline.State.Inflight))
        CompactionTransaction.rollbackInflight(fresh, instant)
      execute(spark, fresh.reload(), instant, plan, options)
      instant
    }

  private def execute(spark: SparkSession, table: HoodieTable, instant: String, plan: CompactionPlan,
      options: Map[String, String]): Unit = {
    val concurrency = ConcurrencyConfig.from(options)
    val heartbeat = CompactionTransaction.start(table, instant, concurrency)
    try run(spark, table, instant, plan, options, concurrency)
    finally heartbeat.close()
  }

  private def run(spark: SparkSession, table: HoodieTable, instant: String, plan: CompactionPlan,
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
    val writeCtx = HandleContext(table.basePath, instant, tableSchema, mergeMode, ordering,
      BloomConfig(WriteConfig.BloomNumEntries.from(options).get, WriteConfig.BloomFpp.from(options).get,
        WriteConfig.BloomFilterType.from(options).get, WriteConfig.BloomMaxEntries.from(options).get),
      Long.MaxValue, conf,
      ParquetWriterShim.factory(spark, tableSchema, hadoopConf, WriteConfig.CompressionCodec.from(options).get,
        WriteConfig.ParquetBlockSize.from(options).get, WriteConfig.ParquetPageSize.from(options).get),
      _ => Iterator.empty, config.name,
      timelineService = EmbeddedTimelineService.forWrite(spark, table.basePath, options))
    val reader = ParquetReaderShim.buildReader(spark, tableSchema, tableSchema, Nil, returningBatch = false, hadoopConf)
    val slices: Seq[FileSlice] =
      plan.operations.getOrElse(Nil).map(op => CompactionOperations.toFileSlice(table, instant, op))
    val results = spark.sparkContext.parallelize(slices, math.max(1, slices.size)).map { slice =>
      val storage = new Storage(conf.value)
      val base = (s: FileSlice) =>
        s.baseFile.map(b =>
          reader(ParquetReaderShim.partitionedFile(b.path, 0L, b.size, b.size))).getOrElse(Iterator.empty)
      val merged = new FileSliceReader(storage, readCtx, base, bytes => ParquetReaderShim.readBytes(reader, bytes))
      slice -> new CompactHandle(writeCtx, slice, WriteExecution.writeToken()).write(merged.read(slice))
    }.collect().toSeq
    writeCtx.timelineService.foreach(_ =>
      EmbeddedTimelineService.instantEnded(CompactionTransaction.markers(table, instant).folder))
    val stats = results.map { case (slice, r) =>
      val output =
        BaseFile.parse(writeCtx.absolutePath(r.partitionPath, r.relativePath.split('/').last), r.fileSize).get
      WriteStats.compacted(table.basePath, slice, output, CompactionCounts(numWrites = r.numWrites))
    }
    val data = org.apache.spark.sql.types.StructType(tableSchema.fields.filterNot(f => MetaFields.isMeta(f.name)))
    CompactionTransaction.commit(table.reload(), instant, stats, SparkToAvro.tableSchema(data, config.name).toString,
      concurrency)
  }
}
