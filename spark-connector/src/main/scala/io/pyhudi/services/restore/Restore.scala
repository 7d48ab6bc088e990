// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.restore

import io.pyhudi.errors.Errors
import io.pyhudi.services.savepoint.Savepoints
import io.pyhudi.table.{CrashPoint, HoodieTable}
import io.pyhudi.timeline.{Action, Instant, InstantTimeGenerator, State, TimelineWriter}
import io.pyhudi.timeline.avro.{InstantInfo, RestoreMetadata, RestorePlan}
import io.pyhudi.write.commit.Rollback

/**
 * Restores a table to a savepoint. Call with failed writes rolled back and under the table
 * lock. Every step can be repeated: a pending restore is finished from its plan by [[resume]]
 * (which [[restore]] calls first), since half the instants may already be rolled back.
 */
object Restore {

  /** Crash point (`PYHUDI_CRASH_AT`) after the first instant of a restore is rolled back. */
  val CrashAfterFirstRollback = "restore.after-first-rollback"

  /**
   * Rolls back every write and pending compaction after the savepoint named
   * `nameOrInstant`, newest first, and returns the restore instant time. When an interrupted
   * restore is finished first and leaves nothing after the savepoint, its instant is returned.
   */
  def restore(table: HoodieTable, nameOrInstant: String,
      generator: InstantTimeGenerator = InstantTimeGenerator.Default): String = {
    val resumed = resume(table)
    val savepoint = Savepoints.find(table, nameOrInstant).instant
    val writer = new TimelineWriter(table.storage, table.metaPath)
    val timeline = writer.timeline()
    timeline.savepointedTimes.filter(_ > savepoint).toSeq.sorted.headOption.foreach { later =>
      throw Errors.instantSavepointed(later, s"restore to savepoint $savepoint")
    }
    val undo = timeline.instants.filter { i =>
      i.timestamp > savepoint && (timeline.completedWriteTimes(i.timestamp) || timeline.pendingWrites.contains(i))
    }.reverse
    if (undo.isEmpty && resumed.nonEmpty) return resumed.last
    val started = System.currentTimeMillis()
    val restoreTime = generator.next(writer.stateFiles().map(_.timestamp))
    val plan = RestorePlan(undo.map(i => InstantInfo(i.timestamp, i.action)), Some(savepoint))
    writer.requested(restoreTime, Action.Restore, plan.toBytes)
    finish(table, writer, restoreTime, plan, started)
    restoreTime
  }

  /** Finishes every pending restore, oldest first; returns their instant times. */
  def resume(table: HoodieTable): Seq[String] = {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    writer.timeline().instants.filter(i => i.action == Action.Restore && !i.isCompleted).map { pending =>
      val requested = Instant(pending.timestamp, Action.Restore, State.Requested)
      val plan = RestorePlan.fromBytes(writer.read(requested), writer.path(requested))
      finish(table, writer, pending.timestamp, plan, System.currentTimeMillis())
      pending.timestamp
    }
  }

  private def finish(table: HoodieTable, writer: TimelineWriter, restoreTime: String, plan: RestorePlan,
      started: Long): Unit = {
    if (!writer.stateFiles().exists(i =>
        i.timestamp == restoreTime && i.action == Action.Restore &&
          i.state == State.Inflight))
      writer.inflight(restoreTime, Action.Restore)
    // Rollbacks this restore started and did not finish.
    writer.timeline().instants.filter(i => i.action == Action.Rollback && !i.isCompleted)
      .foreach(r => Rollback.resume(table, r))
    plan.instantsToRollback.zipWithIndex.foreach { case (info, n) =>
      val now = writer.timeline().instants.find(i => i.timestamp == info.commitTime && i.action != Action.Savepoint)
      now.foreach { i =>
        if (i.isCompleted) Rollback.rollbackCompleted(table, i) else Rollback.rollback(table, i)
        if (n == 0) CrashPoint(CrashAfterFirstRollback)
      }
    }
    val rollbacks = plan.instantsToRollback.map(_.commitTime).flatMap { t =>
      Rollback.completedRollbackOf(table, t).map(r => t -> Seq(Rollback.metadata(table, r)))
    }.toMap
    val metadata = RestoreMetadata(restoreTime, System.currentTimeMillis() - started,
      plan.instantsToRollback.map(_.commitTime), rollbacks, plan.instantsToRollback)
    writer.complete(restoreTime, Action.Restore, metadata.toBytes)
  }
}
