// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import io.pyhudi.storage.Storage
import io.pyhudi.timeline.{Action, Instant, Timeline, TimelineWriter}
import io.pyhudi.timeline.avro.ClusteringPlan

/**
 * What other writers did to a table since a writer read its timeline. pyhudi's default mode
 * is one writer at a time; these checks make a second, concurrent writer fail loudly instead
 * of committing a plan made from a stale view.
 */
object ConcurrentChanges {

  /**
   * Instants of `now` that are not in `basedOn` as they are now: new instants and instants
   * that advanced (requested → inflight → completed) since, other than `own`. Instants that
   * disappeared (rolled back) are not changes to the data `basedOn` showed, and neither are
   * cleans: they never delete a slice that is the latest of its file group.
   */
  def since(basedOn: Timeline, now: Timeline, own: Option[String] = None): Seq[Instant] = {
    // Savepoints change no file a write sees (and share the time of the instant they name).
    val before = basedOn.instants.filter(_.action != Action.Savepoint).map(i => i.timestamp -> i).toMap
    now.instants.filter { i =>
      i.action != Action.Savepoint && i.action != Action.Clean && !own.contains(i.timestamp) && !before.get(i.timestamp)
        .contains(i)
    }
  }

  /** Pending writes and compactions other than `own` whose writer still beats. */
  def liveWriters(storage: Storage, metaPath: String, now: Timeline, policy: HeartbeatPolicy,
      own: Option[String] = None, nowMs: Long = System.currentTimeMillis()): Seq[Instant] =
    now.pendingWrites.filter { i =>
      !own.contains(i.timestamp) && Heartbeat.isAlive(storage, metaPath, i.timestamp, policy, nowMs)
    }

  /**
   * Pending writes (not compactions, not clusterings) other than `own` whose writer stopped
   * beating. A pending clustering, like a compaction, is executed again rather than rolled back.
   */
  def deadWrites(storage: Storage, metaPath: String, now: Timeline, policy: HeartbeatPolicy,
      nowMs: Long = System.currentTimeMillis()): Seq[Instant] =
    now.pendingWrites.filter { i =>
      Action.Writes(i.action) && !Heartbeat.isAlive(storage, metaPath, i.timestamp, policy, nowMs) &&
      !(i.action == Action.ReplaceCommit &&
        ClusteringPlan.requested(new TimelineWriter(storage, metaPath), i.timestamp).isDefined)
    }

  def describe(instants: Seq[Instant]): String = instants.map(i => s"${i.timestamp} (${i.action}, ${i.state})")
    .mkString(", ")
}
