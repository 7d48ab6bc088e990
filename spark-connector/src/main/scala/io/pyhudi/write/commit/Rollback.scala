// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import scala.util.Using
import scala.util.control.NonFatal

import io.pyhudi.errors.{Errors, PyhudiException}
import io.pyhudi.filegroup.LogFile
import io.pyhudi.logfile.{CommandBlock, LogBlockWriter, LogFormatReader}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, Instant, InstantTimeGenerator, State, TimelineWriter}
import io.pyhudi.timeline.avro.{InstantInfo, RollbackMetadata, RollbackPartitionMetadata, RollbackPlan}

/**
 * Rolls back a pending write instant `D` as Apache Hudi does (hudi-format.md §7):
 *  1. `R.rollback.requested` holds the plan ([[RollbackPlanner]]);
 *  2. `R.rollback.inflight`, empty;
 *  3. base files are deleted; each touched log file slice gets a rollback command block
 *     (INSTANT_TIME `R`, TARGET_INSTANT_TIME `D`) as its next log version, write token `1-0-1`;
 *     the failed log files themselves stay;
 *  4. `R.rollback` holds the metadata;
 *  5. the state files of `D` and `.hoodie/.temp/D` are deleted.
 * Every step can be repeated: an interrupted rollback is finished by [[resume]]. A file that
 * cannot be deleted stops the rollback before step 4, because once `D` leaves the timeline a
 * leftover file of `D` could look archived, hence committed, to readers (§2.3).
 *
 * Reads the timeline from storage, never from the (possibly stale) `table.timeline`.
 */
object Rollback {

  /** Write token of log files that hold rollback command blocks. */
  val CommandBlockWriteToken = "1-0-1"

  /**
   * Rolls back the pending instant `target` and returns the rollback instant time. When a
   * completed rollback of `target` exists already, only step 5 is redone and its time returned.
   *
   * @throws io.pyhudi.errors.RollbackFailedException when a step fails after the plan was written
   */
  def rollback(table: HoodieTable, target: Instant,
      generator: InstantTimeGenerator = InstantTimeGenerator.Default): String = {
    val timeline = new TimelineWriter(table.storage, table.metaPath)
    val files = timeline.stateFiles()
    if (files.exists(i => i.timestamp == target.timestamp && i.isCompleted && i.action != Action.Savepoint))
      throw Errors.cannotRollBackCompleted(target.timestamp)
    run(table, timeline, files, target, generator)(RollbackPlanner.plan(table, target))
  }

  /**
   * Rolls back the completed write `target` (a table service: the caller makes sure no later
   * instant builds on it and no savepoint names it) and returns the rollback instant time. The
   * steps are those of a pending instant's rollback; the plan comes from a listing, as the
   * instant's markers are gone. A completed rollback of `target` found on the timeline is
   * finished instead (step 5).
   */
  def rollbackCompleted(table: HoodieTable, target: Instant,
      generator: InstantTimeGenerator = InstantTimeGenerator.Default): String = {
    val timeline = new TimelineWriter(table.storage, table.metaPath)
    run(table, timeline, timeline.stateFiles(), target, generator)(RollbackPlanner.planCompleted(table, target))
  }

  /**
   * Rolls back the execution of the inflight compaction `target` as Apache Hudi does: a rollback
   * instant whose plan deletes `files` (absolute paths the compaction wrote), after which only
   * `T.compaction.inflight` and `T`'s markers go, so that `T` is requested again and runs anew.
   * Returns the rollback instant time.
   */
  def rollbackCompaction(table: HoodieTable, target: String, files: Seq[String],
      generator: InstantTimeGenerator = InstantTimeGenerator.Default): String = {
    val timeline = new TimelineWriter(table.storage, table.metaPath)
    val requests = files.map { path =>
      val relative = path.stripPrefix(s"${table.basePath}/")
      val partition = if (relative.contains('/')) relative.substring(0, relative.lastIndexOf('/')) else ""
      RollbackPlanner.baseRequest(partition, path)
    }
    // No shortcut through an earlier completed rollback of `target`: a compaction can be rolled
    // back, re-executed and fail again, and each execution gets its own rollback.
    planAndRun(table, timeline, timeline.stateFiles(), generator)(
      RollbackPlan(Some(InstantInfo(target, Action.Compaction)), Some(requests)))
  }

  /** Finishes a completed rollback of `target` found on the timeline, else plans and runs one. */
  private def run(table: HoodieTable, timeline: TimelineWriter, files: Seq[Instant], target: Instant,
      generator: InstantTimeGenerator)(plan: => RollbackPlan): String =
    completedRollbackOf(timeline, files, target.timestamp) match {
      case Some(done) =>
        cleanUpTarget(table, timeline, target.timestamp, target.action)
        done
      case None => planAndRun(table, timeline, files, generator)(plan)
    }

  /** Steps 1 to 5 of a new rollback instant, after the instants in `files`. Returns its time. */
  private def planAndRun(table: HoodieTable, timeline: TimelineWriter, files: Seq[Instant],
      generator: InstantTimeGenerator)(plan: => RollbackPlan): String = {
    val started = System.currentTimeMillis()
    val rollbackTime = generator.next(files.map(_.timestamp))
    val planned = plan
    timeline.requested(rollbackTime, Action.Rollback, planned.toBytes)
    execute(table, timeline, rollbackTime, planned, started)
    rollbackTime
  }

  /** The metadata of the completed rollback `rollbackTime`. */
  def metadata(table: HoodieTable, rollbackTime: String): RollbackMetadata = {
    val timeline = new TimelineWriter(table.storage, table.metaPath)
    val done = Instant(rollbackTime, Action.Rollback, State.Completed)
    RollbackMetadata.fromBytes(timeline.read(done), timeline.path(done))
  }

  /** The completed rollback whose metadata names `targetTime`, if any. */
  def completedRollbackOf(table: HoodieTable, targetTime: String): Option[String] = {
    val timeline = new TimelineWriter(table.storage, table.metaPath)
    completedRollbackOf(timeline, timeline.stateFiles(), targetTime)
  }

  /**
   * Finishes the pending rollback instant `pending` from its plan. Returns the instant it
   * rolled back, or None when the plan names none (the pending rollback is then removed).
   */
  def resume(table: HoodieTable, pending: Instant): Option[String] = {
    val timeline = new TimelineWriter(table.storage, table.metaPath)
    val requested = Instant(pending.timestamp, Action.Rollback, State.Requested)
    val plan = RollbackPlan.fromBytes(timeline.read(requested), timeline.path(requested))
    plan.instantToRollback match {
      case Some(target) =>
        execute(table, timeline, pending.timestamp, plan, System.currentTimeMillis())
        Some(target.commitTime)
      case None =>
        timeline.deleteInstantFiles(pending.timestamp)
        None
    }
  }

  private def execute(table: HoodieTable, timeline: TimelineWriter, rollbackTime: String,
      plan: RollbackPlan, started: Long): Unit = {
    val target = plan.instantToRollback.getOrElse(InstantInfo("", ""))
    try {
      if (!timeline.stateFiles().exists(i => i.timestamp == rollbackTime && i.state == State.Inflight))
        timeline.inflight(rollbackTime, Action.Rollback)
      val requests = plan.rollbackRequests.getOrElse(Nil)
      val partitions = requests.groupBy(_.partitionPath).map { case (partition, rs) =>
        val deleted = rs.flatMap(_.filesToBeDeleted).distinct.map { path =>
          if (table.storage.delete(path) || !table.storage.exists(path)) path
          else throw new java.io.IOException(s"Cannot delete $path")
        }
        val logs = rs.filter(_.logBlocksToBeDeleted.exists(_.nonEmpty))
        val commandLogs = logs.map { r =>
          commandBlockLog(table, partition, r.fileId.getOrElse(""), r.latestBaseInstant.getOrElse(""),
            rollbackTime, target.commitTime)
        }.toMap
        partition -> RollbackPartitionMetadata(partition, deleted, Nil, Some(commandLogs),
          Some(logs.flatMap(_.logBlocksToBeDeleted.getOrElse(Map.empty)).toMap))
      }
      val metadata = RollbackMetadata(rollbackTime, System.currentTimeMillis() - started,
        partitions.values.map(_.successDeleteFiles.size).sum, Seq(target.commitTime), partitions,
        Some(1), Seq(target))
      timeline.complete(rollbackTime, Action.Rollback, metadata.toBytes)
      cleanUpTarget(table, timeline, target.commitTime, target.action)
    } catch {
      case NonFatal(e) => throw Errors.rollbackFailed(target.commitTime, rollbackTime, e)
    }
  }

  /**
   * The log file holding the command block of `rollbackTime` in one file slice: written as the
   * slice's next log version unless a repeated run finds it already there. Returns (path, size).
   */
  private def commandBlockLog(table: HoodieTable, partition: String, fileId: String, baseInstant: String,
      rollbackTime: String, targetTime: String): (String, Long) = {
    val slice = RollbackPlanner.partitionFiles(table, partition).flatMap(f => LogFile.parse(f.path, f.size))
      .filter(l => l.fileId == fileId && l.baseInstant == baseInstant)
    val existing = slice.filter(_.writeToken == CommandBlockWriteToken).find { l =>
      Using.resource(LogFormatReader.read(table.storage, l.path))(_.exists {
        case c: CommandBlock => c.instantTime.contains(rollbackTime) && c.targetInstant.contains(targetTime)
        case _ => false
      })
    }
    existing.map(l => l.path -> l.size).getOrElse {
      val version = if (slice.isEmpty) 1 else slice.map(_.version).max + 1
      val name = s".${fileId}_$baseInstant.log.${version}_$CommandBlockWriteToken"
      val path = if (partition.isEmpty) s"${table.basePath}/$name" else s"${table.basePath}/$partition/$name"
      val bytes = LogBlockWriter.encode(LogBlockWriter.rollbackBlock(rollbackTime, targetTime))
      table.storage.create(path, bytes)
      path -> bytes.length.toLong
    }
  }

  /**
   * Step 5: the rolled-back instant leaves the timeline, then its markers go. A compaction keeps
   * its plan: only its inflight file goes, and it is requested again.
   */
  private def cleanUpTarget(table: HoodieTable, timeline: TimelineWriter, targetTime: String, action: String): Unit =
    if (targetTime.nonEmpty) {
      if (action == Action.Compaction) {
        val inflight = Instant(targetTime, Action.Compaction, State.Inflight)
        if (table.storage.exists(timeline.path(inflight))) table.storage.delete(timeline.path(inflight))
      } else timeline.deleteInstantFiles(targetTime)
      new Markers(table.storage, table.basePath, targetTime).deleteAll()
    }

  /** A completed rollback instant whose metadata names `targetTime`. */
  private def completedRollbackOf(timeline: TimelineWriter, files: Seq[Instant], targetTime: String): Option[String] =
    files.filter(i => i.action == Action.Rollback && i.isCompleted).find { r =>
      try RollbackMetadata.fromBytes(timeline.read(r), timeline.path(r)).commitsRollback.contains(targetTime)
      catch { case _: PyhudiException => false }
    }.map(_.timestamp)
}
