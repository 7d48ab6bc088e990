// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clustering

import scala.util.control.NonFatal

import io.pyhudi.errors.{Errors, PyhudiException}
import io.pyhudi.filegroup.{BaseFile, FileGroupId}
import io.pyhudi.storage.Storage
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, InstantTimeGenerator, State, TimelineWriter, WriteStat}
import io.pyhudi.timeline.avro.{ClusteringPlan, RequestedReplaceMetadata}
import io.pyhudi.transaction.{ConcurrencyConfig, ConcurrentChanges, Heartbeat}
import io.pyhudi.write.commit.{CommitStep, IOType, Markers}

/**
 * The timeline lifecycle of a clustering instant `T` (hudi-format.md §2.2, §3.3, §8):
 * [[schedule]] writes `T.replacecommit.requested` (operationType CLUSTER and the plan),
 * [[start]] writes the empty `T.replacecommit.inflight`, executors write base files
 * `<newFileId>_<token>_T.parquet` of new file groups after creating a marker ([[markers]]), and
 * [[commit]] publishes `T.replacecommit` with the new files' stats and the plan's file groups as
 * `partitionToReplaceFileIds`. A failed execution is undone by [[rollbackInflight]], which
 * returns `T` to requested so that it is executed again, as Apache Hudi does with an inflight
 * clustering whose writer died; failed-write rollback leaves pending clusterings alone.
 *
 * Steps read the timeline from storage; scheduling and committing hold the table lock, and an
 * execution beats the instant's heartbeat (returned by [[start]]).
 */
object ClusteringTransaction {

  /**
   * Writes `T.replacecommit.requested` holding `plan` and returns `T`.
   *
   * @throws io.pyhudi.errors.WriteConflictException when the timeline changed since `table.timeline`
   * @throws io.pyhudi.errors.CommitFailedException when the plan is empty, names a file group
   *         twice or one a pending compaction or clustering reads, or a write is pending
   */
  def schedule(table: HoodieTable, plan: ClusteringPlan,
      generator: InstantTimeGenerator = InstantTimeGenerator.Default,
      concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): String =
    locked(table, concurrency) {
      val writer = new TimelineWriter(table.storage, table.metaPath)
      val now = writer.timeline()
      val changed = ConcurrentChanges.since(table.timeline, now)
      if (changed.nonEmpty)
        throw Errors.clusteringConflict(s"instant(s) ${ConcurrentChanges.describe(changed)} appeared or " +
          "advanced after the clustering plan was made")
      val instant = generator.next(now)
      val groups = ClusteringSlices.groupIds(plan)
      if (groups.isEmpty) throw Errors.clusteringRejected(instant, "the plan has no file slices")
      if (groups.distinct.size != groups.size)
        throw Errors.clusteringRejected(instant, "the plan names a file group twice")
      val pendingWrites = now.pendingWrites.filter(i =>
        Action.Writes(i.action) && !isClustering(table.storage, table.metaPath, i.timestamp))
      if (pendingWrites.nonEmpty)
        throw Errors.clusteringRejected(instant,
          s"write(s) ${pendingWrites.mkString(", ")} are pending; roll back failed writes first")
      val busy = ClusteringPlanner.busyFileGroups(table)
      val overlap = groups.filter(busy)
      if (overlap.nonEmpty)
        throw Errors.clusteringRejected(instant,
          s"file groups are already in a pending compaction or clustering: ${overlap.mkString(", ")}")
      writer.requested(instant, Action.ReplaceCommit, plan.toRequested.toBytes)
      instant
    }

  private def locked[T](table: HoodieTable, concurrency: ConcurrencyConfig)(body: => T): T =
    concurrency.withLock(table.storage, table.metaPath)(body)

  /** Writes the empty `T.replacecommit.inflight`; returns the execution's heartbeat, which the caller closes. */
  def start(
      table: HoodieTable, instant: String, concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): Heartbeat =
    locked(table, concurrency) {
      val writer = new TimelineWriter(table.storage, table.metaPath)
      expectState(writer, instant, "start", State.Requested)
      val beat = Heartbeat.start(table.storage, table.metaPath, instant, concurrency.heartbeat)
      try writer.inflight(instant, Action.ReplaceCommit)
      catch { case NonFatal(e) => beat.close(); throw e }
      beat
    }

  /** True when another process is executing clustering `T` now (its heartbeat is live). */
  def isRunning(
      table: HoodieTable, instant: String, concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): Boolean =
    Heartbeat.isAlive(table.storage, table.metaPath, instant, concurrency.heartbeat)

  /** Where executors record the base files they are about to write for `T` (IOType CREATE). */
  def markers(table: HoodieTable, instant: String): Markers = new Markers(table.storage, table.basePath, instant)

  /**
   * Publishes clustering `T`: deletes base files that have a marker but are not among `stats`
   * (failed task attempts), writes `T.replacecommit` (the commit point) with operationType
   * CLUSTER, `extraMetadata.schema`, the stats of the new files and every file group of the plan
   * as replaced, then deletes `.hoodie/.temp/T`. Every stat must be a base file of instant `T`
   * in a new file group of a partition of the plan.
   *
   * @throws io.pyhudi.errors.CommitFailedException before the commit point; [[rollbackInflight]] is safe
   * @throws io.pyhudi.errors.CommitStateUnknownException when the outcome of the commit point is unknown
   */
  def commit(table: HoodieTable, instant: String, stats: Seq[WriteStat], schemaJson: String,
      concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): Unit = locked(table, concurrency) {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    expectState(writer, instant, "commit", State.Inflight)
    if (schemaJson.trim.isEmpty) throw Errors.clusteringRejected(instant, "the schema is empty")
    val groups = ClusteringSlices.groupIds(plan(writer, instant))
    checkStats(instant, groups, stats)
    try reconcile(table, instant, stats)
    catch {
      case e: PyhudiException => throw e
      case NonFatal(e) => throw Errors.commitFailed(instant, s"cannot reconcile markers (${e.getMessage})", e)
    }
    val replaced = groups.groupMap(_.partitionPath)(_.fileId).map { case (p, ids) => p -> ids.sorted }
    val metadata = CommitMetadata(stats, replaced, Map("schema" -> schemaJson), Some(ClusteringPlan.OperationType),
      compacted = false, replaceCommit = true)
    CommitStep.publish(table.storage, writer, instant, Action.ReplaceCommit, metadata.toJson)
    CommitStep.cleanUp(markers(table, instant))
  }

  /** Requested and inflight clusterings with their plans, oldest first. */
  def pendingClusterings(table: HoodieTable): Seq[(String, ClusteringPlan)] = {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    writer.timeline().instants.filter(i => i.action == Action.ReplaceCommit && !i.isCompleted)
      .flatMap(i => pendingPlan(table.storage, table.metaPath, i.timestamp).map(i.timestamp -> _))
  }

  /**
   * The clustering plan of pending replacecommit `T`, None when `T` is no clustering (an
   * insert_overwrite requests no plan) or its requested file is gone.
   */
  def pendingPlan(storage: Storage, metaPath: String, instant: String): Option[ClusteringPlan] =
    ClusteringPlan.requested(new TimelineWriter(storage, metaPath), instant)

  /** True when pending replacecommit `T` is a clustering. */
  def isClustering(storage: Storage, metaPath: String, instant: String): Boolean =
    pendingPlan(storage, metaPath, instant).isDefined

  /** File groups of pending clusterings, with the clustering instant that reads each. */
  def pendingFileGroups(table: HoodieTable): Map[FileGroupId, String] =
    pendingClusterings(table).flatMap { case (t, p) => ClusteringSlices.groupIds(p).map(_ -> t) }.toMap

  /**
   * Fails when a write would update, delete from or append to file groups a pending clustering
   * rewrites (Apache Hudi's default `SparkRejectUpdateStrategy`).
   *
   * @throws io.pyhudi.errors.WriteConflictException naming the clustering instants and file groups
   */
  def rejectUpdates(table: HoodieTable, instant: String, touched: Iterable[FileGroupId]): Unit = {
    val pending = pendingFileGroups(table)
    val hit = touched.toSeq.distinct.flatMap(g => pending.get(g).map(_ -> g))
    if (hit.nonEmpty)
      throw Errors.updateUnderClustering(instant,
        hit.groupMap(_._1)(_._2).toSeq.sortBy(_._1).map { case (t, gs) =>
          s"clustering $t: " + gs.map(g => if (g.partitionPath.isEmpty) g.fileId else s"${g.partitionPath}/${g.fileId}")
            .sorted.mkString(", ")
        })
  }

  /**
   * Undoes a failed execution of `T`: deletes the files its markers name and every base file of
   * instant `T` in the plan's partitions (the new file groups), then the markers, then
   * `T.replacecommit.inflight`, so that `T` is requested again. Repeatable. Returns the deleted paths.
   *
   * @throws io.pyhudi.errors.InstantStateException when `T` completed or is no pending clustering
   */
  def rollbackInflight(table: HoodieTable, instant: String): Seq[String] = {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    val files = writer.stateFiles().filter(_.timestamp == instant)
    if (files.exists(_.isCompleted)) throw Errors.cannotRollBackCompleted(instant)
    if (!files.exists(i => i.action == Action.ReplaceCommit && i.state == State.Requested) ||
      !isClustering(table.storage, table.metaPath, instant))
      throw Errors.clusteringState(instant, "roll back", "no requested clustering")
    val partitions = ClusteringSlices.groupIds(plan(writer, instant)).map(_.partitionPath).distinct
    val marked = markers(table, instant).list().map(m => s"${table.basePath}/${m.dataPath}")
    val written = partitions.flatMap { p =>
      val dir = if (p.isEmpty) table.basePath else s"${table.basePath}/$p"
      if (!table.storage.exists(dir)) Nil
      else table.storage.listFiles(dir).flatMap(f => BaseFile.parse(f.path, f.size)).filter(_.instant == instant)
        .map(_.path)
    }
    val deleted = (marked ++ written).distinct.filter(table.storage.exists)
    deleted.foreach { path =>
      if (!table.storage.delete(path) && table.storage.exists(path))
        throw new java.io.IOException(s"Cannot delete $path written by clustering $instant")
    }
    markers(table, instant).deleteAll()
    files.filter(_.state == State.Inflight).foreach(i => table.storage.delete(writer.path(i)))
    deleted
  }

  /** The plan of pending clustering `T`. */
  def plan(writer: TimelineWriter, instant: String): ClusteringPlan = {
    val requested = Instant(instant, Action.ReplaceCommit, State.Requested)
    RequestedReplaceMetadata.fromBytes(writer.read(requested), writer.path(requested)).clusteringPlan
      .map(ClusteringPlan.fromRecord)
      .getOrElse(throw Errors.clusteringState(instant, "read the plan of", "an insert_overwrite, not a clustering"))
  }

  private def expectState(writer: TimelineWriter, instant: String, step: String, wanted: State): Unit = {
    val files = writer.stateFiles().filter(_.timestamp == instant)
    val state =
      if (files.exists(_.isCompleted)) "completed"
      else if (files.exists(i => i.action == Action.ReplaceCommit && i.state == State.Inflight)) "inflight"
      else if (files.exists(i => i.action == Action.ReplaceCommit && i.state == State.Requested)) "requested"
      else "no clustering"
    val ok = (wanted == State.Requested && state == "requested") || (wanted == State.Inflight && state == "inflight")
    if (!ok) throw Errors.clusteringState(instant, step, state)
  }

  private def checkStats(instant: String, groups: Seq[FileGroupId], stats: Seq[WriteStat]): Unit = {
    val partitions = groups.map(_.partitionPath).toSet
    val input = groups.toSet
    stats.foreach { s =>
      val base = BaseFile.parse(s.fileName.getOrElse(""), 0)
      if (!base.exists(b => b.instant == instant && b.fileId == s.fileId))
        throw Errors.clusteringRejected(instant,
          s"stat path ${s.path.orNull} is not a base file of file group ${s.fileId} at instant $instant")
      if (!partitions(s.partitionPath))
        throw Errors.clusteringRejected(instant, s"partition '${s.partitionPath}' is not in the plan")
      if (input(FileGroupId(s.partitionPath, s.fileId)))
        throw Errors.clusteringRejected(instant,
          s"file group ${s.partitionPath}/${s.fileId} is an input, not a new group")
    }
    val ids = stats.map(s => FileGroupId(s.partitionPath, s.fileId))
    if (ids.distinct.size != ids.size) throw Errors.clusteringRejected(instant, "two stats for one file group")
  }

  private def reconcile(table: HoodieTable, instant: String, stats: Seq[WriteStat]): Unit = {
    val written = stats.flatMap(_.path).map(_.stripPrefix("/")).toSet
    markers(table, instant).list().filterNot(m => written(m.dataPath)).foreach { m =>
      if (m.ioType == IOType.Append)
        throw Errors.clusteringRejected(instant,
          s"marker ${m.markerName} names a log file; clustering writes base files")
      table.storage.delete(s"${table.basePath}/${m.dataPath}")
    }
  }
}
