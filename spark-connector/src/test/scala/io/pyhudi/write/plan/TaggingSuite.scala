// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.plan

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, LogFile}
import io.pyhudi.write.{Location, WriteRecord}

/** Index tagging's figures, and the file groups a replacing write retires. */
class TaggingSuite extends AnyFunSuite {

  private def rec(key: String, partition: String, delete: Boolean = false): WriteRecord =
    WriteRecord(key, partition, null, null, isDelete = delete)

  private val a = Location("p1", "f-a")
  private val b = Location("p2", "f-b")
  private val tagged: Seq[(WriteRecord, Option[Location])] = Seq(
    rec("1", "p1") -> Some(a), rec("2", "p1") -> Some(a), rec("3", "p2", delete = true) -> Some(b),
    rec("4", "p1") -> None, rec("5", "p2") -> None, rec("6", "p2") -> None,
    rec("7", "p3", delete = true) -> None) // deleting a key the table does not hold

  test("located records mark their group updated, deletes included; unlocated non-deletes are inserts") {
    assert(Tagging.count(tagged.iterator) == Tagging(Set(a, b), Map("p1" -> 1L, "p2" -> 2L), located = 3L))
    assert(Tagging.count(Iterator.empty) == Tagging(Set.empty, Map.empty, located = 0L))
  }

  test("counting per task and combining gives the counts of one pass, however the records are split") {
    val whole = Tagging.count(tagged.iterator)
    (1 to tagged.size).foreach { n =>
      assert(Tagging.combine(tagged.grouped(n).map(p => Tagging.count(p.iterator)).toSeq) == whole, n)
    }
  }

  test("replaced file ids: groups with a base file and groups that lost a file, sorted, once each") {
    def base(p: String, id: String): BaseFile = BaseFile(s"/t/$p/${id}_0-1-0_1.parquet", id, "0-1-0", "1", 10L)
    def slice(p: String, id: String, withBase: Boolean): FileSlice = FileSlice(FileGroupId(p, id), "1",
      if (withBase) Some(base(p, id)) else None,
      if (withBase) Nil else LogFile.parse(s"/t/$p/.${id}_1.log.1_0-1-0", 5L).toSeq)
    val files = TableFiles(
      Map("p1" -> Seq(slice("p1", "f-2", withBase = true), slice("p1", "f-1", withBase = true),
          slice("p1", "f-3", withBase = false)),
        "p2" -> Seq(slice("p2", "f-4", withBase = false))),
      lost = Set(FileGroupId("p1", "f-1"), FileGroupId("p2", "f-4")))
    assert(files.replacedFileIds == Map("p1" -> Seq("f-1", "f-2"), "p2" -> Seq("f-4")))
    assert(TableFiles.Empty.replacedFileIds.isEmpty)
  }
}
