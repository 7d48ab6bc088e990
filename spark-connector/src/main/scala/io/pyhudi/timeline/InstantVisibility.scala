// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

/**
 * Decides whether data stamped with an instant is visible to a query at `asOf`: the instant is
 * a completed write at or before `asOf`, or it is older than the active timeline (archived,
 * hence committed). Everything else belongs to a failed, running or rolled-back writer.
 */
final case class InstantVisibility(completed: Set[String], archivalBoundary: Option[String], asOf: String) {
  def isVisible(ts: String): Boolean =
    ts <= asOf && (completed(ts) || archivalBoundary.forall(ts < _))
}
