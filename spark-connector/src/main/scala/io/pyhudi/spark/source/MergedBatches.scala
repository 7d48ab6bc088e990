// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}

import io.pyhudi.merge.LogEntry
import io.pyhudi.read.FileSliceReader
import io.pyhudi.spark.shims.BatchPatches

/**
 * A merge-on-read file slice read as columnar batches: the base file's batches from Spark's
 * vectorized parquet reader with the slice's log entries applied, then batches of the log rows
 * whose keys the base file did not hold. A batch no log entry touches passes through as read;
 * so does one whose changed rows were only replaced, with the log rows written over them in the
 * reader's vectors ([[BatchPatches]]). Any other (rows deleted, or a constant column a log row
 * changes) comes out through [[MergedColumnVector]]s, which take each row from the base batch or
 * from a log row without copying the base values.
 *
 * @param base     batches of the base file in `schema` (none when the slice has no base file)
 * @param schema   the columns read (the scan's merge schema); the batches keep its first `width`
 * @param onPatched runs for each batch whose log rows were written over its base rows
 */
final class MergedBatches(
    base: Iterator[ColumnarBatch],
    merger: FileSliceReader#SliceMerger,
    schema: StructType,
    width: Int,
    batchSize: Int,
    onPatched: () => Unit = () => ()) extends Iterator[ColumnarBatch] {

  private val vectors = Array.tabulate(width)(i => new MergedColumnVector(schema(i).dataType, i))
  private val merged = new ColumnarBatch(vectors.toArray[ColumnVector])
  private var src = new Array[Int](batchSize)
  private var entries = new Array[LogEntry](batchSize)
  private var patches = new Array[InternalRow](64)
  private var patchRows = new Array[Int](64) // the base row each patch replaces
  private var patchCount = 0
  private val inPlace = new BatchPatches(Array.tabulate(width)(i => schema(i).dataType))
  private var remaining: Iterator[InternalRow] = _
  private var pending: ColumnarBatch = _

  override def hasNext: Boolean = {
    if (pending == null) pending = advance()
    pending != null
  }

  override def next(): ColumnarBatch = {
    if (!hasNext) throw new NoSuchElementException("end of the merged file slice")
    val b = pending
    pending = null
    b
  }

  private def advance(): ColumnarBatch = {
    // Spark has read the batch handed out last: the reader may now reuse its vectors.
    inPlace.restore()
    while (base.hasNext) {
      val b = base.next()
      if (merger.isEmpty) return narrow(b)
      val n = b.numRows
      if (src.length < n) {
        src = new Array[Int](n)
        entries = new Array[LogEntry](n)
      }
      patchCount = 0
      takeEntries(b, n)
      var out = 0
      var i = 0
      while (i < n) {
        // The batch hands out one row object for every row id; the merger returns that object
        // when the row is kept as it is.
        val row = b.getRow(i)
        val r = merger.resolve(row, entries(i))
        if (r eq row) { src(out) = i; out += 1 }
        else if (r != null) { src(out) = ~addPatch(r, i); out += 1 }
        i += 1
      }
      if (out == n && patchCount == 0) return narrow(b)
      if (out == n && inPlace.write(b, patchRows, patches, patchCount)) {
        onPatched()
        return narrow(b)
      }
      if (out > 0) return point(b, out)
      // every row of the batch was deleted: read on
    }
    if (remaining == null) remaining = merger.remaining
    patchCount = 0
    var out = 0
    while (out < batchSize && remaining.hasNext) {
      src(out) = ~addPatch(remaining.next(), -1)
      out += 1
    }
    if (out == 0) null else point(null, out)
  }

  /**
   * The log entries of the batch's `n` rows into `entries`. Rows keyed by an integral field are
   * looked up by the values in its vector: through the batch's row view, the lookups' reads cost
   * about as much as the lookups.
   */
  private def takeEntries(b: ColumnarBatch, n: Int): Unit = {
    val o = merger.integralKeyOrdinal
    if (o < 0) merger.takeAll(b.getRow(_), n, entries)
    else {
      val keys = b.column(o)
      val isLong = merger.integralKeyIsLong
      var i = 0
      while (i < n) {
        entries(i) =
          if (keys.isNullAt(i)) null
          else merger.takeLong(if (isLong) keys.getLong(i) else keys.getInt(i).toLong)
        i += 1
      }
    }
  }

  /** Adds log row `r`, which replaces base row `row` (-1: none), as the next patch. */
  private def addPatch(r: InternalRow, row: Int): Int = {
    if (patchCount == patches.length) {
      patches = java.util.Arrays.copyOf(patches, patchCount * 2)
      patchRows = java.util.Arrays.copyOf(patchRows, patchCount * 2)
    }
    patches(patchCount) = r
    patchRows(patchCount) = row
    patchCount += 1
    patchCount - 1
  }

  /** The merged batch over `b` (null: log rows only), `rows` rows long. */
  private def point(b: ColumnarBatch, rows: Int): ColumnarBatch = {
    var c = 0
    while (c < width) {
      val v = vectors(c)
      v.base = if (b == null) null else b.column(c)
      v.src = src
      v.patches = patches
      v.numRows = rows
      c += 1
    }
    merged.setNumRows(rows)
    merged
  }

  /** `b` as the scan's output: its first `width` columns. */
  private def narrow(b: ColumnarBatch): ColumnarBatch =
    if (b.numCols == width) b
    else new ColumnarBatch(Array.tabulate(width)(b.column), b.numRows)
}
