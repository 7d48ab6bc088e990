// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import scala.util.Using
import scala.util.control.NonFatal

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.{CommitStateUnknownException, Errors, InstantConflictException, PyhudiException}
import io.pyhudi.logfile.{CorruptBlock, LogFormatReader}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{
  Action,
  CommitMetadata,
  Instant,
  InstantTimeGenerator,
  State,
  Timeline,
  TimelineWriter,
  WriteStat
}
import io.pyhudi.timeline.avro.{CompactionPlan, RequestedReplaceMetadata}
import io.pyhudi.transaction.{ConcurrencyConfig, ConcurrentChanges, ConcurrentFileWrites, Heartbeat}

/**
 * One write to a table: the instant `T` of a commit (COW), deltacommit (MOR) or replacecommit
 * (insert_overwrite, delete_partition), driven through the single-writer protocol of
 * hudi-format.md §2.4. Roll back failed writes first ([[WriteTransaction.rollbackFailedWrites]]),
 * then create the transaction, [[start]] it, let tasks create a marker before each data file,
 * and [[commit]] with the tasks' write stats, or [[abort]].
 *
 * One writer at a time is checked, not assumed: the write is planned from `table.timeline`;
 * [[start]] and [[commit]] take the table lock and fail with
 * [[io.pyhudi.errors.WriteConflictException]] when any instant appeared or advanced since then,
 * or another writer's heartbeat shows it is still running. From [[start]] until the
 * transaction ends the instant beats a heartbeat, so that no other writer rolls it back.
 *
 * @param action        `commit`, `deltacommit` or `replacecommit`
 * @param operationType Hudi's operation name written into the metadata: UPSERT, INSERT,
 *                      BULK_INSERT, DELETE, INSERT_OVERWRITE, INSERT_OVERWRITE_TABLE, DELETE_PARTITION
 */
final class WriteTransaction(table: HoodieTable, action: String, operationType: String,
    generator: InstantTimeGenerator = InstantTimeGenerator.Default,
    concurrency: ConcurrencyConfig = ConcurrencyConfig.Default) {
  if (!Action.Writes(action))
    throw Errors.internal(s"A write transaction is a commit, deltacommit or replacecommit, not $action")

  private val timeline = new TimelineWriter(table.storage, table.metaPath)

  /** The timeline this write was planned from. */
  private val basedOn: Timeline = table.timeline

  private var heartbeat: Option[Heartbeat] = None

  /** Whether this transaction wrote its requested file: only then are files of `T` its own. */
  private var published = false

  /** The instant of this write: greater than every instant on the timeline when created. */
  val instantTime: String = generator.next(timeline.stateFiles().map(_.timestamp))

  /** Where tasks record the data files they are about to write. */
  val markers: Markers = new Markers(table.storage, table.basePath, instantTime)

  private var phase = "new"

  /**
   * Writes `T.<action>.requested` (empty; for a replacecommit Avro `HoodieRequestedReplaceMetadata`)
   * and the inflight file holding `workload` (see `Commits.workloadProfile`).
   */
  def start(workload: CommitMetadata): Unit = {
    expect("start", "new")
    phase = "starting"
    val requested =
      if (action == Action.ReplaceCommit) RequestedReplaceMetadata.InsertOverwrite.toBytes else Array.emptyByteArray
    val profile = workload.copy(operationType = workload.operationType.orElse(Some(operationType)),
      replaceCommit = false)
    locked {
      val now = timeline.timeline()
      if (concurrency.optimistic) {
        // Writers run at once and check for conflicts at commit; only the instant time must be its own.
        if (now.instants.exists(_.timestamp == instantTime))
          throw Errors.writeConflict(instantTime, "another writer started an instant of the same time")
      } else {
        val newer = now.instants.map(_.timestamp).filter(_ >= instantTime).distinct
        // Another writer chose a later instant time and started first.
        if (newer.nonEmpty)
          throw Errors.writeConflict(instantTime,
            s"instant(s) ${newer.mkString(", ")} appeared on the timeline " +
              "after this instant was chosen")
        checkNoConflicts(now)
        val live = ConcurrentChanges.liveWriters(table.storage, table.metaPath, now, concurrency.heartbeat)
        if (live.nonEmpty)
          throw Errors.liveWriters(table.basePath, ConcurrentChanges.describe(live), concurrency.heartbeat.expiryMs)
      }
      try {
        heartbeat = Some(Heartbeat.start(table.storage, table.metaPath, instantTime, concurrency.heartbeat))
        timeline.requested(instantTime, action, requested)
        published = true
        timeline.inflight(instantTime, action, profile.toJson)
      } catch {
        case e: PyhudiException => throw e
        case NonFatal(e) => throw Errors.commitFailed(instantTime, s"cannot start the instant (${e.getMessage})", e)
      }
    }
    checkTableStillExists()
    phase = "started"
  }

  /**
   * The writer that creates a table deletes it again when its first write fails, unless it sees
   * another writer's commit or live heartbeat (HoodieSparkWriter). A writer that opened the table
   * just before that deletion finds the properties file gone here, after its own heartbeat and
   * instant exist: it removes them and fails, instead of writing into the folder left behind.
   * (Deleted after this check, the table takes this write's instant with it, and the commit fails.)
   */
  private def checkTableStillExists(): Unit =
    if (!table.storage.exists(s"${table.metaPath}/${HoodieTable.PropertiesFile}")) {
      timeline.stateFiles().filter(_.timestamp == instantTime).foreach(i =>
        table.storage.deleteQuietly(timeline.path(i)))
      stopHeartbeat()
      phase = "aborted"
      throw Errors.writeConflict(instantTime,
        s"the table at ${table.basePath} was removed while this write started (its ${HoodieTable.PropertiesFile} is gone: " +
          "the writer that created it failed its first write); nothing was written, retry to create the table anew")
    }

  /**
   * Publishes the write: (a) deletes data files that have a marker but are not among the
   * `stats` paths (failed or speculative task attempts; a log file only when this instant
   * created it), (b) writes the completed `T.<action>` (the commit point), (c) deletes
   * `.hoodie/.temp/T`. `extraMetadata` must hold `schema` (hudi-format.md §0.1).
   *
   * @param replacedFileIds replacecommits: partition → file group ids retired by this write
   * @param newKeys         OPTIMISTIC_CONCURRENCY_CONTROL: the keys this write inserted that a
   *                        concurrent commit's written files also hold
   * @param bucketed        OPTIMISTIC_CONCURRENCY_CONTROL: file groups of one bucket conflict (bucket index)
   * @throws io.pyhudi.errors.CommitFailedException before the commit point; [[abort]] is safe
   * @throws io.pyhudi.errors.CommitStateUnknownException when the commit point's outcome is
   *         unknown; do not abort
   */
  def commit(stats: Seq[WriteStat], extraMetadata: Map[String, String],
      replacedFileIds: Map[String, Seq[String]] = Map.empty,
      newKeys: WriteTransaction.NewKeyCheck = WriteTransaction.NoNewKeys, bucketed: Boolean = false): Unit = {
    expect("commit", "started")
    if (!extraMetadata.get("schema").exists(_.trim.nonEmpty))
      throw Errors.commitFailed(instantTime,
        "extraMetadata has no 'schema' (the writer's Avro schema), " +
          "which readers need from the newest commit")
    if (replacedFileIds.nonEmpty && action != Action.ReplaceCommit)
      throw Errors.commitFailed(instantTime, s"a $action cannot replace file groups; use a replacecommit")
    try reconcile(stats)
    catch {
      case e: PyhudiException => throw e
      case NonFatal(e) => throw Errors.commitFailed(instantTime, s"cannot reconcile markers (${e.getMessage})", e)
    }
    val metadata = CommitMetadata(stats, replacedFileIds, extraMetadata, Some(operationType),
      compacted = false, replaceCommit = action == Action.ReplaceCommit)
    // Crash tests: every data file and marker is written, the commit is not.
    io.pyhudi.table.CrashPoint("write.before-commit")
    locked {
      val now = timeline.timeline()
      if (!now.instants.exists(i => i.timestamp == instantTime && i.state == State.Inflight))
        throw Errors.writeConflict(instantTime,
          "its inflight instant is gone: another writer judged this write " +
            s"dead (no heartbeat within ${WriteConfig.HeartbeatInterval.key} x ${WriteConfig.HeartbeatTolerableMisses.key}) " +
            "and rolled it back")
      if (concurrency.optimistic) checkConcurrentWrites(now, metadata, newKeys, bucketed) else checkNoConflicts(now)
      try CommitStep.publish(table.storage, timeline, instantTime, action, metadata.toJson)
      catch {
        case e: InstantConflictException => phase = "failed"; throw e
        case e: CommitStateUnknownException => phase = "in an unknown state"; throw e
      }
    }
    phase = "committed"
    stopHeartbeat()
    CommitStep.cleanUp(markers)
  }

  /**
   * Rolls this instant back (hudi-format.md §7) unless it completed. Never throws: problems are
   * attached to `cause` as suppressed exceptions; a rollback that did not finish stays pending
   * and [[WriteTransaction.rollbackFailedWrites]] resumes it.
   */
  def abort(cause: Throwable): Unit = {
    if (phase == "aborted") return
    if (phase == "committed" || phase == "in an unknown state") {
      cause.addSuppressed(Errors.transactionState(instantTime, "abort", phase))
      // Never rolled back here; other writers see whether it completed, as their recovery does.
      stopHeartbeat()
      return
    }
    try {
      locked {
        val files = timeline.stateFiles().filter(_.timestamp == instantTime)
        if (!published) phase = "aborted" // T's files, if any, belong to another writer
        else if (files.exists(_.isCompleted)) cause.addSuppressed(Errors.cannotRollBackCompleted(instantTime))
        else {
          if (files.nonEmpty || markers.exist())
            Rollback.rollback(table, Instant(instantTime, action, State.Inflight), generator)
          phase = "aborted"
        }
      }
    } catch { case e: Throwable if NonFatal(e) && (e ne cause) => cause.addSuppressed(e) }
    // A rollback that did not finish leaves a pending instant without heartbeat: the next
    // writer sees it dead and finishes the rollback.
    finally stopHeartbeat()
  }

  private def locked[T](body: => T): T =
    concurrency.withLock(table.storage, table.metaPath)(body)

  /** Fails when another writer changed the timeline since this write was planned. */
  private def checkNoConflicts(now: Timeline): Unit = {
    val changed = ConcurrentChanges.since(basedOn, now, Some(instantTime))
    if (changed.nonEmpty)
      throw Errors.writeConflict(instantTime,
        s"instant(s) ${ConcurrentChanges.describe(changed)} appeared or " +
          "advanced on the timeline after this write read it, so its plan (index lookup, file groups to " +
          "merge into, log files to append to) may be stale")
  }

  /**
   * OPTIMISTIC_CONCURRENCY_CONTROL: fails when an instant that completed or was scheduled since
   * this write read the timeline touched one of its file groups, or a commit since holds a key
   * this write inserted (two writers inserting one new key into different file groups).
   */
  private def checkConcurrentWrites(now: Timeline, mine: CommitMetadata, newKeys: WriteTransaction.NewKeyCheck,
      bucketed: Boolean): Unit = {
    val others = ConcurrentFileWrites.candidates(basedOn, now, instantTime)
    val groups = others
      .filterNot(i => i.isCompleted && ConcurrentFileWrites.disjointColumns(mine, i, table.commitMetadata(i)))
      .map(i => i -> fileGroupsOf(i))
    ConcurrentFileWrites.firstConflict(ConcurrentFileWrites.touched(mine), groups, bucketed).foreach {
      case (i, shared) =>
        throw Errors.concurrentWriteConflict(instantTime, s"${i.timestamp} (${i.action}, ${i.state})",
          ConcurrentFileWrites.describe(shared))
    }
    others.filter(i => i.isCompleted).foreach { i =>
      val keys = newKeys(i, table.commitMetadata(i))
      if (keys.nonEmpty)
        throw Errors.concurrentWriteConflict(instantTime, s"${i.timestamp} (${i.action}, ${i.state})",
          s"the new record key(s) ${keys.take(10).mkString(", ")}${if (keys.size > 10) " ..." else ""} " +
            "into different file groups")
    }
  }

  /**
   * Early conflict detection (`hoodie.write.concurrency.early.conflict.detection.enable`), called
   * after [[start]] and before any task writes: fails when another pending write's markers name one
   * of `mine` (the existing file groups this write is about to write to) or, with `checkCommits`,
   * when an instant completed or scheduled since this write read the timeline touched one. A
   * writer that has not written yet shows no markers, so the check at commit stays.
   */
  def checkEarlyConflicts(mine: Set[ConcurrentFileWrites.FileGroup], checkCommits: Boolean,
      bucketed: Boolean): Unit = if (mine.nonEmpty) {
    val now = timeline.timeline()
    val writing = now.pendingWrites.filter(i => i.timestamp != instantTime && Action.Writes(i.action))
      .map(i =>
        i -> new Markers(table.storage, table.basePath, i.timestamp).list()
          .flatMap(m => m.fileId.map(m.partitionPath -> _)).toSet)
    val since = if (!checkCommits) Nil
    else ConcurrentFileWrites.candidates(basedOn, now, instantTime).map(i => i -> fileGroupsOf(i))
    ConcurrentFileWrites.firstConflict(mine, writing ++ since, bucketed).foreach { case (i, shared) =>
      throw Errors.earlyWriteConflict(instantTime, s"${i.timestamp} (${i.action}, ${i.state})",
        ConcurrentFileWrites.describe(shared))
    }
  }

  /** A completed instant's written and replaced file groups; a pending table service's planned ones. */
  private def fileGroupsOf(i: Instant): Set[ConcurrentFileWrites.FileGroup] =
    if (i.isCompleted) ConcurrentFileWrites.touched(table.commitMetadata(i))
    else {
      val requested = Instant(i.timestamp, i.action, State.Requested)
      val bytes = table.storage.readAll(timeline.path(requested))
      if (i.action == Action.Compaction)
        CompactionPlan.fromBytes(bytes, timeline.path(requested)).operations.getOrElse(Nil)
          .map(op => (op.partitionPath.getOrElse(""), op.fileId.getOrElse(""))).toSet
      else ConcurrentFileWrites.clusteringGroups(
        RequestedReplaceMetadata.fromBytes(bytes, timeline.path(requested)).clusteringPlan)
    }

  private def stopHeartbeat(): Unit = { heartbeat.foreach(_.close()); heartbeat = None }

  private def reconcile(stats: Seq[WriteStat]): Unit = {
    val written = stats.flatMap(_.path).map(_.stripPrefix("/")).toSet
    markers.list().filterNot(m => written(m.dataPath)).foreach { m =>
      val path = s"${table.basePath}/${m.dataPath}"
      m.ioType match {
        case IOType.Create | IOType.Merge => table.storage.delete(path)
        case IOType.Append if table.storage.exists(path) =>
          val owners = blockInstants(path)
          if (owners.forall(_ == instantTime)) table.storage.delete(path)
          // Another writer's file: this write's task found the name taken and rolled over.
          else if (!owners.contains(instantTime)) ()
          else throw Errors.commitFailed(instantTime,
            s"log file $path holds blocks of this instant from a " +
              "failed task attempt and blocks of earlier instants, so it cannot be deleted")
        case IOType.Append => ()
      }
    }
  }

  /** The instants that wrote the log file's readable blocks. */
  private def blockInstants(path: String): Set[String] =
    Using.resource(LogFormatReader.read(table.storage, path))(_.flatMap {
      case _: CorruptBlock => None
      case b => b.instantTime
    }.toSet)

  private def expect(step: String, wanted: String): Unit =
    if (phase != wanted) throw Errors.transactionState(instantTime, step, phase)
}

object WriteTransaction {

  /** Keys this write inserted that a concurrent commit (its instant and metadata) also wrote. */
  type NewKeyCheck = (Instant, CommitMetadata) => Seq[String]

  val NoNewKeys: NewKeyCheck = (_, _) => Nil

  /**
   * Recovery: finishes interrupted rollbacks, then rolls back every pending commit,
   * deltacommit and replacecommit whose writer is dead (no heartbeat within the policy's
   * expiry), newest first, holding the table lock. Instants of live writers are left alone.
   * Pending compactions are left alone: they are re-executed, not rolled back. Returns the
   * instant times rolled back.
   */
  def rollbackFailedWrites(
      table: HoodieTable, concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): Seq[String] = {
    val timeline = new TimelineWriter(table.storage, table.metaPath)
    concurrency.withLock(table.storage, table.metaPath) {
      val resumed = timeline.timeline().instants
        .filter(i => i.action == Action.Rollback && !i.isCompleted)
        .flatMap(r => Rollback.resume(table, r))
      val dead = ConcurrentChanges.deadWrites(table.storage, table.metaPath, timeline.timeline(),
        concurrency.heartbeat).reverse
      dead.foreach { i =>
        Rollback.rollback(table, i)
        table.storage.deleteQuietly(Heartbeat.path(table.metaPath, i.timestamp))
      }
      // Heartbeats of writers that died before their first state file, or after their commit.
      val pending = timeline.timeline().pendingWrites.map(_.timestamp).toSet
      val now = System.currentTimeMillis()
      table.storage.listFiles(s"${table.metaPath}/${Heartbeat.Folder}")
        .filter(f => !pending(f.name) && !concurrency.heartbeat.isAlive(f.modificationTime, now))
        .foreach(f => table.storage.deleteQuietly(f.path))
      (resumed ++ dead.map(_.timestamp)).distinct
    }
  }

  /**
   * Fails with [[io.pyhudi.errors.WriteConflictException]] when a write or compaction of the
   * table is running now (pending, with a live heartbeat): call after [[rollbackFailedWrites]]
   * and before planning, so that a second writer stops before doing any work.
   */
  def requireNoLiveWriters(table: HoodieTable, concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): Unit = {
    val now = new TimelineWriter(table.storage, table.metaPath).timeline()
    val live = ConcurrentChanges.liveWriters(table.storage, table.metaPath, now, concurrency.heartbeat)
    if (live.nonEmpty)
      throw Errors.liveWriters(table.basePath, ConcurrentChanges.describe(live), concurrency.heartbeat.expiryMs)
  }
}
