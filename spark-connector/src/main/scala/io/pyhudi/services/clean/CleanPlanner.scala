// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clean

import scala.jdk.CollectionConverters._

import org.apache.avro.generic.GenericRecord

import io.pyhudi.filegroup.{FileGroup, FileGroupId, FileSlice, FileSystemView, PartitionLister}
import io.pyhudi.services.compaction.{CompactionOperations, CompactionTransaction}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, Instant, InstantTimeGenerator, State, TimelineWriter}
import io.pyhudi.timeline.avro.{ActionInstant, CleanFileInfo, CleanerPlan, RequestedReplaceMetadata, SavepointMetadata}

/**
 * Decides which files a clean deletes: whole file slices (base file and its log files) that no
 * query within the policy's retention reads. Reads the timeline, the plans of pending services,
 * savepoint metadata and one listing of the table; never data files.
 *
 * Never deleted: the latest slice of a file group that is not replaced; a slice a pending
 * compaction reads; every slice of a file group a pending clustering reads; a slice holding a
 * file a completed savepoint lists; files of pending or failed instants (the view does not show
 * them, so they are never candidates).
 *
 *  - KEEP_LATEST_COMMITS / KEEP_LATEST_BY_HOURS: an older slice goes when the slice that replaced
 *    it as the group's latest is older than the earliest retained commit (the N-th newest
 *    completed write, or the oldest one at or after the hours cut-off), so every slice that was
 *    latest at or after that commit, and the one before it, stays: snapshot, time travel and
 *    incremental reads from that commit on stay exact. A file group replaced by a replacecommit
 *    older than that commit goes whole. With too few commits nothing is cleaned.
 *  - KEEP_LATEST_FILE_VERSIONS: the newest N slices of each group stay (savepointed ones do not
 *    count); replaced file groups go whole.
 *
 * A pending write older than the earliest retained commit moves it back to that write, as Hudi
 * does, since the write will publish against the view of its start.
 */
object CleanPlanner {

  /** The plan, or None when there is nothing to delete. */
  def plan(table: HoodieTable, config: CleanConfig, nowMs: Long = System.currentTimeMillis()): Option[CleanerPlan] = {
    val timeline = table.timeline
    val writes = timeline.completedWrites
    if (writes.isEmpty) return None
    val latest = writes.last.timestamp
    val earliest: Option[Instant] = config.policy match {
      case CleanPolicy.KeepLatestCommits =>
        if (writes.size > config.commitsRetained) Some(writes(writes.size - config.commitsRetained)) else None
      case CleanPolicy.KeepLatestByHours =>
        val cutoff = InstantTimeGenerator.format(nowMs - config.hoursRetained.toLong * 3600L * 1000L)
        writes.find(_.timestamp >= cutoff)
      case CleanPolicy.KeepLatestFileVersions => None
    }
    val byCommits = config.policy != CleanPolicy.KeepLatestFileVersions
    if (byCommits && earliest.isEmpty) return None
    val firstPending = timeline.pendingWrites.find(i => Action.Writes(i.action))
    val retain: Option[Instant] = earliest.map(e => firstPending.filter(_.timestamp < e.timestamp).getOrElse(e))
    val retainFrom: Option[String] = retain.map(_.timestamp)

    val listing = PartitionLister.list(table.storage, table.basePath)
    val groups = new FileSystemView(timeline, listing, latest, Set.empty).fileGroups
    val replacedAt = replacedFileGroups(table)
    val savepointed = savepointedFiles(table)
    val compacting: Set[(FileGroupId, String)] = CompactionTransaction.pendingCompactions(table)
      .flatMap(_._2.operations.getOrElse(Nil))
      .map(op => CompactionOperations.groupId(op) -> op.baseInstantTime.getOrElse("")).toSet
    val clustering = pendingClusteringGroups(table)

    def isSavepointed(s: FileSlice): Boolean =
      s.baseFile.exists(b => savepointed(b.name)) || s.logFiles.exists(l => savepointed(l.name))
    def isProtected(s: FileSlice): Boolean =
      isSavepointed(s) || compacting((s.groupId, s.baseInstant)) || clustering(s.groupId)

    def doomed(g: FileGroup): Seq[FileSlice] = {
      val replaced = replacedAt.get(g.id)
      val candidates: Seq[FileSlice] = config.policy match {
        case CleanPolicy.KeepLatestFileVersions =>
          if (replaced.isDefined) g.slices
          else g.slices.reverse.filterNot(isSavepointed).drop(config.fileVersionsRetained)
        case _ =>
          val from = retainFrom.get
          if (replaced.exists(_ < from)) g.slices
          else g.slices.zip(g.slices.drop(1)).collect { case (s, next) if next.baseInstant < from => s }
      }
      candidates.filterNot(isProtected)
    }

    val files: Map[String, Seq[CleanFileInfo]] = groups.flatMap(doomed)
      .flatMap(s => (s.baseFile.map(_.path).toSeq ++ s.logFiles.map(_.path)).map(s.groupId.partitionPath -> _))
      .groupMap(_._1)(p => CleanFileInfo(p._2))
    if (files.isEmpty) None
    else Some(CleanerPlan(retain.map(i => ActionInstant(i.timestamp, i.action, stateName(i.state))),
        config.policy.name, files.map { case (p, fs) => p -> fs.sortBy(_.filePath) }))
  }

  /** Hudi's names of instant states, as a cleaner plan records them. */
  private def stateName(s: State): String = s match {
    case State.Completed => "COMPLETED"
    case State.Inflight => "INFLIGHT"
    case State.Requested => "REQUESTED"
  }

  /** File groups replaced by completed replacecommits, with the replacing instant. */
  def replacedFileGroups(table: HoodieTable): Map[FileGroupId, String] =
    table.timeline.completedWrites.filter(_.action == Action.ReplaceCommit).flatMap { i =>
      table.commitMetadata(i).replacedFileIds.toSeq.flatMap { case (p, ids) =>
        ids.map(FileGroupId(p, _) -> i.timestamp)
      }
    }.toMap

  /** Names of the data files completed savepoints keep. */
  def savepointedFiles(table: HoodieTable): Set[String] = {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    table.timeline.instants.filter(i => i.action == Action.Savepoint && i.isCompleted).flatMap { i =>
      SavepointMetadata.fromBytes(writer.read(i), writer.path(i)).fileNames
    }.toSet
  }

  /** File groups the clustering plans of pending replacecommits read. */
  def pendingClusteringGroups(table: HoodieTable): Set[FileGroupId] = {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    table.timeline.instants.filter(i => i.action == Action.ReplaceCommit && !i.isCompleted).flatMap { i =>
      val requested = Instant(i.timestamp, Action.ReplaceCommit, State.Requested)
      val bytes = if (table.storage.exists(writer.path(requested))) writer.read(requested) else Array.emptyByteArray
      if (bytes.isEmpty) Nil
      else
        RequestedReplaceMetadata.fromBytes(bytes, writer.path(requested)).clusteringPlan.toSeq.flatMap(clusteredGroups)
    }.toSet
  }

  private def clusteredGroups(plan: GenericRecord): Seq[FileGroupId] = {
    def recs(r: GenericRecord, f: String): Seq[GenericRecord] =
      Option(r.get(f)).map(
        _.asInstanceOf[java.util.Collection[AnyRef]].asScala.toSeq.map(_.asInstanceOf[GenericRecord]))
        .getOrElse(Nil)
    def s(r: GenericRecord, f: String): String = Option(r.get(f)).map(_.toString).getOrElse("")
    recs(plan, "inputGroups").flatMap(g => recs(g, "slices")).map(sl =>
      FileGroupId(s(sl, "partitionPath"), s(sl, "fileId")))
  }
}
