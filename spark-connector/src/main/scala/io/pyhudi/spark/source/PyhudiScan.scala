// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import java.util.OptionalLong

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.metric.CustomMetric
import org.apache.spark.sql.connector.read._
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.{StructField, StructType}

import io.pyhudi.errors.Errors
import io.pyhudi.filegroup.FileSlice
import io.pyhudi.merge.MergeMode
import io.pyhudi.read.{QuerySpec, ScanPlan, SliceReadContext, SliceSplits}
import io.pyhudi.schema.MetaFields
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.storage.SerializableConfiguration
import io.pyhudi.timeline.InstantVisibility

/**
 * A planned read: one input partition per file slice (large log-free base files are split),
 * read by [[PyhudiReaderFactory]] on the executors.
 */
final class PyhudiScan(
    spark: SparkSession,
    table: PyhudiTable,
    spec: QuerySpec,
    plan: ScanPlan,
    required: StructType,
    filters: Seq[Filter],
    partitionFilters: Seq[Filter],
    options: Map[String, String]) extends Scan with Batch with SupportsReportStatistics {

  private val hoodie = table.hoodie
  private val config = hoodie.config
  private val tableSchema = table.schema()

  /**
   * The ordering columns of the partial-column delta commits this read sees (commit metadata
   * the planner has read and cached), which merging their log blocks compares.
   */
  private def partialOrderingFields: Seq[String] =
    if (!plan.slices.exists(_.hasLogs)) Nil
    else plan.instant.toSeq.flatMap(hoodie.timeline.completedWritesUpTo)
      .filter(_.action == io.pyhudi.timeline.Action.DeltaCommit)
      .flatMap(i => hoodie.commitMetadata(i).partialOrderingField).distinct

  /** Whether merging keys rows by `_hoodie_record_key` (else by the record key fields). */
  private val useMetaKey: Boolean =
    config.populateMetaFields && SliceReadContext.keyFieldAsKey(config, tableSchema, required).isEmpty

  /** Requested columns, then the commit time (incremental), then what merging needs. */
  private val mergeSchema: StructType = {
    val commitTime = if (spec.isIncremental) Seq(MetaFields.CommitTime) else Nil
    val keys = if (useMetaKey) Seq(MetaFields.RecordKey) else config.recordKeyFields
    val extras = (commitTime ++ keys ++ config.precombineField.toSeq ++ partialOrderingFields).distinct
      .filterNot(n => required.fieldNames.contains(n))
      .flatMap(n => tableSchema.find(_.name == n))
    StructType(required.fields ++ extras)
  }

  /** What log-free slices read: requested columns plus the commit time for incremental. */
  private val baseSchema: StructType = {
    val extra = if (spec.isIncremental && !required.fieldNames.contains(MetaFields.CommitTime))
      tableSchema.find(_.name == MetaFields.CommitTime).toSeq
    else Nil
    StructType(required.fields ++ extra)
  }

  private def ordinal(name: String): Option[Int] =
    Some(mergeSchema.fieldNames.indexOf(name)).filter(_ >= 0)

  private lazy val context: SliceReadContext = {
    val keyFields = config.recordKeyFields
    val keyOrdinals = if (useMetaKey) ordinal(MetaFields.RecordKey).toSeq else keyFields.flatMap(ordinal)
    val visibility = plan.instant.map(hoodie.timeline.visibility)
      .getOrElse(InstantVisibility(Set.empty, None, ""))
    SliceReadContext(mergeSchema, keyOrdinals, keyFields, useMetaKey,
      config.precombineField.flatMap(ordinal), MergeMode.fromPayloadClass(config.payloadClass),
      ordinal(MetaFields.CommitTime).filter(_ => spec.isIncremental), plan.incrementalRange,
      visibility)
  }

  private lazy val hasMergeSlices = plan.slices.exists(s => s.hasLogs || s.baseFile.isEmpty)

  /**
   * Columnar when Spark's parquet reader reads the requested columns in batches; with slices to
   * merge, when it also reads the merge schema so and every requested column is atomic (a
   * merged batch takes changed rows' values from log rows). Incremental reads filter rows by
   * commit time, so they read rows.
   */
  private lazy val columnar: Boolean =
    !spec.isIncremental && required.nonEmpty && ParquetReaderShim.supportBatch(spark, required) &&
      (!hasMergeSlices || required.forall(f => MergedColumnVector.supports(f.dataType)) &&
        ParquetReaderShim.supportBatch(spark, mergeSchema))

  override def readSchema(): StructType = required

  override def description(): String = {
    val instant = plan.instant.getOrElse("none")
    val range = plan.incrementalRange.map { case (b, e) => s", range=($b, $e]" }.getOrElse("")
    s"PyhudiScan(table=${config.name}, type=${config.tableType.name}, query=${spec.queryType}, " +
      s"instant=$instant$range, fileSlices=${plan.slices.size}, " +
      s"partitions=${plan.partitionsRead}/${plan.partitionsTotal}, " +
      s"partitionFilters=[${partitionFilters.mkString(", ")}], " +
      s"pushedFilters=[${filters.mkString(", ")}], columnar=$columnar$mergeKey)"
  }

  /** What merging keys rows by, when slices have logs to merge. */
  private def mergeKey: String =
    if (!hasMergeSlices) ""
    else s", mergeKey=${if (useMetaKey) MetaFields.RecordKey else config.recordKeyFields.mkString("+")}"

  override def toBatch: Batch = this

  override def planInputPartitions(): Array[InputPartition] = {
    val files = ParquetReaderShim.filesConf(spark)
    val total = plan.slices.map(_.totalSize + files.openCostInBytes).sum
    val maxSplit = SliceSplits.maxSplitBytes(total, files.maxPartitionBytes, files.openCostInBytes, files.minPartitions)
      .max(1L << 20)
    SliceSplits.pack(SliceSplits.split(plan.slices, maxSplit), maxSplit, files.openCostInBytes, files.parallelism)
      .map(g => PyhudiInputPartition(g): InputPartition).toArray
  }

  override def createReaderFactory(): PartitionReaderFactory = {
    val conf = ParquetReaderShim.hadoopConf(spark, options)
    // Building a reader broadcasts a copy of the Hadoop configuration, a few milliseconds of the
    // driver's planning each: a scan builds the readers its slices use, no more. When every slice
    // has logs (a merge-on-read table after an upsert touching every file group), none reads a
    // base file alone.
    val logFree = plan.slices.filter(s => !s.hasLogs && s.baseFile.nonEmpty)
    lazy val baseReader = ParquetReaderShim.buildReader(spark, tableSchema, baseSchema, filters, columnar, conf)
    def merging(batches: Boolean) =
      if (hasMergeSlices) ParquetReaderShim.buildReader(spark, tableSchema, mergeSchema, Nil, batches, conf)
      else baseReader
    val mergeReader = merging(batches = false)
    val mergeBatchReader = if (columnar) merging(batches = true) else mergeReader
    // Columnar reads take partition columns a base file's footer proves constant as constants.
    // Hudi's partition path meta column is one by construction where the meta fields are written.
    val constant = config.partitionFields ++
      (if (config.populateMetaFields) Seq(MetaFields.PartitionPath) else Nil)
    def partitionValues(slices: Seq[FileSlice], schema: StructType, filters: Seq[Filter],
        reader: => ParquetReaderShim.FileReader) =
      if (columnar && config.partitionFields.nonEmpty &&
        slices.exists(_.baseFile.exists(_.size >= spec.footerPartitionValuesMinBytes)))
        PartitionValuesReader.build(spark, tableSchema, schema, constant, filters, conf, reader,
          spec.footerPartitionValuesMinBytes)
      else None
    val basePartitionValues = partitionValues(logFree, baseSchema, filters, baseReader)
    val mergePartitionValues =
      if (hasMergeSlices) partitionValues(plan.slices.filter(_.hasLogs), mergeSchema, Nil, mergeBatchReader)
      else None
    val base = if (logFree.nonEmpty || !hasMergeSlices) baseReader else PyhudiScan.notRead
    new PyhudiReaderFactory(new SerializableConfiguration(conf), context, base, mergeReader,
      mergeBatchReader, baseSchema, required.size, columnar, ParquetReaderShim.batchSize(spark),
      basePartitionValues, mergePartitionValues)
  }

  override def supportedCustomMetrics(): Array[CustomMetric] = ScanMetrics.all

  override def estimateStatistics(): Statistics = {
    val bytes = plan.slices.map(_.totalSize).sum
    new Statistics {
      override def sizeInBytes(): OptionalLong = OptionalLong.of(bytes)
      override def numRows(): OptionalLong = OptionalLong.empty()
    }
  }
}

private object PyhudiScan {

  /** In place of a reader a scan's slices never use. */
  val notRead: ParquetReaderShim.FileReader =
    file => throw Errors.internal(s"the scan built no reader for ${file.filePath}, a base file with no logs")
}
