// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import io.pyhudi.errors.Errors

/**
 * An exclusive lock shared by the writers of one table (Apache Hudi's `LockProvider`): writers
 * hold it only while they check the timeline and change it. One instance serves one thread's
 * [[LockProvider.withLock]] call.
 */
trait LockProvider extends AutoCloseable {

  /** Apache Hudi's class name of this provider, for errors and logs. */
  def name: String

  /** Where the lock lives (a file, a table path, a ZooKeeper node). */
  def target: String

  /** Takes the lock within `waitMs`; false when it stayed taken. */
  def tryLock(waitMs: Long): Boolean

  def unlock(): Unit

  /** Who holds the lock now, as far as the provider can tell. */
  def holder: Option[String]

  /** Releases connections; the lock must be unlocked first. */
  override def close(): Unit = ()
}

object LockProvider {

  /**
   * Runs `body` holding `provider`'s lock: up to `1 + retries` attempts of `waitMs` each, then
   * fails with LOCK_TIMEOUT naming the provider and the holder. Closes the provider.
   */
  def withLock[T](provider: LockProvider, waitMs: Long, retries: Int)(body: => T): T =
    try {
      var attempt = 0
      while (!provider.tryLock(waitMs)) {
        attempt += 1
        if (attempt > retries)
          throw Errors.lockProviderTimeout(provider.name, provider.target,
            provider.holder.getOrElse("an unknown holder"), waitMs,
            retries)
      }
      try body
      finally provider.unlock()
    } finally provider.close()
}
