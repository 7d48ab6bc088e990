// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import java.nio.file.FileAlreadyExistsException
import java.util.UUID

import io.pyhudi.errors.Errors
import io.pyhudi.storage.Storage
import io.pyhudi.table.{HoodieTable, MetadataTable}

/**
 * Writes the state files of instants into `.hoodie/` (table layout version 1, hudi-format.md
 * §2.2). Every state file is published whole and never over an existing one: its bytes go to a
 * hidden temp file in `.hoodie/` whose name no timeline reader takes for an instant (it starts
 * with `.` and ends with `.tmp`), which is then renamed into place. An existing target fails
 * the call with [[io.pyhudi.errors.InstantConflictException]].
 *
 * Which content goes into which file is the caller's business (hudi-format.md §2.2.1); note that
 * a compaction completes as a `commit`.
 *
 * @param metaPath the table's `.hoodie` folder
 */
final class TimelineWriter(val storage: Storage, metaPath: String) {

  /** Writes `T.<action>.requested`. */
  def requested(instantTime: String, action: String, content: Array[Byte] = Array.emptyByteArray): Instant =
    publish(Instant(instantTime, action, State.Requested), content)

  /** Writes the inflight file: `T.inflight` for a commit, `T.<action>.inflight` otherwise. */
  def inflight(instantTime: String, action: String, content: Array[Byte] = Array.emptyByteArray): Instant =
    publish(Instant(instantTime, action, State.Inflight), content)

  /**
   * Writes the completed file `T.<action>`: for the write actions, the commit point. Fails with
   * [[io.pyhudi.errors.InstantConflictException]] when the instant is already completed.
   */
  def complete(instantTime: String, action: String, content: Array[Byte]): Instant =
    publish(Instant(instantTime, action, State.Completed), content)

  /** The path of an instant's state file. */
  def path(instant: Instant): String = s"$metaPath/${instant.fileName}"

  /** Reads the content of an instant's state file. */
  def read(instant: Instant): Array[Byte] = storage.readAll(path(instant))

  /** Every state file currently in `.hoodie/`, as instants (several per instant time). */
  def stateFiles(): Seq[Instant] = storage.listFiles(metaPath).flatMap(f => Instant.fromFileName(f.name))

  /** The timeline as it is on storage now. */
  def timeline(): Timeline = Timeline(stateFiles())

  /**
   * Deletes every state file of `instantTime`, the most advanced first, so that an interrupted
   * call leaves the instant pending rather than half completed. Returns the deleted names. A
   * savepoint of the same time is a separate instant: its files go only with `savepoint`.
   */
  def deleteInstantFiles(instantTime: String, savepoint: Boolean = false): Seq[String] = {
    val files =
      stateFiles().filter(i => i.timestamp == instantTime && (i.action == Action.Savepoint) == savepoint).sortBy {
        case i if i.isCompleted => 0
        case i if i.state == State.Inflight => 1
        case _ => 2
      }
    files.foreach(i => storage.delete(path(i)))
    files.map(_.fileName)
  }

  /** Deletes one state file; fails with [[io.pyhudi.errors.CommitFailedException]] when it is still there. */
  def deleteArchived(instant: Instant): Unit = {
    val p = path(instant)
    if (!storage.delete(p) && storage.exists(p)) throw Errors.archivalFailed(p)
  }

  private def publish(instant: Instant, content: Array[Byte]): Instant = {
    // Every change pyhudi makes to a table passes here first: drop Apache Hudi's metadata table
    // before it could miss this instant (MetadataTable explains why it is removed, not kept).
    MetadataTable.removeIfPresent(storage, metaPath.stripSuffix(s"/${HoodieTable.MetaFolder}"),
      s"writing ${instant.fileName}")
    val target = path(instant)
    val temp = s"$metaPath/.${instant.fileName}.${UUID.randomUUID()}.tmp"
    try storage.createAtomically(target, content, temp)
    catch {
      case e: FileAlreadyExistsException => throw Errors.instantFileExists(target, e)
    }
    instant
  }
}
