// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import scala.util.control.NonFatal

import io.pyhudi.storage.Storage

/**
 * Reads the blocks of a log file in file order (hudi-format.md §6.1–6.7).
 *
 * Damage does not stop the read: a partly written block, a block whose sizes disagree, an
 * unknown block type or bytes where no block starts become a [[CorruptBlock]] (logged as a
 * warning naming the file and offset), and reading resumes at the next block magic. What is not
 * forgiven: I/O errors, and a well-framed DELETE block whose list does not decode, because
 * skipping it would bring deleted rows back.
 */
object LogFormatReader {

  /**
   * Streams the blocks of the log file at `path`, one block in memory at a time. The file is
   * closed when the iterator is exhausted, fails, or is closed by the caller.
   */
  def read(storage: Storage, path: String): LogBlockIterator = {
    val length = storage.fileSize(path)
    val in = storage.open(path)
    val input =
      try LogInput.of(in, length)
      catch { case NonFatal(e) => in.close(); throw e }
    new LogBlockIterator(new LogBlockParser(path, input))
  }

  /** The blocks of a log file held in memory; `path` only names the file in blocks and errors. */
  def readBytes(path: String, bytes: Array[Byte]): Seq[LogBlock] = {
    val blocks = new LogBlockIterator(new LogBlockParser(path, LogInput.of(bytes)))
    try blocks.toList
    finally blocks.close()
  }
}

/** Blocks of one log file; closing it (or reaching the end) releases the file. */
final class LogBlockIterator private[logfile] (parser: LogBlockParser)
    extends Iterator[LogBlock] with AutoCloseable {

  private var pending: Option[LogBlock] = None
  private var finished = false

  override def hasNext: Boolean = {
    if (pending.isEmpty && !finished) {
      try {
        pending = parser.next()
        if (pending.isEmpty) close()
      } catch { case e: Throwable => close(); throw e }
    }
    pending.isDefined
  }

  override def next(): LogBlock = {
    if (!hasNext) throw new NoSuchElementException("no more blocks in the log file")
    val block = pending.get
    pending = None
    block
  }

  override def close(): Unit = if (!finished) {
    finished = true
    parser.close()
  }
}
