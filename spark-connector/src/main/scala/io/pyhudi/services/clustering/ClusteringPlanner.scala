// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clustering

import io.pyhudi.config.WriteConfig
import io.pyhudi.filegroup.{CommittedFiles, FileGroupId, FileSlice, FileSystemView, PartitionLister}
import io.pyhudi.services.compaction.{CompactionOperations, CompactionTransaction}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, Instant}
import io.pyhudi.timeline.avro.{ClusteringGroup, ClusteringPlan, ClusteringStrategy}

/**
 * Chooses what a clustering rewrites, as Apache Hudi's size-based plan strategy does: in each
 * selected partition, the latest slices (at the latest completed write, replaced groups
 * excluded) whose base file is smaller than the small-file limit (a log-only slice counts as
 * size 0: merge-on-read slices are clustered with their logs, merged), leaving out file groups
 * that a pending compaction or clustering already reads. Reads the timeline and listings only.
 */
object ClusteringPlanner {

  /** Apache Hudi's execution strategy, which the plan names: sort (when columns are given), then size. */
  val ExecutionStrategyClass = "org.apache.hudi.client.clustering.run.strategy.SparkSortAndSizeExecutionStrategy"

  /** The plan, or None when no partition has enough small slices. */
  def plan(table: HoodieTable, config: ClusteringConfig): Option[ClusteringPlan] = {
    val byPartition = eligibleSlices(table, config).groupBy(_.groupId.partitionPath).toSeq.sortBy(_._1)
    val groups = byPartition.iterator.flatMap { case (_, slices) => formGroups(slices, config) }
      .take(config.maxNumGroups).toSeq
    if (groups.isEmpty) None
    else {
      val params = if (config.sortColumns.isEmpty) Map.empty[String, String]
      else Map(WriteConfig.ClusteringSortColumns.key -> config.sortColumns.mkString(","))
      Some(ClusteringPlan(
          inputGroups = Some(groups.map(g =>
              ClusteringGroup(Some(g.map(ClusteringSlices.fromSlice)),
                Some(ClusteringSlices.metrics(g, config.targetFileMaxBytes)),
                Some(outputGroups(g, config.targetFileMaxBytes)), Some(Map.empty)))),
          strategy = Some(ClusteringStrategy(Some(ExecutionStrategyClass), Some(params))),
          extraMetadata = Some(Map.empty)))
    }
  }

  /** Bytes a slice contributes to a group: its base file plus its log files. */
  def size(slice: FileSlice): Long = slice.totalSize

  /** Output file groups Hudi plans for a clustering group: its bytes over the target file size, at least 1. */
  def outputGroups(slices: Seq[FileSlice], targetFileMaxBytes: Long): Int =
    math.max(1L, (slices.map(size).sum + targetFileMaxBytes - 1) / targetFileMaxBytes).toInt

  /**
   * Groups one partition's eligible slices, largest first (then by file id), each group taking
   * slices until the next would push it past `maxBytesPerGroup`. A group of one slice is dropped
   * unless sort columns are set: rewriting a single file unsorted changes nothing.
   */
  def formGroups(slices: Seq[FileSlice], config: ClusteringConfig): Seq[Seq[FileSlice]] = {
    val ordered = slices.sortBy(s => (-size(s), s.groupId.fileId))
    val groups = ordered.foldLeft(Vector.empty[Vector[FileSlice]]) { (acc, s) =>
      acc.lastOption match {
        case Some(g) if g.map(size).sum + size(s) <= config.maxBytesPerGroup => acc.init :+ (g :+ s)
        case _ => acc :+ Vector(s)
      }
    }
    groups.filter(g => g.size > 1 || config.sortColumns.nonEmpty)
  }

  /**
   * The latest slices of the selected partitions that are small and in no pending compaction or
   * clustering.
   *
   * @throws io.pyhudi.errors.MissingFileException when a latest slice lost a file
   */
  def eligibleSlices(table: HoodieTable, config: ClusteringConfig): Seq[FileSlice] =
    table.timeline.latestCompletedWrite.map(_.timestamp) match {
      case None => Nil
      case Some(asOf) =>
        val busy = busyFileGroups(table)
        val listing = (config.partitions match {
          case Some(ps) => PartitionLister.listSome(table.storage, table.basePath, ps)
          case None => PartitionLister.list(table.storage, table.basePath)
        }).filter { case (p, _) => config.selects(p) }
        val replaced = FileSystemView.replacedFileGroups(table.timeline, asOf, table.commitMetadata)
        // Rewriting a slice that lost a file would publish another version of its records.
        val missing = CommittedFiles.missing(table.timeline, table.commitMetadata, listing, asOf, replaced,
          withLogs = true, keep = g => !busy(g))
        if (missing.nonEmpty) throw CommittedFiles.failure(table.basePath, missing, asOf, "clustering")
        new FileSystemView(table.timeline, listing, asOf, replaced).latestSlices.filter { s =>
          !busy(s.groupId) && (s.baseFile.nonEmpty || s.hasLogs) &&
          s.baseFile.map(_.size).getOrElse(0L) < config.smallFileLimit
        }
    }

  /** File groups a pending compaction or clustering reads. */
  def busyFileGroups(table: HoodieTable): Set[FileGroupId] =
    (CompactionTransaction.pendingCompactions(table).flatMap(_._2.operations.getOrElse(Nil))
      .map(CompactionOperations.groupId) ++
      ClusteringTransaction.pendingClusterings(table).flatMap(p => ClusteringSlices.groupIds(p._2))).toSet

  /**
   * True when at least `maxCommits` writes (commits, deltacommits, replacecommits other than
   * clusterings and compactions) completed after the latest completed clustering, or since the
   * start of the active timeline when there is none (`hoodie.clustering.inline.max.commits`).
   */
  def shouldClusterInline(table: HoodieTable, maxCommits: Int): Boolean =
    commitsSinceLastClustering(table) >= maxCommits

  def commitsSinceLastClustering(table: HoodieTable): Int = {
    val writes = table.timeline.completedWrites
    def clustering(i: Instant) = i.action == Action.ReplaceCommit &&
      table.commitMetadata(i).operationType.contains(ClusteringPlan.OperationType)
    val last = writes.reverseIterator.find(clustering).map(_.timestamp)
    writes.count(i => last.forall(i.timestamp > _) && !clustering(i) && !table.commitMetadata(i).compacted)
  }
}
