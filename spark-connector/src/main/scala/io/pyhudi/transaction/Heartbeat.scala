// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import java.util.{Timer, TimerTask}

import scala.util.control.NonFatal

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors
import io.pyhudi.storage.Storage

/**
 * How often a running writer proves it is alive, and when silence means it is dead: a heartbeat
 * older than `intervalMs × tolerableMisses` belongs to a dead writer (Apache Hudi's rule for
 * `hoodie.client.heartbeat.*`).
 */
final case class HeartbeatPolicy(intervalMs: Long, tolerableMisses: Int) {
  // hoodie.client.heartbeat.interval_in_ms accepts 0 as a non-negative long; it means nothing here.
  if (intervalMs <= 0 || tolerableMisses <= 0) throw Errors.invalidHeartbeat(intervalMs, tolerableMisses)

  def expiryMs: Long = intervalMs * tolerableMisses

  /** True when a beat at `lastBeatMs` still proves life at `nowMs`. */
  def isAlive(lastBeatMs: Long, nowMs: Long): Boolean = nowMs - lastBeatMs <= expiryMs
}

object HeartbeatPolicy {
  val Default: HeartbeatPolicy = HeartbeatPolicy(WriteConfig.HeartbeatInterval.default.get,
    WriteConfig.HeartbeatTolerableMisses.default.get)

  def from(options: Map[String, String]): HeartbeatPolicy =
    HeartbeatPolicy(WriteConfig.HeartbeatInterval.from(options).get,
      WriteConfig.HeartbeatTolerableMisses.from(options).get)
}

/**
 * A file whose modification time a daemon thread renews every `intervalMs` until [[close]],
 * which deletes it. Instants use `.hoodie/.heartbeat/<instant>` (the folder and naming Apache
 * Hudi's heartbeat client uses, so its lazy failed-write cleaning sees pyhudi's writers alive);
 * [[TableLock]] renews its lock file the same way. A renewal that fails is retried at the next
 * tick: a writer whose beats stop may be judged dead and rolled back, which its commit detects.
 */
final class Heartbeat private (storage: Storage, val path: String, intervalMs: Long) extends AutoCloseable {
  private val timer = new Timer(s"pyhudi-heartbeat ${path.substring(path.lastIndexOf('/') + 1)}", true)
  timer.scheduleAtFixedRate(new TimerTask {
      override def run(): Unit =
        try storage.touch(path)
        catch { case NonFatal(_) => () }
    }, intervalMs, intervalMs)

  @volatile private var closed = false

  /** Stops the renewals and deletes the file. Repeatable. */
  override def close(): Unit = if (!closed) {
    stop()
    storage.deleteQuietly(path)
  }

  /** Stops the renewals and leaves the file (its owner decides whether to delete it). */
  def stop(): Unit = {
    closed = true
    timer.cancel()
  }
}

object Heartbeat {

  val Folder = ".heartbeat"

  def path(metaPath: String, instant: String): String = s"$metaPath/$Folder/$instant"

  /** Creates (or renews) `path` now and keeps renewing it. */
  def beat(storage: Storage, path: String, intervalMs: Long): Heartbeat = {
    storage.create(path, Array.emptyByteArray, overwrite = true)
    new Heartbeat(storage, path, intervalMs)
  }

  /** Keeps renewing the existing file `path`, leaving its content. */
  def renew(storage: Storage, path: String, intervalMs: Long): Heartbeat = new Heartbeat(storage, path, intervalMs)

  /** Starts the heartbeat of a writer's instant: call before the instant's first state file. */
  def start(storage: Storage, metaPath: String, instant: String, policy: HeartbeatPolicy): Heartbeat =
    beat(storage, path(metaPath, instant), policy.intervalMs)

  /** When the instant's writer last beat, if it ever did. */
  def lastBeat(storage: Storage, metaPath: String, instant: String): Option[Long] =
    storage.modificationTime(path(metaPath, instant))

  /**
   * True when the instant's writer beat within the policy's expiry. An instant without a
   * heartbeat file counts as dead, as in Apache Hudi: its writer crashed before beating, or
   * did not beat at all (an Apache Hudi writer in single-writer mode).
   */
  def isAlive(storage: Storage, metaPath: String, instant: String, policy: HeartbeatPolicy,
      nowMs: Long = System.currentTimeMillis()): Boolean =
    lastBeat(storage, metaPath, instant).exists(policy.isAlive(_, nowMs))
}
