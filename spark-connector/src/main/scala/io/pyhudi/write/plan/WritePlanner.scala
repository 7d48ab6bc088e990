// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.plan

import scala.collection.mutable

import io.pyhudi.filegroup.BaseFile
import io.pyhudi.write.Location

/**
 * File sizing for inserts, as Apache Hudi does it: inserts first fill the partition's small
 * file groups (latest base file under `smallFileLimit`) up to `maxFileSize`, then go to new file
 * groups of `maxFileSize / avgRecordSize` records each.
 *
 * @param avgRecordSize bytes per record, estimated from earlier commits
 */
final case class FileSizing(smallFileLimit: Long, maxFileSize: Long, avgRecordSize: Long) {
  def recordsPerFile: Long = math.max(1L, maxFileSize / math.max(1L, avgRecordSize))
}

object WritePlanner {

  /**
   * @param updates     file groups that receive updates or deletes, with their base files
   * @param inserts     number of records to insert per partition
   * @param latestBases latest base file of every file group in the partitions with inserts
   * @param newFileId   a fresh file id for a new file group
   */
  def plan(
      updates: Map[Location, BaseFile],
      inserts: Map[String, Long],
      latestBases: Map[String, Seq[BaseFile]],
      sizing: FileSizing,
      newFileId: () => String,
      useSmallFiles: Boolean = true): WritePlan = {
    val buckets = mutable.ArrayBuffer.empty[Bucket]
    val byLocation = mutable.LinkedHashMap.empty[Location, Int]
    def bucketOf(loc: Location, base: Option[BaseFile]): Int =
      byLocation.getOrElseUpdate(loc, {
          buckets += Bucket(buckets.size, loc.partitionPath, loc.fileId, base)
          buckets.size - 1
        })
    updates.toSeq.sortBy { case (l, _) => (l.partitionPath, l.fileId) }
      .foreach { case (loc, base) => bucketOf(loc, Some(base)) }
    val updateBuckets = byLocation.toMap

    val insertTargets = inserts.toSeq.sortBy(_._1).filter(_._2 > 0).map { case (partition, count) =>
      var left = count
      val shares = mutable.ArrayBuffer.empty[(Int, Long)]
      val small = if (!useSmallFiles) Nil
      else latestBases.getOrElse(partition, Nil)
        .filter(_.size < sizing.smallFileLimit).sortBy(_.size)
      small.foreach { b =>
        val room = (sizing.maxFileSize - b.size) / math.max(1L, sizing.avgRecordSize)
        val take = math.min(room, left)
        if (take > 0) {
          shares += bucketOf(Location(partition, b.fileId), Some(b)) -> take
          left -= take
        }
      }
      while (left > 0) {
        val take = math.min(sizing.recordsPerFile, left)
        shares += bucketOf(Location(partition, newFileId()), None) -> take
        left -= take
      }
      var cumulative = 0L
      partition -> shares.map { case (b, n) =>
        cumulative += n
        b -> cumulative.toDouble / count
      }.toIndexedSeq
    }.toMap
    WritePlan(buckets.toIndexedSeq, updateBuckets, insertTargets)
  }
}
