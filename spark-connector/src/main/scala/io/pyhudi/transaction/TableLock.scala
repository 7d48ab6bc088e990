// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import io.pyhudi.errors.Errors
import io.pyhudi.storage.Storage

/**
 * A short exclusive lock on a table's timeline: the file `.hoodie/.aux/pyhudi.lock`, created
 * with an atomic create-if-absent and renewed like a heartbeat while held. Writers hold it only
 * around "check the timeline, then change it" steps (starting an instant, committing, rolling
 * back failed writes, scheduling a compaction), so that two of them never both pass a check
 * that the other's change would fail. It is the lock of SINGLE_WRITER mode (a [[FileSystemLock]]);
 * under OPTIMISTIC_CONCURRENCY_CONTROL writers take the configured [[LockProvider]] instead.
 *
 * A lock file whose renewals stopped for longer than the heartbeat expiry, and at most
 * [[MaxStaleMs]], was left by a killed process and is broken: the lock guards steps of
 * milliseconds to seconds, so a crash while holding it must not stall other writers for the
 * minutes a write's heartbeat may take to expire.
 */
object TableLock {

  /** Lock files renew at least this often. */
  val MaxRenewalMs = 1000L

  /** A lock file older than this is stale whatever the heartbeat policy. */
  val MaxStaleMs = 10000L

  /** The renewal and staleness of lock files under a writer's heartbeat policy. */
  def policy(heartbeat: HeartbeatPolicy): HeartbeatPolicy = {
    val renewal = math.min(heartbeat.intervalMs, MaxRenewalMs)
    HeartbeatPolicy(renewal, math.max(1L, math.min(heartbeat.expiryMs, MaxStaleMs) / renewal).toInt)
  }

  def path(metaPath: String): String = s"$metaPath/.aux/pyhudi.lock"

  /** Runs `body` holding the lock; waits up to `waitMs` for it. */
  def withLock[T](storage: Storage, metaPath: String, heartbeat: HeartbeatPolicy, waitMs: Long)(body: => T): T = {
    val lock = new FileSystemLock(storage, path(metaPath), policy(heartbeat))
    if (!lock.tryLock(waitMs)) throw Errors.lockTimeout(lock.path, waitMs)
    try body
    finally lock.unlock()
  }
}
