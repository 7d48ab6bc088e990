// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import java.nio.file.FileAlreadyExistsException
import java.util.UUID

import io.pyhudi.errors.Errors
import io.pyhudi.storage.Storage

/**
 * A short exclusive lock on a table's timeline: the file `.hoodie/.aux/pyhudi.lock`, created
 * with an atomic create-if-absent and renewed like a heartbeat while held. Writers hold it only
 * around "check the timeline, then change it" steps (starting an instant, committing, rolling
 * back failed writes, scheduling a compaction), so that two of them never both pass a check
 * that the other's change would fail. It is not a lock provider for concurrent writers.
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
    val held = acquire(storage, metaPath, policy(heartbeat), waitMs)
    try body
    finally held.close()
  }

  private def acquire(storage: Storage, metaPath: String, policy: HeartbeatPolicy, waitMs: Long): Heartbeat = {
    val lock = path(metaPath)
    val owner = UUID.randomUUID().toString
    val deadline = System.currentTimeMillis() + waitMs
    var pause = 10L
    while (true) {
      try {
        storage.createAtomically(lock, owner.getBytes("UTF-8"), s"$lock.$owner.tmp")
        return Heartbeat.beat(storage, lock, policy.intervalMs)
      } catch {
        case _: FileAlreadyExistsException | _: org.apache.hadoop.fs.FileAlreadyExistsException =>
          val now = System.currentTimeMillis()
          storage.modificationTime(lock) match {
            case Some(t) if !policy.isAlive(t, now) => storage.delete(lock) // left by a killed process
            case _ if now >= deadline => throw Errors.lockTimeout(lock, waitMs)
            case _ =>
              Thread.sleep(pause)
              pause = math.min(pause * 2, 200L)
          }
      }
    }
    throw Errors.internal("the commit lock's wait loop ended without taking the lock or timing out")
  }
}
