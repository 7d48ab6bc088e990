// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.metric.CustomTaskMetric
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.vectorized.ColumnarBatch

import io.pyhudi.filegroup.{BaseFile, FileSlice}
import io.pyhudi.read.{FileSliceReader, SliceReadContext, SliceSplit}
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.spark.shims.ParquetReaderShim.FileReader
import io.pyhudi.storage.{SerializableConfiguration, Storage}

/**
 * Built on the driver, shipped to executors. Log-free slices stream straight from Spark's
 * parquet reader; slices with log files go through [[FileSliceReader]], as rows or, when the
 * whole scan is columnar, as [[MergedBatches]]. Rows and batches leave in the requested schema,
 * a prefix of the schemas read.
 *
 * @param mergeReader      rows of a base file (row scans) and of parquet log blocks, in the
 *                         merge schema
 * @param mergeBatchReader batches of a base file in the merge schema (columnar scans)
 * @param basePartitionValues  columnar reads of log-free base files that take constant partition
 *                             columns from footer statistics, when the scan reads any
 * @param mergePartitionValues the same for the base files of merged slices
 */
final class PyhudiReaderFactory(
    conf: SerializableConfiguration,
    ctx: SliceReadContext,
    baseReader: FileReader,
    mergeReader: FileReader,
    mergeBatchReader: FileReader,
    baseSchema: StructType,
    outputWidth: Int,
    columnar: Boolean,
    batchSize: Int,
    basePartitionValues: Option[PartitionValuesReader],
    mergePartitionValues: Option[PartitionValuesReader]) extends PartitionReaderFactory {

  override def supportColumnarReads(partition: InputPartition): Boolean = columnar

  override def createColumnarReader(partition: InputPartition): PartitionReader[ColumnarBatch] = {
    var constantFiles = 0L
    var patchedBatches = 0L
    val count = () => constantFiles += 1
    val patched = () => patchedBatches += 1
    lazy val reader = sliceReader()
    new IteratorReader(splitsOf(partition).flatMap(batches(_, reader, count, patched)),
      () =>
        Array(ScanMetrics.task(FooterPartitionValuesMetric.Name, constantFiles),
          ScanMetrics.task(PatchedBatchesMetric.Name, patchedBatches)))
  }

  override def createReader(partition: InputPartition): PartitionReader[InternalRow] = {
    lazy val reader = sliceReader()
    new IteratorReader(splitsOf(partition).flatMap(rows(_, reader)))
  }

  // Each split's reader is opened when the one before it is done.
  private def splitsOf(partition: InputPartition): Iterator[SliceSplit] =
    partition.asInstanceOf[PyhudiInputPartition].splits.iterator

  private def batches(p: SliceSplit, reader: => FileSliceReader, count: () => Unit,
      patched: () => Unit): Iterator[ColumnarBatch] = {
    val slice = p.slice
    slice.baseFile match {
      case Some(base) if !slice.hasLogs =>
        basePartitionValues match {
          case Some(r) => r.batches(conf.value, base.path, p.start, p.length, base.size, count)
          case None =>
            baseReader(ParquetReaderShim.partitionedFile(base.path, p.start, p.length, base.size))
              .asInstanceOf[Iterator[ColumnarBatch]]
        }
      case _ =>
        val merger = reader.merger(slice)
        val base = (slice.baseFile, mergePartitionValues) match {
          case (Some(b), Some(r)) => r.batches(conf.value, b.path, 0L, b.size, b.size, count)
          case (Some(b), None) => mergeBatchReader(wholeFile(b)).asInstanceOf[Iterator[ColumnarBatch]]
          case (None, _) => Iterator.empty
        }
        new MergedBatches(base, merger, ctx.mergeSchema, outputWidth, batchSize, patched)
    }
  }

  private def rows(p: SliceSplit, reader: => FileSliceReader): Iterator[InternalRow] = {
    val slice = p.slice
    slice.baseFile match {
      case Some(base) if !slice.hasLogs =>
        val it = baseReader(ParquetReaderShim.partitionedFile(base.path, p.start, p.length, base.size))
        project(it.filter(ctx.inRange), baseSchema.size)
      case _ =>
        project(reader.read(slice).filter(ctx.inRange), ctx.mergeSchema.size)
    }
  }

  /** The merging reader of one task's slices with logs, built on the first of them. */
  private def sliceReader(): FileSliceReader =
    new FileSliceReader(new Storage(conf.value), ctx, slice => mergeReader(wholeFile(slice.baseFile.get)),
      bytes => ParquetReaderShim.readBytes(mergeReader, bytes))

  /** A base file read whole: merging needs every row, so merged slices are never split. */
  private def wholeFile(b: BaseFile) = ParquetReaderShim.partitionedFile(b.path, 0L, b.size, b.size)

  /** Keeps the first `outputWidth` columns of rows that are `width` wide. */
  private def project(rows: Iterator[InternalRow], width: Int): Iterator[InternalRow] =
    if (width == outputWidth) rows
    else {
      val view = new NarrowedRow(ctx.mergeSchema, outputWidth)
      rows.map(view.of)
    }
}

/** Adapts an iterator to Spark's pull-style reader, reporting `metrics` of the task so far. */
final class IteratorReader[T](it: Iterator[T], metrics: () => Array[CustomTaskMetric] = () => Array.empty)
    extends PartitionReader[T] {
  private var current: T = _
  override def next(): Boolean = {
    val has = it.hasNext
    if (has) current = it.next()
    has
  }
  override def get(): T = current
  override def currentMetricsValues(): Array[CustomTaskMetric] = metrics()
  override def close(): Unit = it match { case c: AutoCloseable => c.close(); case _ => () }
}
