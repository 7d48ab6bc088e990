// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.compaction

import scala.util.control.NonFatal

import io.pyhudi.errors.{Errors, InstantConflictException, PyhudiException}
import io.pyhudi.filegroup.{BaseFile, FileGroupId}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, InstantTimeGenerator, State, TimelineWriter, WriteStat}
import io.pyhudi.timeline.avro.{ClusteringPlan, CompactionPlan}
import io.pyhudi.transaction.{ConcurrencyConfig, ConcurrentChanges, Heartbeat}
import io.pyhudi.write.commit.{CommitStep, IOType, Markers, Rollback}

/**
 * The timeline lifecycle of a compaction instant `T` (hudi-format.md §2.2.1, §2.5):
 * [[schedule]] writes `T.compaction.requested` (the plan), [[start]] writes the empty
 * `T.compaction.inflight`, executors write `<fileId>_<token>_T.parquet` after creating a
 * marker ([[markers]]), and [[commit]] publishes `T.commit` with `compacted: true`. A failed
 * execution is undone by [[rollbackInflight]] (a rollback instant, as Apache Hudi writes one), which returns `T` to requested so that it can be
 * executed again; a compaction is never rolled back past requested, nor after it completed.
 *
 * All state lives on the timeline, so every step may run in a different process. Steps read
 * the timeline from storage, never from the (possibly stale) `table.timeline`, except that
 * [[schedule]] checks that nothing changed since `table.timeline`, from which the plan was made.
 * Scheduling and committing hold the table lock; an execution beats the instant's heartbeat
 * (returned by [[start]]) so that no other process re-runs or rolls back a running compaction.
 */
object CompactionTransaction {

  val OperationType = "COMPACT"

  /**
   * Writes `T.compaction.requested` holding `plan` and returns `T`, an instant greater than
   * every instant on the timeline.
   *
   * @throws io.pyhudi.errors.CommitFailedException when the plan is empty, overlaps a pending
   *         compaction, or, with one writer at a time, a write is pending (roll failed writes
   *         back first: Hudi requires every pending write to be newer than a compaction it
   *         schedules). Under optimistic concurrency control pending writes are other writers
   *         at work: the plan is scheduled, and a write that touched one of its file groups
   *         loses at its commit (transaction.ConcurrentFileWrites), so its log files never
   *         land behind the compacted base file.
   */
  def schedule(table: HoodieTable, plan: CompactionPlan,
      generator: InstantTimeGenerator = InstantTimeGenerator.Default,
      concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): String =
    locked(table, concurrency) {
      val writer = new TimelineWriter(table.storage, table.metaPath)
      val now = writer.timeline()
      // A write that only started since the plan changes no slice the plan read; under
      // optimistic concurrency control that is another writer at work, not a reason to replan.
      val changed = ConcurrentChanges.since(table.timeline, now).filterNot(i =>
        concurrency.optimistic && !i.isCompleted && Action.Writes(i.action))
      if (changed.nonEmpty)
        throw Errors.compactionConflict(s"instant(s) ${ConcurrentChanges.describe(changed)} appeared or " +
          "advanced after the compaction plan was made")
      scheduleLocked(table, writer, now, plan, generator, allowPendingWrites = concurrency.optimistic)
    }

  private def locked[T](table: HoodieTable, concurrency: ConcurrencyConfig)(body: => T): T =
    concurrency.withLock(table.storage, table.metaPath)(body)

  private def scheduleLocked(table: HoodieTable, writer: TimelineWriter, timeline: io.pyhudi.timeline.Timeline,
      plan: CompactionPlan, generator: InstantTimeGenerator, allowPendingWrites: Boolean): String = {
    val instant = generator.next(timeline)
    val ops = plan.operations.getOrElse(Nil)
    if (ops.isEmpty) throw Errors.compactionRejected(instant, "the plan has no operations")
    if (!plan.version.contains(2))
      throw Errors.compactionRejected(instant, s"plan version ${plan.version.orNull} is not 2 (file names, not paths)")
    val groups = ops.map(CompactionOperations.groupId)
    if (groups.distinct.size != groups.size)
      throw Errors.compactionRejected(instant, "the plan names a file group twice")
    // A pending clustering is no failed write: it is executed later, and the plan skips its groups.
    val pendingWrites = timeline.pendingWrites.filter(i =>
      Action.Writes(i.action) &&
        !(i.action == Action.ReplaceCommit && ClusteringPlan.requested(writer, i.timestamp).isDefined))
    if (pendingWrites.nonEmpty && !allowPendingWrites)
      throw Errors.compactionRejected(instant,
        s"write(s) ${pendingWrites.mkString(", ")} are pending; " +
          "roll back failed writes first")
    val overlap = pendingCompactions(table).flatMap { case (t, p) =>
      p.operations.getOrElse(Nil).map(CompactionOperations.groupId).filter(groups.contains).map(g => s"$g in $t")
    }
    if (overlap.nonEmpty)
      throw Errors.compactionRejected(instant, s"file groups are already being compacted: ${overlap.mkString(", ")}")
    writer.requested(instant, Action.Compaction, plan.toBytes)
    instant
  }

  /**
   * Writes the empty `T.compaction.inflight`; `T` must be requested, not yet inflight. Returns
   * the execution's heartbeat, which the caller closes when the compaction committed or failed.
   */
  def start(
      table: HoodieTable, instant: String, concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): Heartbeat =
    locked(table, concurrency) {
      val writer = new TimelineWriter(table.storage, table.metaPath)
      expectState(writer, instant, "start", State.Requested)
      val beat = Heartbeat.start(table.storage, table.metaPath, instant, concurrency.heartbeat)
      try writer.inflight(instant, Action.Compaction)
      catch { case NonFatal(e) => beat.close(); throw e }
      beat
    }

  /** True when another process is executing compaction `T` now (its heartbeat is live). */
  def isRunning(
      table: HoodieTable, instant: String, concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): Boolean =
    Heartbeat.isAlive(table.storage, table.metaPath, instant, concurrency.heartbeat)

  /** Where executors record the base files they are about to write for `T` (IOType MERGE or CREATE). */
  def markers(table: HoodieTable, instant: String): Markers = new Markers(table.storage, table.basePath, instant)

  /**
   * Publishes compaction `T`: deletes base files that have a marker but are not among `stats`
   * (failed task attempts), writes `T.commit` (the commit point) with `compacted: true`,
   * `operationType` COMPACT and `extraMetadata.schema`, then deletes `.hoodie/.temp/T`.
   * Every stat must be a base file of instant `T` for a file group of the plan, one per group.
   *
   * @param schemaJson the writer's Avro schema (hudi-format.md §3.1), which readers need
   * @throws io.pyhudi.errors.CommitFailedException before the commit point; [[rollbackInflight]] is safe
   * @throws io.pyhudi.errors.CommitStateUnknownException when the outcome of the commit point is unknown
   */
  def commit(table: HoodieTable, instant: String, stats: Seq[WriteStat], schemaJson: String,
      concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): Unit = locked(table, concurrency) {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    expectState(writer, instant, "commit", State.Inflight)
    if (schemaJson.trim.isEmpty) throw Errors.compactionRejected(instant, "the schema is empty")
    checkStats(instant, plan(writer, instant), stats)
    try reconcile(table, instant, stats)
    catch {
      case e: PyhudiException => throw e
      case NonFatal(e) => throw Errors.commitFailed(instant, s"cannot reconcile markers (${e.getMessage})", e)
    }
    val metadata = CommitMetadata(stats, Map.empty, Map("schema" -> schemaJson), Some(OperationType),
      compacted = true)
    CommitStep.publish(table.storage, writer, instant, Action.Commit, metadata.toJson)
    CommitStep.cleanUp(markers(table, instant))
  }

  /** Requested and inflight compactions with their plans, oldest first. */
  def pendingCompactions(table: HoodieTable): Seq[(String, CompactionPlan)] = {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    writer.timeline().instants.filter(i => i.action == Action.Compaction && !i.isCompleted)
      .map(i => i.timestamp -> plan(writer, i.timestamp))
  }

  /**
   * Undoes a failed execution of `T` with a rollback instant `R` (as Apache Hudi does): `R`'s plan
   * deletes the files `T`'s markers name and any base file of instant `T` in the plan's file
   * groups; then `T.compaction.inflight` and the markers go, so that `T` is requested again and
   * can be re-executed. Repeatable. Returns the deleted paths.
   * Log files other writers appended against base instant `T` are left alone.
   *
   * @throws io.pyhudi.errors.InstantStateException when `T` completed or is no pending compaction
   */
  def rollbackInflight(table: HoodieTable, instant: String): Seq[String] = {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    val files = writer.stateFiles().filter(_.timestamp == instant)
    if (files.exists(_.isCompleted)) throw Errors.cannotRollBackCompleted(instant)
    if (!files.exists(i => i.action == Action.Compaction && i.state == State.Requested))
      throw Errors.compactionState(instant, "roll back", "no requested compaction")
    val groups = plan(writer, instant).operations.getOrElse(Nil).map(CompactionOperations.groupId).toSet
    val marked = markers(table, instant).list().map(m => s"${table.basePath}/${m.dataPath}")
    val orphans = groups.map(_.partitionPath).toSeq.flatMap { p =>
      val dir = if (p.isEmpty) table.basePath else s"${table.basePath}/$p"
      if (!table.storage.exists(dir)) Nil
      else table.storage.listFiles(dir).flatMap(f => BaseFile.parse(f.path, f.size))
        .filter(b => b.instant == instant && groups(FileGroupId(p, b.fileId))).map(_.path)
    }
    val deleted = (marked ++ orphans).distinct.filter(table.storage.exists)
    // As Apache Hudi does, the undone execution is a rollback instant naming the compaction; its
    // last step removes T.compaction.inflight and T's markers, leaving the plan requested.
    if (files.exists(_.state == State.Inflight) || deleted.nonEmpty)
      Rollback.rollbackCompaction(table, instant, deleted)
    markers(table, instant).deleteAll()
    deleted
  }

  private def plan(writer: TimelineWriter, instant: String): CompactionPlan = {
    val requested = Instant(instant, Action.Compaction, State.Requested)
    CompactionPlan.fromBytes(writer.read(requested), writer.path(requested))
  }

  private def expectState(writer: TimelineWriter, instant: String, step: String, wanted: State): Unit = {
    val files = writer.stateFiles().filter(_.timestamp == instant)
    val state =
      if (files.exists(_.isCompleted)) "completed"
      else if (files.exists(i => i.action == Action.Compaction && i.state == State.Inflight)) "inflight"
      else if (files.exists(i => i.action == Action.Compaction && i.state == State.Requested)) "requested"
      else "no compaction"
    val ok = (wanted == State.Requested && state == "requested") || (wanted == State.Inflight && state == "inflight")
    if (!ok) throw Errors.compactionState(instant, step, state)
  }

  private def checkStats(instant: String, plan: CompactionPlan, stats: Seq[WriteStat]): Unit = {
    val groups = plan.operations.getOrElse(Nil).map(CompactionOperations.groupId).toSet
    stats.foreach { s =>
      val name = s.fileName.getOrElse("")
      val base = BaseFile.parse(name, 0)
      if (!base.exists(b => b.instant == instant && b.fileId == s.fileId))
        throw Errors.compactionRejected(instant,
          s"stat path ${s.path.orNull} is not a base file of file " +
            s"group ${s.fileId} at instant $instant")
      if (!groups(FileGroupId(s.partitionPath, s.fileId)))
        throw Errors.compactionRejected(instant, s"file group ${s.partitionPath}/${s.fileId} is not in the plan")
    }
    val covered = stats.map(s => FileGroupId(s.partitionPath, s.fileId))
    if (covered.distinct.size != covered.size)
      throw Errors.compactionRejected(instant, "two stats for one file group")
    val missing = groups.toSeq.filterNot(covered.contains)
    if (missing.nonEmpty)
      throw Errors.compactionRejected(instant, s"no output for file group(s) ${missing.mkString(", ")}")
  }

  private def reconcile(table: HoodieTable, instant: String, stats: Seq[WriteStat]): Unit = {
    val written = stats.flatMap(_.path).map(_.stripPrefix("/")).toSet
    markers(table, instant).list().filterNot(m => written(m.dataPath)).foreach { m =>
      if (m.ioType == IOType.Append)
        throw Errors.compactionRejected(instant,
          s"marker ${m.markerName} names a log file; compaction writes base files")
      table.storage.delete(s"${table.basePath}/${m.dataPath}")
    }
  }
}
