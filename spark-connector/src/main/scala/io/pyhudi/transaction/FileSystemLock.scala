// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import java.net.InetAddress
import java.nio.file.FileAlreadyExistsException
import java.util.UUID

import scala.util.control.NonFatal

import io.pyhudi.storage.Storage

/**
 * A lock file created with an atomic create-if-absent (Apache Hudi's
 * `FileSystemBasedLockProvider`, and the single-writer [[TableLock]]). The file names its
 * holder and when it took the lock, and is renewed like a heartbeat while held. The next writer
 * breaks a lock file whose renewals stopped for longer than `staleness` allows (its holder was
 * killed) or, when `expireMs` > 0, one held longer than that.
 */
final class FileSystemLock(storage: Storage, val path: String, staleness: HeartbeatPolicy, expireMs: Long = 0L,
    clock: () => Long = () => System.currentTimeMillis())
    extends LockProvider {
  private val owner = UUID.randomUUID().toString
  private var held: Option[Heartbeat] = None

  override def name: String = LockProviderType.FileSystem.className
  override def target: String = path

  override def tryLock(waitMs: Long): Boolean = {
    val deadline = clock() + waitMs
    var pause = 10L
    while (true) {
      try {
        val content = s"owner=$owner host=${FileSystemLock.host} thread=${Thread.currentThread.getName} " +
          s"acquired=${clock()}"
        storage.createAtomically(path, content.getBytes("UTF-8"), s"$path.$owner.tmp")
        held = Some(Heartbeat.renew(storage, path, staleness.intervalMs)) // keeps the holder's content
        return true
      } catch {
        case _: FileAlreadyExistsException | _: org.apache.hadoop.fs.FileAlreadyExistsException =>
          val now = clock()
          if (isBroken(path, now)) breakStale()
          else if (now >= deadline) return false
          else {
            Thread.sleep(pause)
            pause = math.min(pause * 2, 200L)
          }
      }
    }
    false
  }

  /**
   * Stops renewing and deletes the lock file if it still names this holder: a lock held past
   * `expireMs` may have been broken and taken by another writer, whose file must stay.
   */
  override def unlock(): Unit = {
    held.foreach(_.stop())
    held = None
    if (holder.exists(_.startsWith(s"owner=$owner "))) storage.deleteQuietly(path)
  }

  /**
   * Moves a lock file judged stale aside and deletes it, rather than deleting `path`: between
   * this writer's judgement and its delete another writer may have broken the same file and
   * taken the lock, and a plain delete would remove that live lock (two holders). The move is
   * atomic, so exactly one breaker gets each file; a breaker that finds it moved a live lock
   * puts it back. What is left is a window of one rename in which a third writer could create
   * the lock while a live one is set aside (docs/concurrency.md).
   */
  private def breakStale(): Unit = {
    val aside = s"$path.$owner.broken"
    val moved =
      try storage.renameNoReplace(path, aside)
      catch { case NonFatal(_) => storage.exists(aside) } // another breaker unlinked `path` first
    if (moved) {
      if (isBroken(aside, clock())) storage.deleteQuietly(aside)
      else if (!storage.renameNoReplace(aside, path)) storage.deleteQuietly(aside)
    }
  }

  override def holder: Option[String] = content(path)

  /** The lock file `file` was left by a killed process (renewals stopped), or held past `expireMs`. */
  private def isBroken(file: String, now: Long): Boolean = storage.modificationTime(file) match {
    case Some(t) if !staleness.isAlive(t, now) => true
    case Some(_) if expireMs > 0 => content(file).flatMap(FileSystemLock.acquiredAt).exists(now - _ > expireMs)
    case _ => false
  }

  private def content(file: String): Option[String] =
    try Some(new String(storage.readAll(file), "UTF-8")).filter(_.nonEmpty)
    catch { case NonFatal(_) => None }
}

object FileSystemLock {

  /** Apache Hudi's lock file name in `hoodie.write.lock.filesystem.path` (default `.hoodie`). */
  val FileName = "lock"

  private lazy val host: String =
    try InetAddress.getLocalHost.getHostName
    catch { case NonFatal(_) => "unknown-host" }

  private def acquiredAt(content: String): Option[Long] =
    content.split(' ').collectFirst { case s if s.startsWith("acquired=") => s.stripPrefix("acquired=") }
      .flatMap(_.toLongOption)
}
