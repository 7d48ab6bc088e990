// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

/**
 * An immutable, time-ordered view of a table's instants. Each instant time appears once, in
 * its most advanced state, except that a savepoint shares the time of the instant it
 * savepoints (Hudi names `T.savepoint` after the savepointed `T`) and is kept as an instant of
 * its own, ordered after it.
 */
final class Timeline(val instants: IndexedSeq[Instant]) {

  /** Completed commit, deltacommit and replacecommit instants: the ones that publish data. */
  lazy val completedWrites: IndexedSeq[Instant] =
    instants.filter(i => i.isCompleted && Action.Writes(i.action))

  lazy val completedWriteTimes: Set[String] = completedWrites.map(_.timestamp).toSet

  /** Write-like instants that are not completed (failed or running writers, pending services). */
  lazy val pendingWrites: IndexedSeq[Instant] = instants.filter { i =>
    !i.isCompleted && (Action.Writes(i.action) || i.action == Action.Compaction ||
      i.action == Action.LogCompaction)
  }

  /**
   * The smallest write instant still in the active timeline, in any state. Files with an older
   * instant belong to archived commits and count as committed.
   */
  lazy val archivalBoundary: Option[String] = instants.collectFirst {
    case i if Action.Writes(i.action) || i.action == Action.Compaction => i.timestamp
  }

  def latestCompletedWrite: Option[Instant] = completedWrites.lastOption

  /** True when data written at `ts` is committed and visible at `asOf` (inclusive). */
  def isVisible(ts: String, asOf: String): Boolean = visibility(asOf).isVisible(ts)

  /** A serializable form of [[isVisible]] for one `asOf`, for use on executors. */
  def visibility(asOf: String): InstantVisibility =
    InstantVisibility(completedWriteTimes.filter(_ <= asOf), archivalBoundary, asOf)

  /** Completed writes at or before `asOf`. */
  def completedWritesUpTo(asOf: String): IndexedSeq[Instant] =
    completedWrites.filter(_.timestamp <= asOf)

  /** Completed writes in the range (begin, end]. */
  def completedWritesBetween(begin: String, end: String): IndexedSeq[Instant] =
    completedWrites.filter(i => i.timestamp > begin && i.timestamp <= end)

  /** Savepoint instants (any state), oldest first. */
  lazy val savepoints: IndexedSeq[Instant] = instants.filter(_.action == Action.Savepoint)

  /** Times of completed savepoints: the instants they savepoint. */
  lazy val savepointedTimes: Set[String] = savepoints.filter(_.isCompleted).map(_.timestamp).toSet

  def isEmpty: Boolean = instants.isEmpty
}

object Timeline {

  private def rank(i: Instant): Int = i.state match {
    case State.Completed => 2
    case State.Inflight => 1
    case State.Requested => 0
  }

  /**
   * Builds a timeline from the instants of every state file, keeping each time's latest state.
   * A savepoint carries the instant time of the commit it keeps, so it is kept beside it.
   */
  def apply(all: Seq[Instant]): Timeline = {
    val merged = all.groupBy(i => (i.timestamp, i.action == Action.Savepoint)).values.map(_.maxBy(rank)).toIndexedSeq
    new Timeline(merged.sortBy(i => (i.timestamp, i.action == Action.Savepoint)))
  }

  def fromFileNames(names: Seq[String]): Timeline = apply(names.flatMap(Instant.fromFileName))
}
