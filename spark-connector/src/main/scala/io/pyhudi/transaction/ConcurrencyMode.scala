// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

/** `hoodie.write.concurrency.mode`: how writers of one table coordinate (Apache Hudi's names). */
sealed abstract class ConcurrencyMode(val name: String)

object ConcurrencyMode {

  /** One writer at a time, checked: a second writer that overlaps the first fails. */
  case object SingleWriter extends ConcurrencyMode("SINGLE_WRITER")

  /** Writers run at once and check at commit, under a lock provider, whether they touched the same file groups. */
  case object OptimisticConcurrencyControl extends ConcurrencyMode("OPTIMISTIC_CONCURRENCY_CONTROL")

  val All: Seq[ConcurrencyMode] = Seq(SingleWriter, OptimisticConcurrencyControl)
}

/** `hoodie.cleaner.policy.failed.writes`: when a pending write of another writer counts as failed. */
sealed abstract class FailedWritesCleanPolicy(val name: String)

object FailedWritesCleanPolicy {

  /**
   * Before every write: pending writes whose heartbeat expired are rolled back, and a pending
   * write whose heartbeat is live stops the new write (the single-writer check).
   */
  case object Eager extends FailedWritesCleanPolicy("EAGER")

  /** Pending writes are rolled back only once their heartbeat expired; live ones are left to finish. */
  case object Lazy extends FailedWritesCleanPolicy("LAZY")

  val All: Seq[FailedWritesCleanPolicy] = Seq(Eager, Lazy)
}

/** `hoodie.write.lock.provider`: Apache Hudi's lock provider classes that pyhudi implements. */
sealed abstract class LockProviderType(val className: String) {
  def simpleName: String = className.substring(className.lastIndexOf('.') + 1)
}

object LockProviderType {
  case object FileSystem extends LockProviderType("org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider")
  case object InProcess extends LockProviderType("org.apache.hudi.client.transaction.lock.InProcessLockProvider")
  case object Zookeeper extends LockProviderType("org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider")

  val All: Seq[LockProviderType] = Seq(FileSystem, InProcess, Zookeeper)

  /** By Apache Hudi's class name, or its simple name. */
  def parse(value: String): Option[LockProviderType] = {
    val v = value.trim
    All.find(p => p.className.equalsIgnoreCase(v) || p.simpleName.equalsIgnoreCase(v))
  }
}

/** `hoodie.write.lock.conflict.resolution.strategy`: when two concurrent writes conflict. */
sealed abstract class ConflictResolutionStrategy(val className: String)

object ConflictResolutionStrategy {

  /** Apache Hudi's default: conflict when both wrote to one file group (or one is pending compaction). */
  case object SimpleFileWrites
      extends ConflictResolutionStrategy(
        "org.apache.hudi.client.transaction.SimpleConcurrentFileWritesConflictResolutionStrategy")

  val All: Seq[ConflictResolutionStrategy] = Seq(SimpleFileWrites)
}

/**
 * `hoodie.write.conflict.granularity`: what two concurrent writes must share to conflict, under
 * OPTIMISTIC_CONCURRENCY_CONTROL.
 */
sealed abstract class ConflictGranularity(val name: String)

object ConflictGranularity {

  /** Apache Hudi's rule: both wrote to one file group. */
  case object FileGroup extends ConflictGranularity("FILE_GROUP")

  /**
   * Merge-on-read: a write of only some columns (a partial-column write) conflicts with another
   * one on a shared file group only when both wrote one non-key column; a write of whole records
   * writes every column.
   */
  case object Column extends ConflictGranularity("COLUMN")

  val All: Seq[ConflictGranularity] = Seq(FileGroup, Column)
}
