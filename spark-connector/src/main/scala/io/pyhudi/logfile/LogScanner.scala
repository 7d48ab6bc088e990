// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import scala.collection.mutable.ArrayBuffer

import io.pyhudi.errors.Errors
import io.pyhudi.filegroup.LogFile
import io.pyhudi.storage.Storage

/**
 * Picks the log blocks of one file slice that a reader must apply (hudi-format.md §6.8 steps
 * 1–3). Replaying the blocks into records is the merge's job.
 */
object LogScanner {

  /**
   * The valid data and delete blocks of `logFiles` (already in log order), oldest first.
   *
   * A data or delete block is kept when its INSTANT_TIME satisfies `isValid` (callers pass
   * "committed and at or before the query instant"); a block without INSTANT_TIME is skipped. A
   * rollback command removes every block kept so far whose INSTANT_TIME is its target, in any
   * earlier file. Command blocks are not gated by `isValid`: a rollback instant is not a write.
   * Corrupt blocks are ignored.
   *
   * @throws io.pyhudi.errors.InvalidTableException if a valid block is of a type pyhudi cannot
   *   decode (HFILE_DATA, CDC_DATA), rather than silently dropping its records
   */
  def validBlocks(storage: Storage, logFiles: Seq[LogFile], isValid: String => Boolean): Seq[LogBlock] =
    // Files open one at a time; each closes when its blocks are consumed or its read fails.
    select(logFiles.iterator.flatMap(f => LogFormatReader.read(storage, f.path)), isValid)

  /** [[validBlocks]] over blocks already read, in log order. */
  def select(blocks: IterableOnce[LogBlock], isValid: String => Boolean): Seq[LogBlock] = {
    val kept = ArrayBuffer.empty[LogBlock]
    blocks.iterator.foreach {
      case _: CorruptBlock => ()
      case c: CommandBlock =>
        // Only rollback exists; a target may appear in several earlier files, even after newer
        // valid blocks, when a write is rolled back late.
        if (c.isRollback) c.targetInstant.foreach(t => kept.filterInPlace(!_.instantTime.contains(t)))
      case b => if (b.instantTime.exists(isValid)) kept += b
    }
    kept.foreach {
      case u: UnsupportedBlock =>
        throw Errors.unsupportedLogBlock(
          u.path, u.offset, BlockType.name(u.blockType), u.instantTime.getOrElse(""))
      case _ => ()
    }
    kept.toList
  }
}
