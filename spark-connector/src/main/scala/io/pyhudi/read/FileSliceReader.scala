// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import java.util.function.IntFunction

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.avro.AvroRowDecoder
import io.pyhudi.errors.{Errors, PyhudiException}
import io.pyhudi.filegroup.FileSlice
import io.pyhudi.logfile.{AvroDataBlock, DeleteBlock, LogScanner, ParquetDataBlock, PartialBlock}
import io.pyhudi.merge.{ColumnStitching, LogChain, LogDelete, LogEntry, LogPartial, LogRecord, LogRecords, MergeMode}
import io.pyhudi.storage.Storage

/**
 * Reads one merge-on-read file slice: replays its valid log blocks into a map keyed by record
 * key, streams the base file through it, then emits log records whose keys the base file did
 * not hold. Rows come out in `ctx.mergeSchema`.
 *
 * One reader serves any number of slices of a scan or service task, one after the other.
 *
 * @param readBase       rows of a slice's base file in `mergeSchema` (no data filters: a
 *                       filter could drop a base row whose log update would pass it)
 * @param readParquetLog rows of a parquet data block's bytes in `mergeSchema`
 */
final class FileSliceReader(
    storage: Storage,
    ctx: SliceReadContext,
    readBase: FileSlice => Iterator[InternalRow],
    readParquetLog: Array[Byte] => Iterator[InternalRow]) {

  def read(slice: FileSlice): Iterator[InternalRow] = {
    val merger = this.merger(slice)
    val base = if (slice.baseFile.isDefined) readBase(slice) else Iterator.empty
    if (merger.isEmpty) return base
    new Merged(base, merger) ++ merger.remaining
  }

  /** The slice's log blocks replayed, to apply to its base rows as the caller reads them. */
  def merger(slice: FileSlice): SliceMerger = new SliceMerger(replayLogs(slice))

  /**
   * Applies a slice's log entries to its base rows, each once: a key's entry is consumed by the
   * base row that holds the key, and [[remaining]] then yields the entries of the other keys.
   */
  final class SliceMerger private[FileSliceReader] (logs: LogRecords) {
    private val eventTime = ctx.mergeMode == MergeMode.EventTime

    /** True when no visible log block holds a record or delete: the base rows are the slice. */
    def isEmpty: Boolean = logs.isEmpty

    /**
     * The row to emit for base row `row`: `row` itself (the same object) when no log entry
     * changes it, null when a log delete removes it, otherwise the log's row or a row stitched
     * from both.
     */
    def apply(row: InternalRow): InternalRow = {
      val o = ctx.integralKeyOrdinal
      if (o >= 0) {
        if (row.isNullAt(o)) row else resolve(row, logs.takeLong(ctx.integralKeyOf(row)))
      } else {
        val key = ctx.keyBytesOf(row)
        if (key == null) row else resolve(row, logs.take(key))
      }
    }

    // Keys of takeAll's batch: a row's key stays valid only while its row is current.
    private var keys = new Array[UTF8String](0)

    /**
     * Takes the log entries of base rows `rowAt(0 until n)` at once into `out` (null: none), to
     * [[resolve]] them (see [[LogRecords.takeAll]]), by the keys' bytes. A merge keyed by an
     * integral field ([[integralKeyOrdinal]]) finds the same entries faster by value, with
     * [[takeLong]]. A row must stay readable until the call returns, as a columnar batch's rows
     * do. (An IntFunction: a Scala `Int => InternalRow` would box every row number.)
     */
    def takeAll(rowAt: IntFunction[InternalRow], n: Int, out: Array[LogEntry]): Unit = {
      if (keys.length < n) keys = new Array[UTF8String](n)
      var i = 0
      while (i < n) { keys(i) = ctx.keyBytesOf(rowAt.apply(i)); i += 1 }
      logs.takeAll(keys, n, out)
    }

    /**
     * The ordinal of the integral key field base rows are looked up by ([[takeLong]]), or -1:
     * a columnar reader then reads the keys straight from the field's vector.
     */
    def integralKeyOrdinal: Int = ctx.integralKeyOrdinal

    /** Whether that field is a long (else an int). */
    def integralKeyIsLong: Boolean = ctx.integralKeyIsLong

    /** Takes the log entry of the base row whose integral key field holds `v` (null: none). */
    def takeLong(v: Long): LogEntry = logs.takeLong(v)

    /** [[apply]] for base row `row` whose key's log entry `entry` was taken (null: none). */
    def resolve(row: InternalRow, entry: LogEntry): InternalRow =
      entry match {
        case null => row
        case LogDelete(_) => null
        case c: LogChain => stitching(row, c)
        case p: LogPartial => stitching(row, LogChain(Vector(p)))
        case LogRecord(logRow, ordering) =>
          val keepBase = eventTime && ordering != null &&
            io.pyhudi.merge.OrderingValues.compare(ctx.orderingOf(row), ordering) > 0
          if (keepBase) row else logRow
      }

    /** Log rows whose keys no base row held; read once the base rows are done. */
    def remaining: Iterator[InternalRow] = logs.remainingRecords(stitching)
  }

  /** The base rows with their log entries applied: a row per base row, less the deleted ones. */
  private final class Merged(base: Iterator[InternalRow], merger: SliceMerger) extends Iterator[InternalRow] {
    private var nextRow: InternalRow = _

    override def hasNext: Boolean = {
      while (nextRow == null && base.hasNext) nextRow = merger(base.next())
      nextRow != null
    }

    override def next(): InternalRow = {
      if (!hasNext) throw new NoSuchElementException("end of the merged file slice")
      val r = nextRow
      nextRow = null
      r
    }
  }

  // A log row waits in the map until its slice's base file has been read, long enough to be
  // copied by the garbage collector. As an UnsafeRow it is one object with its values in one
  // array, not a row, a value array and an object per value: the GC time of a merge-on-read
  // scan fell by about a third. Built once per reader: building it per slice cost a merge-on-read
  // scan about 1% in code generation and cache lookups.
  private lazy val compact = UnsafeProjection.create(ctx.mergeSchema)

  private lazy val stitching =
    new ColumnStitching(ctx.mergeSchema, ctx.orderingOrdinal.getOrElse(-1), ctx.mergeMode)

  private def replayLogs(slice: FileSlice): LogRecords = {
    val records = new LogRecords(ctx.orderingOrdinal.isDefined)
    if (slice.logFiles.isEmpty) return records
    lazy val avro = new AvroRowDecoder(ctx.mergeSchema)
    LogScanner.validBlocks(storage, slice.logFiles, ctx.visibility.isVisible).foreach {
      case b: AvroDataBlock if PartialBlock.isPartial(b.header) =>
        val (written, ordering) = partialColumns(b)
        b.decode(avro.reader(b.schema)).foreach { row =>
          val key = ctx.keyOf(row)
          if (key != null) records.addPartial(key, LogPartial(row, written, ordering))
        }
      case b: AvroDataBlock => b.decode(avro.reader(b.schema)).foreach(r => add(records, compact(r).copy()))
      case b: ParquetDataBlock if PartialBlock.isPartial(b.header) =>
        throw Errors.unsupportedLogBlock(b.path, b.offset, "partial-column PARQUET_DATA", b.instantTime.getOrElse(""))
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

  /**
   * The merge schema's ordinals a partial-column block sets (the fields of its schema) and its
   * column group's ordering column (-1: none). The scan reads every ordering column a visible
   * partial-column commit names (the scan adds them to the merge schema).
   */
  private def partialColumns(b: AvroDataBlock): (Array[Int], Int) = {
    val names = b.schema.getFields.asScala.map(_.name).toSet
    val written = ctx.mergeSchema.fieldNames.indices.filter(i => names(ctx.mergeSchema(i).name)).toArray
    val ordering = Option(b.schema.getProp(PartialBlock.OrderingFieldProp)).map { f =>
      val o = ctx.mergeSchema.fieldNames.indexOf(f)
      if (o < 0) throw Errors.internal(
        s"the partial-column log block at ${b.path} offset ${b.offset} is ordered by '$f', which this read does not hold")
      o
    }
    (written, ordering.getOrElse(-1))
  }

  /** `row` must be owned by the map (a copy): the map keeps it until the base file is read. */
  private def add(records: LogRecords, row: InternalRow): Unit = {
    val key = ctx.keyBytesOf(row)
    if (key != null) records.addRecord(key, row, ctx.orderingOf(row))
  }
}
