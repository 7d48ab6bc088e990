// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.CommitMetadata
import io.pyhudi.write.WriteOperation
import io.pyhudi.write.plan.Bucket

/**
 * A file group that a write will update, as announced in the workload profile.
 *
 * @param baseInstant the instant of the group's current base file (its `prevCommit`)
 */
final case class PlannedUpdate(partitionPath: String, fileId: String, baseInstant: String, numUpdates: Long)

/** Commit-metadata pieces of a write: the inflight workload, size estimates. */
object Commits {

  /**
   * The workload profile Hudi writes into the inflight file (hudi-format.md §2.2.1): per
   * partition one entry with `fileId` "" and the rows going to new file groups, then one entry
   * per updated file group; paths, partition paths and runtime stats null, other counters 0.
   *
   * @param inserts rows inserted into new file groups, per partition (0 is allowed)
   * @param updates file groups receiving updates
   */
  def workloadProfile(operationType: String, inserts: Map[String, Long],
      updates: Seq[PlannedUpdate] = Nil): CommitMetadata = {
    val partitions = (inserts.keys.toSeq.sorted ++ updates.map(_.partitionPath)).distinct
    val stats = partitions.flatMap { p =>
      WriteStats.plannedInserts(p, inserts.getOrElse(p, 0L)) +:
        updates.filter(_.partitionPath == p).map(WriteStats.plannedUpdate)
    }
    CommitMetadata(stats, Map.empty, Map.empty, Some(operationType), compacted = false)
  }

  /** The inflight file's workload profile of `op`: inserts per partition and the groups to update. */
  def workload(op: WriteOperation, updated: Seq[Bucket], inserts: Map[String, Long]): CommitMetadata =
    workloadProfile(op.metadataName, inserts,
      updated.map(b => PlannedUpdate(b.partitionPath, b.fileId, b.base.map(_.instant).getOrElse(""), 0L)))

  /**
   * Bytes per record from the newest commit that wrote records (Hudi's estimate), else the
   * configured default.
   */
  def averageRecordSize(table: HoodieTable, default: Long): Long =
    table.timeline.completedWrites.reverseIterator.take(20).map(table.commitMetadata).map { m =>
      val records = m.writeStats.map(_.numWrites).sum
      val bytes = m.writeStats.map(_.totalWriteBytes).sum
      if (records > 0 && bytes > 0) Some(math.max(1L, bytes / records)) else None
    }.collectFirst { case Some(size) => size }.getOrElse(default)
}
