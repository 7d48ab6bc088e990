// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.restore

import io.pyhudi.errors.Errors
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Instant, InstantTimeGenerator, Timeline, TimelineWriter}
import io.pyhudi.write.commit.Rollback

/** Rolls back the latest completed write of a table. */
object InstantRollback {

  /**
   * Rolls back `instant` (default: the latest completed write), which must be the latest
   * completed write with nothing pending after it, and not savepointed. Call with failed writes
   * rolled back and under the table lock. Returns (rolled-back instant, rollback instant).
   */
  def rollbackLatest(table: HoodieTable, instant: Option[String] = None,
      generator: InstantTimeGenerator = InstantTimeGenerator.Default): (String, String) = {
    val timeline = new TimelineWriter(table.storage, table.metaPath).timeline()
    val latest = timeline.latestCompletedWrite.getOrElse(
      throw Errors.cannotRollBackInstant(instant.getOrElse("(latest)"), "the table has no completed write"))
    val target = instant.getOrElse(latest.timestamp)
    if (target != latest.timestamp) {
      val why = if (timeline.completedWriteTimes(target)) s"the later write ${latest.timestamp} builds on it; " +
        "restore to a savepoint to go back further"
      else "it is not a completed write on the active timeline"
      throw Errors.cannotRollBackInstant(target, why)
    }
    check(timeline, latest, "roll it back")
    target -> Rollback.rollbackCompleted(table, latest, generator)
  }

  /** Refuses a savepointed instant or one with pending writes or compactions after it. */
  private[restore] def check(timeline: Timeline, target: Instant, what: String): Unit = {
    if (timeline.savepointedTimes(target.timestamp)) throw Errors.instantSavepointed(target.timestamp, what)
    val pendingAfter = timeline.pendingWrites.filter(_.timestamp > target.timestamp)
    if (pendingAfter.nonEmpty)
      throw Errors.cannotRollBackInstant(target.timestamp,
        s"instant(s) ${pendingAfter.mkString(", ")} after " +
          "it are pending; finish or roll them back first")
  }
}
