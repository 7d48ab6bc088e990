// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

/** The lifecycle state of an instant. */
sealed abstract class State(val suffix: String)
object State {
  case object Requested extends State("requested")
  case object Inflight extends State("inflight")
  case object Completed extends State("")
}

/** Action names as they appear in timeline file names. */
object Action {
  val Commit = "commit"
  val DeltaCommit = "deltacommit"
  val ReplaceCommit = "replacecommit"
  val Compaction = "compaction"
  val LogCompaction = "logcompaction"
  val Rollback = "rollback"
  val Clean = "clean"
  val Savepoint = "savepoint"
  val Restore = "restore"
  val Indexing = "indexing"

  val All: Set[String] = Set(Commit, DeltaCommit, ReplaceCommit, Compaction, LogCompaction,
    Rollback, Clean, Savepoint, Restore, Indexing)

  /** Actions whose completion publishes data files (compaction completes as a `commit`). */
  val Writes: Set[String] = Set(Commit, DeltaCommit, ReplaceCommit)
}

/**
 * One action at one instant time. A completed compaction or log compaction is represented by
 * the action its completed file carries (`commit`, `deltacommit`).
 */
final case class Instant(timestamp: String, action: String, state: State) {

  def isCompleted: Boolean = state == State.Completed

  /** The file name of this instant's state file in `.hoodie/` (table layout version 1). */
  def fileName: String = state match {
    case State.Completed => s"$timestamp.$action"
    case State.Inflight if action == Action.Commit => s"$timestamp.inflight"
    case s => s"$timestamp.$action.${s.suffix}"
  }

  override def toString: String =
    if (isCompleted) s"$timestamp.$action" else s"$timestamp.$action.${state.suffix}"
}

object Instant {

  /** Parses a `.hoodie/` file name; None for files that are not timeline files. */
  def fromFileName(name: String): Option[Instant] = {
    val parts = name.split('.')
    if (parts.isEmpty || !InstantTime.isInstant(parts(0))) None
    else parts.toSeq match {
      case Seq(t, "inflight") => Some(Instant(t, Action.Commit, State.Inflight))
      case Seq(t, a) if Action.All(a) => Some(Instant(t, a, State.Completed))
      case Seq(t, a, "requested") if Action.All(a) => Some(Instant(t, a, State.Requested))
      case Seq(t, a, "inflight") if Action.All(a) => Some(Instant(t, a, State.Inflight))
      case _ => None
    }
  }
}
