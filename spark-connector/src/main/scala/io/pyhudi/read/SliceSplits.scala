// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import scala.collection.mutable
import scala.collection.mutable.ArrayBuffer

import io.pyhudi.filegroup.FileSlice

/**
 * A part of a scan: a file slice, or a byte range of a large base file when the slice has no log
 * files (parquet assigns each row group to the range holding its midpoint).
 */
final case class SliceSplit(slice: FileSlice, start: Long, length: Long) {

  /** What reading the split costs in bytes: a merged slice reads its log files too. */
  def cost: Long = if (slice.hasLogs) slice.totalSize else length
}

/**
 * Cuts a scan's file slices into the splits of its tasks the way Spark plans a parquet scan:
 * large log-free base files into ranges, then small splits packed together, so that a table of
 * many small file groups is not read by as many tasks (each task opens its files and replays its
 * logs, and starting one costs a few milliseconds of every core).
 */
object SliceSplits {

  /**
   * Spark's split size for `totalBytes` of input: at most `maxPartitionBytes`, and no smaller
   * than needed to give each of `minPartitions` tasks a share (nor than `openCostInBytes`).
   */
  def maxSplitBytes(totalBytes: Long, maxPartitionBytes: Long, openCostInBytes: Long, minPartitions: Int): Long =
    math.min(maxPartitionBytes, math.max(openCostInBytes, totalBytes / math.max(1, minPartitions)))

  /** Log-free base files larger than `maxSplit` become ranges; merged slices are read whole. */
  def split(slices: Seq[FileSlice], maxSplit: Long): Seq[SliceSplit] = slices.flatMap { slice =>
    slice.baseFile match {
      case Some(base) if !slice.hasLogs && base.size > maxSplit =>
        (0L until base.size by maxSplit).map(s => SliceSplit(slice, s, math.min(maxSplit, base.size - s)))
      case Some(base) => Seq(SliceSplit(slice, 0L, base.size))
      case None => Seq(SliceSplit(slice, 0L, 0L))
    }
  }

  /**
   * Packs splits into the tasks of a scan. Spark's own count comes first: splits, largest first,
   * fill groups of at most `maxSplit` bytes, counting `openCostInBytes` for each. That count is
   * rounded up to a multiple of `parallelism`, and the splits are then dealt, largest first, to
   * the task with the fewest bytes so far: a small table's scan of three uneven tasks on two
   * cores ran its last task alone, and one task per slice paid each task's start many times over.
   */
  def pack(splits: Seq[SliceSplit], maxSplit: Long, openCostInBytes: Long, parallelism: Int): Seq[Seq[SliceSplit]] = {
    if (splits.isEmpty) return Nil
    val bySize = splits.sortBy(s => -s.cost)
    val p = math.max(1, parallelism)
    val tasks = math.min(splits.size, (sparkGroups(bySize, maxSplit, openCostInBytes) + p - 1) / p * p)
    // (bytes so far, task index): the lightest task first, ties to the lower index
    val lightest = mutable.PriorityQueue.empty[(Long, Int)](Ordering[(Long, Int)].reverse)
    val groups = Array.fill(tasks)(ArrayBuffer.empty[SliceSplit])
    (0 until tasks).foreach(t => lightest.enqueue((0L, t)))
    bySize.foreach { s =>
      val (bytes, t) = lightest.dequeue()
      groups(t) += s
      lightest.enqueue((bytes + s.cost + openCostInBytes, t))
    }
    groups.toSeq.map(_.toList)
  }

  /** How many groups Spark's packing makes of `bySize` (sorted largest first). */
  private def sparkGroups(bySize: Seq[SliceSplit], maxSplit: Long, openCostInBytes: Long): Int = {
    var groups = 0
    var size = 0L
    var empty = true
    bySize.foreach { s =>
      if (!empty && size + s.cost > maxSplit) { groups += 1; size = 0L; empty = true }
      size += s.cost + openCostInBytes
      empty = false
    }
    if (empty) groups else groups + 1
  }
}
