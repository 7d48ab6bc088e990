// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import java.util.concurrent.{ConcurrentHashMap, TimeUnit}
import java.util.concurrent.locks.ReentrantLock

/**
 * Apache Hudi's `InProcessLockProvider`: one lock per table path in this JVM, for writers that
 * are threads of one process. It does not exclude writers in other processes.
 */
final class InProcessLock(basePath: String) extends LockProvider {
  private val lock = InProcessLock.of(basePath)

  override def name: String = LockProviderType.InProcess.className
  override def target: String = basePath
  override def tryLock(waitMs: Long): Boolean = lock.tryLock(waitMs, TimeUnit.MILLISECONDS)
  override def unlock(): Unit = lock.unlock()
  override def holder: Option[String] = lock.owner.map(t => s"thread '${t.getName}' of this JVM")
}

object InProcessLock {

  /** Exposes the holder, which ReentrantLock keeps protected. */
  private final class NamedLock extends ReentrantLock {
    def owner: Option[Thread] = Option(getOwner)
  }

  private val locks = new ConcurrentHashMap[String, NamedLock]()

  private def of(basePath: String): NamedLock =
    locks.computeIfAbsent(basePath.stripSuffix("/"), _ => new NamedLock)
}
