// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.InvalidTableException

/** Block selection for one file slice (hudi-format.md §6.8 steps 1–3) over synthetic blocks. */
class LogScannerSuite extends AnyFunSuite {
  import LogTestData._

  private val committed = Set("001", "002", "004", "005")
  private def select(blocks: LogBlock*): Seq[LogBlock] = LogScanner.select(blocks, committed)

  test("blocks of uncommitted instants and blocks without an instant are skipped") {
    val kept = select(data("001", "a"), data("003", "b"), delete("002", "a"),
      AvroDataBlock(Map.empty, Array.emptyByteArray))
    assert(kept.map(keys) == Seq(Seq("a"), Seq("a")))
    assert(kept.flatMap(_.instantTime) == Seq("001", "002"))
  }

  test("a rollback removes every earlier block of its target, even behind newer blocks") {
    val kept = select(data("001", "a"), data("002", "b"), delete("002", "a"), data("004", "c"),
      LogBlockWriter.rollbackBlock("006", "002"), data("005", "d"))
    assert(kept.flatMap(_.instantTime) == Seq("001", "004", "005"))
  }

  test("a rollback does not remove blocks of its target that come after it") {
    val kept = select(LogBlockWriter.rollbackBlock("006", "002"), data("002", "b"))
    assert(kept.flatMap(_.instantTime) == Seq("002"))
  }

  test("corrupt blocks and non-rollback commands are ignored") {
    val other = CommandBlock(Map(HeaderKey.InstantTime -> "007", HeaderKey.CommandBlockType -> "5",
        HeaderKey.TargetInstantTime -> "001"))
    val kept = select(data("001", "a"), CorruptBlock("f", 10, 20), other)
    assert(kept.flatMap(_.instantTime) == Seq("001"))
  }

  test("a valid block of an unsupported type fails; an invalid or rolled-back one does not") {
    val hfile = UnsupportedBlock(Map(HeaderKey.InstantTime -> "004"), BlockType.HFileData, "/t/f.log", 0)
    val e = intercept[InvalidTableException](select(data("001", "a"), hfile))
    assert(e.getMessage.contains("/t/f.log") && e.getMessage.contains("HFILE_DATA"))
    assert(select(hfile.copy(header = Map(HeaderKey.InstantTime -> "003"))).isEmpty)
    assert(select(hfile, LogBlockWriter.rollbackBlock("008", "004")).isEmpty)
  }
}
