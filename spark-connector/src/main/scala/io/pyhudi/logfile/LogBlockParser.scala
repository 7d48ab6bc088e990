// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import java.io.{Closeable, EOFException}
import java.nio.charset.StandardCharsets.UTF_8

import scala.collection.immutable.ListMap

import org.slf4j.LoggerFactory

/**
 * Parses the blocks of one log file in order (layout in hudi-format.md §6.2).
 *
 * A block is trusted only once its frame checks out: `blockSize` fits in the file and the
 * trailing length equals `blockSize + 6` (Hudi's own test for a partly written block). A bad
 * frame yields a [[CorruptBlock]] up to the next `#HUDI#` magic. A good frame whose inside does
 * not add up (unknown type or version, maps or content overrunning the frame) yields a
 * [[CorruptBlock]] of exactly that frame, and parsing resumes after it.
 */
private[logfile] final class LogBlockParser(path: String, in: LogInput) extends Closeable {
  import LogBlockParser._

  /** The next block, or None at the end of the file. */
  def next(): Option[LogBlock] = {
    val start = in.pos
    val remaining = in.length - start
    if (remaining <= 0) None
    else if (remaining < FramePrefix) Some(corruptToNextMagic(start, "truncated block start"))
    else {
      val magic = in.readBytes(Magic.length)
      if (!java.util.Arrays.equals(magic, Magic)) Some(corruptToNextMagic(start, "no block magic"))
      else {
        val blockSize = in.readLong()
        frameProblem(start, blockSize) match {
          case Some(why) => Some(corruptToNextMagic(start, why))
          case None => Some(parseFrame(start, start + FramePrefix + blockSize))
        }
      }
    }
  }

  def close(): Unit = in.close()

  /** Why the frame starting at `start` cannot be trusted, if it cannot. */
  private def frameProblem(start: Long, blockSize: Long): Option[String] = {
    if (blockSize < MinBlockSize || blockSize > in.length - start - FramePrefix)
      return Some(s"blockSize $blockSize does not fit in the ${in.length}-byte file")
    val end = start + FramePrefix + blockSize
    in.seek(end - 8)
    val trailing = in.readLong()
    in.seek(start + FramePrefix)
    if (trailing != blockSize + Magic.length)
      Some(s"trailing block length $trailing does not match blockSize $blockSize")
    else None
  }

  private def parseFrame(start: Long, end: Long): LogBlock = {
    try {
      val version = in.readInt()
      if (version != FormatVersion) throw Malformed(s"unsupported log format version $version")
      val blockType = in.readInt()
      val header = readMap(end)
      val contentLength = in.readLong()
      if (contentLength < 0 || contentLength > end - in.pos - 12 || contentLength > MaxContent)
        throw Malformed(s"content length $contentLength does not fit in the block")
      val block = blockType match {
        case BlockType.Command => skip(contentLength); CommandBlock(header)
        case BlockType.Delete =>
          DeleteBlock(header, DeleteBlockContent.decode(in.readBytes(contentLength.toInt), path, start))
        case BlockType.AvroData => AvroDataBlock(header, in.readBytes(contentLength.toInt), path, start)
        case BlockType.ParquetData => ParquetDataBlock(header, in.readBytes(contentLength.toInt), path, start)
        case BlockType.HFileData | BlockType.CdcData =>
          skip(contentLength); UnsupportedBlock(header, blockType, path, start)
        case other => throw Malformed(s"block type ${BlockType.name(other)}")
      }
      readMap(end) // the footer: written empty, carries nothing a reader needs
      if (in.pos != end - 8) throw Malformed(s"block fields end at ${in.pos}, the frame at ${end - 8}")
      in.seek(end)
      block
    } catch {
      case Malformed(why) => corruptFrame(start, end, why)
      case _: EOFException => corruptFrame(start, end, "fields run past the end of the file")
    }
  }

  private def skip(n: Long): Unit = in.seek(in.pos + n)

  /** A header or footer map: int32 count, then per entry int32 key, int32 length, UTF-8 value. */
  private def readMap(end: Long): Map[Int, String] = {
    val count = in.readInt()
    if (count < 0 || count > (end - in.pos) / 8) throw Malformed(s"map of $count entries does not fit")
    (0 until count).foldLeft(ListMap.empty[Int, String]) { (map, _) =>
      val key = in.readInt()
      val length = in.readInt()
      if (length < 0 || length > end - in.pos) throw Malformed(s"map value of $length bytes does not fit")
      map.updated(key, new String(in.readBytes(length), UTF_8))
    }
  }

  private def corruptFrame(start: Long, end: Long, why: String): CorruptBlock = {
    in.seek(end)
    corrupt(start, end, why)
  }

  private def corruptToNextMagic(start: Long, why: String): CorruptBlock = {
    val end = nextMagic(start + 1)
    in.seek(end)
    corrupt(start, end, why)
  }

  private def corrupt(start: Long, end: Long, why: String): CorruptBlock = {
    log.warn(s"Corrupt log block in $path at offset $start ($why); skipping ${end - start} bytes")
    CorruptBlock(path, start, end - start)
  }

  /** Offset of the first magic at or after `from`, or the file length when there is none. */
  private def nextMagic(from: Long): Long = {
    var at = from // file offset of chunk(0)
    var carry = Array.emptyByteArray // tail of the previous chunk, for a magic split across chunks
    while (at + carry.length < in.length) {
      in.seek(at + carry.length)
      val n = math.min(ScanChunk.toLong, in.length - in.pos).toInt
      val chunk = carry ++ in.readBytes(n)
      val i = indexOfMagic(chunk)
      if (i >= 0) return at + i
      carry = chunk.takeRight(Magic.length - 1)
      at += chunk.length - carry.length
    }
    in.length
  }

  private def indexOfMagic(bytes: Array[Byte]): Int =
    (0 to bytes.length - Magic.length).find(i =>
      bytes(i) == Magic(0) &&
        (1 until Magic.length).forall(j => bytes(i + j) == Magic(j))).getOrElse(-1)
}

private[logfile] object LogBlockParser {
  private val log = LoggerFactory.getLogger(classOf[LogBlockParser])

  val Magic: Array[Byte] = "#HUDI#".getBytes(UTF_8)
  val FormatVersion = 1

  /** Magic plus the int64 blockSize that follows it. */
  val FramePrefix: Int = Magic.length + 8

  /** version, type, empty header, contentLength, empty footer, trailing length. */
  val MinBlockSize: Long = 4 + 4 + 4 + 8 + 4 + 8

  /** Largest content a JVM byte array can hold. */
  private val MaxContent = Int.MaxValue - 16L
  private val ScanChunk = 1 << 16

  private final case class Malformed(why: String) extends Exception(why, null, false, false)
}
