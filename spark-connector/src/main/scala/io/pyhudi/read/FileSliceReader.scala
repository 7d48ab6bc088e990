// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import scala.util.control.NonFatal

import org.apache.spark.sql.catalyst.InternalRow

import io.pyhudi.avro.AvroDeserializer
import io.pyhudi.errors.{Errors, PyhudiException}
import io.pyhudi.filegroup.FileSlice
import io.pyhudi.logfile.{AvroDataBlock, DeleteBlock, LogScanner, ParquetDataBlock}
import io.pyhudi.merge.{LogDelete, LogRecord, LogRecords, MergeMode}
import io.pyhudi.storage.Storage

/**
 * Reads one merge-on-read file slice: replays its valid log blocks into a map keyed by record
 * key, streams the base file through it, then emits log records whose keys the base file did
 * not hold. Rows come out in `ctx.mergeSchema`.
 *
 * @param readBase       rows of the slice's base file in `mergeSchema` (no data filters: a
 *                       filter could drop a base row whose log update would pass it)
 * @param readParquetLog rows of a parquet data block's bytes in `mergeSchema`
 */
final class FileSliceReader(
    storage: Storage,
    ctx: SliceReadContext,
    readBase: () => Iterator[InternalRow],
    readParquetLog: Array[Byte] => Iterator[InternalRow]) {

  def read(slice: FileSlice): Iterator[InternalRow] = {
    val logs = replayLogs(slice)
    val base = if (slice.baseFile.isDefined) readBase() else Iterator.empty
    if (logs.isEmpty) return base
    new Merged(base, logs) ++ logs.remainingRecords
  }

  /** The base rows with their log entries applied: a row per base row, less the deleted ones. */
  private final class Merged(base: Iterator[InternalRow], logs: LogRecords) extends Iterator[InternalRow] {
    private val eventTime = ctx.mergeMode == MergeMode.EventTime
    private var nextRow: InternalRow = _

    override def hasNext: Boolean = {
      while (nextRow == null && base.hasNext) nextRow = merge(base.next())
      nextRow != null
    }

    override def next(): InternalRow = {
      if (!hasNext) throw new NoSuchElementException("end of the merged file slice")
      val r = nextRow
      nextRow = null
      r
    }

    /** The row to emit for `row`, or null when a log delete removes it. */
    private def merge(row: InternalRow): InternalRow = {
      val key = ctx.keyBytesOf(row)
      if (key == null) return row
      logs.take(key) match {
        case null => row
        case LogDelete(_) => null
        case LogRecord(logRow, ordering) =>
          val keepBase = eventTime && ordering != null &&
            io.pyhudi.merge.OrderingValues.compare(ctx.orderingOf(row), ordering) > 0
          if (keepBase) row else logRow
      }
    }
  }

  private def replayLogs(slice: FileSlice): LogRecords = {
    val records = new LogRecords(ctx.orderingOrdinal.isDefined)
    if (slice.logFiles.isEmpty) return records
    lazy val avro = new AvroDeserializer(ctx.mergeSchema)
    LogScanner.validBlocks(storage, slice.logFiles, ctx.visibility.isVisible).foreach {
      case b: AvroDataBlock => b.records.foreach(r => add(records, avro.deserialize(r).copy()))
      case b: ParquetDataBlock =>
        // Decoding is lazy: a damaged page fails while iterating, not when the reader opens.
        try readParquetLog(b.content).foreach(r => add(records, r.copy()))
        catch {
          case e: PyhudiException => throw e
          case NonFatal(e) => throw Errors.corruptLogBlock(b.path, b.offset, "PARQUET_DATA", e)
        }
      case b: DeleteBlock => b.deletes.foreach(d => records.addDelete(d.recordKey, d.orderingValue))
      case _ => ()
    }
    records
  }

  private def add(records: LogRecords, row: InternalRow): Unit = {
    val key = ctx.keyOf(row)
    if (key != null) records.addRecord(key, row, ctx.orderingOf(row))
  }
}
