// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.archive

import io.pyhudi.filegroup.{BaseFile, LogFile, PartitionLister}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, Instant, Timeline, TimelineWriter}
import io.pyhudi.timeline.avro.{CleanMetadata, RestoreMetadata, RollbackMetadata}

/**
 * What the table's own records hold archival back by, besides the timeline's shape.
 *
 * @param cleanRetained the earliest commit the latest completed clean retains: clean keeps every
 *   slice from it on, so the commits from it on stay active
 * @param rolledBackLeftovers instants rolled back (by a rollback or restore still on the active
 *   timeline) whose log files are still on storage: their blocks stay hidden only while the
 *   first active write sorts before them (hudi-format.md §2.3)
 * @param replacedLeftovers completed replacecommits whose replaced file groups still have files:
 *   once archived, readers would no longer know those groups are replaced
 */
final case class ArchiveLimits(
    cleanRetained: Option[String] = None,
    rolledBackLeftovers: Seq[String] = Nil,
    replacedLeftovers: Set[String] = Set.empty)

/**
 * Picks the instants an archival moves off the active timeline, as Apache Hudi's archiver does
 * (hudi-format.md §2.6): nothing while at most `maxCommits` completed commits, deltacommits and
 * replacecommits are active; else the oldest of them down to `minCommits`, cut short before the
 * clean's earliest retained commit, the earliest savepoint, the earliest pending instant of any
 * action and the limits of [[ArchiveLimits]]. Every other instant (clean, rollback, restore)
 * older than both the first kept commit and those stops goes with them, so what stays is a
 * suffix of the timeline: readers count data older than the first active write as committed.
 */
object ArchivePlanner {

  /** The instants to archive, in the state the timeline shows them, oldest first. */
  def plan(table: HoodieTable, config: ArchiveConfig): Seq[Instant] = {
    val timeline = table.timeline
    // The limits read metadata and list files: only when archival would take something.
    if (select(timeline, config, ArchiveLimits()).isEmpty) Nil
    else select(timeline, config, limits(table))
  }

  /** [[plan]] on a timeline with known limits. */
  def select(timeline: Timeline, config: ArchiveConfig, limits: ArchiveLimits): Seq[Instant] = {
    val writes = timeline.completedWrites
    if (writes.size <= config.maxCommits) return Nil
    def before(t: String): Int = writes.count(_.timestamp < t)
    val stops: Seq[String] = limits.cleanRetained.toSeq ++ timeline.savepoints.headOption.map(_.timestamp) ++
      timeline.instants.find(!_.isCompleted).map(_.timestamp)
    // A rolled-back instant needs a kept write before it, not only after it.
    val counts = Seq(writes.size - config.minCommits) ++ stops.map(before) ++
      limits.rolledBackLeftovers.map(t => math.max(0, before(t) - 1)) ++
      Seq(writes.indexWhere(w => limits.replacedLeftovers(w.timestamp))).filter(_ >= 0)
    val archived = counts.min
    if (archived <= 0) Nil
    else {
      val cut = (writes(archived).timestamp +: stops).min
      timeline.instants.filter(i => i.timestamp < cut && i.action != Action.Savepoint)
    }
  }

  /** The limits found in the table's clean, rollback, restore and replace metadata and its files. */
  def limits(table: HoodieTable): ArchiveLimits = {
    val timeline = table.timeline
    val writer = new TimelineWriter(table.storage, table.metaPath)
    val cleanRetained = timeline.instants.filter(i => i.action == Action.Clean && i.isCompleted).lastOption
      .map(i => CleanMetadata.fromBytes(writer.read(i), writer.path(i)).earliestCommitToRetain)
      .filter(_.nonEmpty)
    val rollbacks: Seq[RollbackMetadata] = timeline.instants.filter(_.isCompleted).flatMap {
      case i if i.action == Action.Rollback => Seq(RollbackMetadata.fromBytes(writer.read(i), writer.path(i)))
      case i if i.action == Action.Restore =>
        RestoreMetadata.fromBytes(writer.read(i), writer.path(i)).rollbacks.values.flatten
      case _ => Nil
    }
    val rolledBack = rollbacks.filter(m => leftovers(table, m).exists(table.storage.exists))
      .flatMap(_.commitsRollback).distinct
    ArchiveLimits(cleanRetained, rolledBack, replacedLeftovers(table, timeline))
  }

  /**
   * Files a rollback left of its target: the failed log files it cancelled with a command block
   * and files it could not delete. Metadata holds the paths of the table's location then (Hudi
   * writes `file:/...`); a table may have moved since, so each is looked up by name in its
   * partition.
   */
  private def leftovers(table: HoodieTable, m: RollbackMetadata): Seq[String] =
    m.partitionMetadata.values.toSeq.flatMap { p =>
      (p.logFilesFromFailedCommit.getOrElse(Map.empty).keys ++ p.failedDeleteFiles).map { path =>
        val name = path.substring(path.lastIndexOf('/') + 1)
        if (p.partitionPath.isEmpty) s"${table.basePath}/$name" else s"${table.basePath}/${p.partitionPath}/$name"
      }
    }

  private def replacedLeftovers(table: HoodieTable, timeline: Timeline): Set[String] = {
    val replaces = timeline.completedWrites.filter(_.action == Action.ReplaceCommit)
      .map(i => i.timestamp -> table.commitMetadata(i).replacedFileIds).filter(_._2.nonEmpty)
    if (replaces.isEmpty) return Set.empty
    val partitions = replaces.flatMap(_._2.keys).distinct
    val present: Set[(String, String)] = PartitionLister.listSome(table.storage, table.basePath, partitions)
      .flatMap { case (p, files) =>
        files.flatMap(f =>
          BaseFile.parse(f.path, f.size).map(_.fileId).orElse(LogFile.parse(f.path, f.size).map(_.fileId)))
          .map(p -> _)
      }.toSet
    replaces.collect { case (t, ids) if ids.exists { case (p, fs) => fs.exists(f => present((p, f))) } => t }.toSet
  }
}
