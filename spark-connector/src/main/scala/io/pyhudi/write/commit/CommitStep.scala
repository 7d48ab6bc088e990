// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import scala.util.control.NonFatal

import io.pyhudi.errors.{Errors, InstantConflictException}
import io.pyhudi.storage.Storage
import io.pyhudi.timeline.{Instant, State, TimelineWriter}

/**
 * The commit point shared by every action that publishes data (writes, compactions): the
 * completed state file `T.<action>` appears whole or not at all, and a failure to write it
 * is told apart from a failure whose outcome is unknown.
 */
object CommitStep {

  /**
   * Publishes `T.<action>` holding `metadata`.
   *
   * @throws io.pyhudi.errors.InstantConflictException when `T` is already completed
   * @throws io.pyhudi.errors.CommitFailedException when the file did not land: nothing was published
   * @throws io.pyhudi.errors.CommitStateUnknownException when it cannot be told whether it landed
   */
  def publish(storage: Storage, timeline: TimelineWriter, instant: String, action: String,
      metadata: Array[Byte]): Unit = {
    val completed = timeline.path(Instant(instant, action, State.Completed))
    try timeline.complete(instant, action, metadata)
    catch {
      case e: InstantConflictException => throw e
      case NonFatal(e) =>
        // The completed file only ever appears whole (temp file + rename): present means committed.
        val landed =
          try storage.exists(completed)
          catch {
            case NonFatal(x) =>
              e.addSuppressed(x)
              throw Errors.commitStateUnknown(instant, completed, e)
          }
        if (!landed) throw Errors.commitFailed(instant, s"cannot write $completed (${e.getMessage})", e)
    }
  }

  /** After the commit point nothing may fail the action; leftover markers are harmless (§7). */
  def cleanUp(markers: Markers): Unit =
    try markers.deleteAll()
    catch { case NonFatal(_) => () }
}
