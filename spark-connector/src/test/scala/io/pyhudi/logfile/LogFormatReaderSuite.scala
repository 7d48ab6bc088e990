// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import java.nio.ByteBuffer
import java.nio.file.Files

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.CorruptFileException
import io.pyhudi.storage.Storage

/** Damaged and unusual log files: the reader yields corrupt blocks and resynchronises. */
class LogFormatReaderSuite extends AnyFunSuite {
  import LogTestData._

  private val path = "mem://.f_001.log.1_0-1-1"
  private def read(b: Array[Byte]): Seq[LogBlock] = LogFormatReader.readBytes(path, b)

  private val a = bytes(data("001", "k1", "k2"))
  private val b = bytes(delete("002", "k1"))
  private val c = bytes(LogBlockWriter.rollbackBlock("003", "002"))

  test("an empty file has no blocks") {
    assert(read(Array.emptyByteArray).isEmpty)
  }

  test("well-formed blocks read back in order") {
    val blocks = read(a ++ b ++ c)
    assert(blocks.map(_.getClass) == Seq(classOf[AvroDataBlock], classOf[DeleteBlock], classOf[CommandBlock]))
    assert(blocks.map(keys) == Seq(Seq("k1", "k2"), Seq("k1"), Nil))
    assert(blocks.flatMap(_.instantTime) == Seq("001", "002", "003"))
  }

  test("a file cut in the middle of its only block is one corrupt block and no records") {
    for (cut <- Seq(3, 10, 20, a.length / 2, a.length - 1)) {
      assert(read(a.take(cut)) == Seq(CorruptBlock(path, 0, cut)), s"cut at $cut")
    }
  }

  test("a cut in the last block keeps the blocks before it") {
    val blocks = read(a ++ b.take(b.length - 3))
    assert(blocks.head.isInstanceOf[AvroDataBlock])
    assert(blocks(1) == CorruptBlock(path, a.length, b.length - 3))
  }

  test("a wrong blockSize makes a corrupt block up to the next magic") {
    for (size <- Seq(-1L, 0L, 5L, a.length.toLong, 1L << 40)) {
      val bad = a.clone()
      ByteBuffer.wrap(bad).putLong(6, size)
      val blocks = read(bad ++ b ++ c)
      assert(blocks.head == CorruptBlock(path, 0, a.length), s"blockSize $size")
      assert(blocks.tail.map(_.getClass) == Seq(classOf[DeleteBlock], classOf[CommandBlock]))
    }
  }

  test("a wrong trailing length makes the block corrupt") {
    val bad = a.clone()
    ByteBuffer.wrap(bad).putLong(bad.length - 8, 7L)
    assert(read(bad ++ b).map(_.getClass) == Seq(classOf[CorruptBlock], classOf[DeleteBlock]))
  }

  test("garbage between blocks is one corrupt block, then reading resumes") {
    val garbage = Array.fill[Byte](37)(0x42) ++ "#HUD".getBytes("US-ASCII")
    val blocks = read(a ++ garbage ++ b)
    assert(blocks(1) == CorruptBlock(path, a.length, garbage.length))
    assert(blocks.map(_.getClass) == Seq(classOf[AvroDataBlock], classOf[CorruptBlock], classOf[DeleteBlock]))
    assert(read(garbage ++ a).map(_.getClass) == Seq(classOf[CorruptBlock], classOf[AvroDataBlock]))
    assert(read(a ++ "#HU".getBytes("US-ASCII")).last == CorruptBlock(path, a.length, 3))
  }

  test("resynchronisation finds a magic split across the scan buffer") {
    for (gap <- Seq((1 << 16) - 3, (1 << 16) + 1, 200000)) {
      val blocks = read(Array.fill[Byte](gap)(7) ++ a ++ b)
      assert(blocks.head == CorruptBlock(path, 0, gap), s"gap $gap")
      assert(blocks.tail.map(keys) == Seq(Seq("k1", "k2"), Seq("k1")))
    }
  }

  test("an unknown block type is a corrupt block spanning exactly its frame") {
    for (code <- Seq(BlockType.Corrupt, 9, -1)) {
      val odd = a.clone()
      ByteBuffer.wrap(odd).putInt(18, code)
      val blocks = read(odd ++ b)
      assert(blocks.head == CorruptBlock(path, 0, a.length), s"type $code")
      assert(blocks.tail.map(_.getClass) == Seq(classOf[DeleteBlock]))
    }
  }

  test("an unknown log format version or a header overrunning its frame is corrupt") {
    val version = a.clone()
    ByteBuffer.wrap(version).putInt(14, 2)
    val header = a.clone()
    ByteBuffer.wrap(header).putInt(30, 1 << 20) // length of the first header value
    for (bad <- Seq(version, header))
      assert(read(bad ++ c).map(_.getClass) == Seq(classOf[CorruptBlock], classOf[CommandBlock]))
  }

  test("HFILE and CDC blocks are kept as unsupported blocks") {
    for (code <- Seq(BlockType.HFileData, BlockType.CdcData)) {
      val odd = bytes(data("004", "k9")).clone()
      ByteBuffer.wrap(odd).putInt(18, code)
      val blocks = read(odd ++ c)
      assert(blocks.head == UnsupportedBlock(blocks.head.header, code, path, 0))
      assert(blocks.head.instantTime.contains("004"))
      assert(blocks(1).isInstanceOf[CommandBlock])
    }
  }

  test("a DELETE block with undecodable content fails naming the file and offset") {
    val bad = bytes(DeleteBlock(Map(HeaderKey.InstantTime -> "005"), Nil)).clone()
    val contentStart = bad.length - 8 - 4 - LogBlockWriter.deleteContent(Nil).length
    ByteBuffer.wrap(bad).putInt(contentStart, 2) // Kryo-era content version
    val e = intercept[CorruptFileException](read(a ++ bad))
    assert(e.getMessage.contains(path) && e.getMessage.contains(s"offset ${a.length}"))
  }

  test("reading through Hadoop storage matches reading the bytes") {
    val file = Files.createTempFile("pyhudi-log", ".log")
    try {
      val content = a ++ Array.fill[Byte](100000)(1) ++ b ++ c.take(50)
      Files.write(file, content)
      val it = LogFormatReader.read(new Storage(new Configuration()), file.toString)
      val fromStorage =
        try it.toList
        finally it.close()
      val fromBytes = LogFormatReader.readBytes(file.toString, content)
      assert(fromStorage.map(_.getClass) == fromBytes.map(_.getClass))
      assert(fromStorage.map(_.header) == fromBytes.map(_.header))
      def corrupt(blocks: Seq[LogBlock]) = blocks.filter(_.isInstanceOf[CorruptBlock])
      assert(corrupt(fromStorage) == corrupt(fromBytes))
      assert(fromStorage.map(keys) == fromBytes.map(keys))
    } finally Files.delete(file)
  }
}
