// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors
import io.pyhudi.storage.Storage

/**
 * How one writer coordinates with the others, from its options: the concurrency mode, when
 * pending writes count as failed, its heartbeat, and the lock it takes to check and change the
 * timeline.
 *
 * @param lockWaitMs SINGLE_WRITER: the wait for [[TableLock]]; OCC: one attempt's wait for the provider
 * @param earlyConflicts OCC: check other writers' markers (and, with `earlyCheckCommits`, what
 *                       committed since) before writing anything
 */
final case class ConcurrencyConfig(heartbeat: HeartbeatPolicy, lockWaitMs: Long,
    mode: ConcurrencyMode = ConcurrencyMode.SingleWriter,
    failedWrites: FailedWritesCleanPolicy = FailedWritesCleanPolicy.Eager,
    lock: LockSettings = LockSettings.Default,
    earlyConflicts: Boolean = false, earlyCheckCommits: Boolean = false) {

  def optimistic: Boolean = mode == ConcurrencyMode.OptimisticConcurrencyControl

  /** Runs `body` holding the table's lock: [[TableLock]] for one writer, else the lock provider. */
  def withLock[T](storage: Storage, metaPath: String)(body: => T): T =
    if (!optimistic) TableLock.withLock(storage, metaPath, heartbeat, lockWaitMs)(body)
    else LockProvider.withLock(lock.open(storage, metaPath, heartbeat), lockWaitMs, lock.numRetries)(body)
}

/** The lock provider of OPTIMISTIC_CONCURRENCY_CONTROL and its options. */
final case class LockSettings(provider: LockProviderType, filesystemPath: Option[String], filesystemExpireMin: Long,
    numRetries: Int, zookeeperUrl: Option[String], zookeeperPort: Int, zookeeperLockKey: Option[String],
    zookeeperBasePath: Option[String], tableName: Option[String]) {

  /** A provider for one locked step of the table at `metaPath` (`<base path>/.hoodie`). */
  def open(storage: Storage, metaPath: String, heartbeat: HeartbeatPolicy): LockProvider = provider match {
    case LockProviderType.FileSystem =>
      val folder = filesystemPath.map(p => storage.qualify(p).stripSuffix("/")).getOrElse(metaPath)
      new FileSystemLock(storage, s"$folder/${FileSystemLock.FileName}", TableLock.policy(heartbeat),
        filesystemExpireMin * 60000L)
    case LockProviderType.InProcess => new InProcessLock(metaPath.stripSuffix("/").stripSuffix("/.hoodie"))
    case LockProviderType.Zookeeper =>
      val url = zookeeperUrl.getOrElse(throw Errors.missingOption(WriteConfig.ZookeeperUrl.key,
          s"${WriteConfig.LockProvider.key}=${provider.className} needs it"))
      val base = zookeeperBasePath.getOrElse(throw Errors.missingOption(WriteConfig.ZookeeperBasePath.key,
          s"${WriteConfig.LockProvider.key}=${provider.className} needs it"))
      val key = zookeeperLockKey.orElse(tableName)
        .getOrElse(metaPath.stripSuffix("/").stripSuffix("/.hoodie").split('/').last)
      new ZookeeperLock(ZookeeperLock.connectString(url, zookeeperPort), base, key)
  }
}

object LockSettings {
  val Default: LockSettings = LockSettings(WriteConfig.LockProvider.default.get, None,
    WriteConfig.LockFilesystemExpire.default.get, WriteConfig.LockNumRetries.default.get.toInt, None,
    WriteConfig.ZookeeperPort.default.get, None, None, None)

  def from(options: Map[String, String]): LockSettings = LockSettings(WriteConfig.LockProvider.from(options).get,
    WriteConfig.LockFilesystemPath.from(options), WriteConfig.LockFilesystemExpire.from(options).get,
    math.min(WriteConfig.LockNumRetries.from(options).get, Int.MaxValue.toLong).toInt,
    WriteConfig.ZookeeperUrl.from(options),
    WriteConfig.ZookeeperPort.from(options).get, WriteConfig.ZookeeperLockKey.from(options),
    WriteConfig.ZookeeperBasePath.from(options), WriteConfig.TableName.from(options))
}

object ConcurrencyConfig {
  val Default: ConcurrencyConfig = ConcurrencyConfig(HeartbeatPolicy.Default, WriteConfig.LockWaitTime.default.get)

  def from(options: Map[String, String]): ConcurrencyConfig = {
    val mode = WriteConfig.ConcurrencyMode.from(options).get
    val occ = mode == ConcurrencyMode.OptimisticConcurrencyControl
    val failed = WriteConfig.FailedWritesCleanPolicy.from(options)
      .getOrElse(if (occ) FailedWritesCleanPolicy.Lazy else FailedWritesCleanPolicy.Eager)
    // As Apache Hudi: under OCC a pending write of a live writer is never rolled back.
    if (occ && failed == FailedWritesCleanPolicy.Eager)
      throw Errors.invalidOption(WriteConfig.FailedWritesCleanPolicy.key, failed.name,
        s"${WriteConfig.ConcurrencyMode.key}=${mode.name} needs ${FailedWritesCleanPolicy.Lazy.name}")
    ConcurrencyConfig(HeartbeatPolicy.from(options), WriteConfig.LockWaitTime.from(options).get, mode, failed,
      LockSettings.from(options), occ && WriteConfig.EarlyConflictDetection.from(options).get,
      WriteConfig.EarlyConflictCheckCommits.from(options).get)
  }
}
