// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.BaseFile
import io.pyhudi.write.plan.{FileSizing, WritePlanner}

class WritePlannerSuite extends AnyFunSuite {

  private val mb = 1024L * 1024
  private def base(id: String, size: Long) = BaseFile(s"/t/p/${id}_0-1-1_001.parquet", id, "0-1-1", "001", size)
  private var n = 0
  private def newId(): String = { n += 1; s"new-$n" }

  test("updates get one bucket per file group; inserts fill small files, then new groups") {
    val sizing = FileSizing(smallFileLimit = 100 * mb, maxFileSize = 120 * mb, avgRecordSize = 1024)
    val big = base("big", 110 * mb)
    val small = base("small", 100 * mb - 1)
    val plan = WritePlanner.plan(
      updates = Map(Location("p", "big") -> big),
      inserts = Map("p" -> 50000L, "q" -> 10L),
      latestBases = Map("p" -> Seq(big, small)),
      sizing = sizing,
      newFileId = () => newId())
    assert(plan.buckets.head.fileId == "big" && plan.bucketForUpdate(Location("p", "big")) == 0)
    val pTargets = plan.insertTargets("p")
    // small has room for (120MB - (100MB - 1)) / 1KB = 20480 records, the rest opens new groups.
    assert(plan.buckets(pTargets.head._1).fileId == "small")
    assert(math.abs(pTargets.head._2 - 20480.0 / 50000) < 1e-9)
    assert(pTargets.last._2 == 1.0)
    assert(plan.buckets.count(_.isNew) == 2, "one new group for p (29520 < 122880), one for q")
    val routed = (0 until 2000).map(i => plan.bucketForInsert("p", s"key-$i"))
    assert(routed.toSet.subsetOf(pTargets.map(_._1).toSet))
    assert(routed == (0 until 2000).map(i => plan.bucketForInsert("p", s"key-$i")), "deterministic")
  }

  test("without small-file handling every insert opens new groups sized by records per file") {
    val sizing = FileSizing(100 * mb, maxFileSize = 10 * 1024, avgRecordSize = 1024)
    val plan = WritePlanner.plan(Map.empty, Map("p" -> 25L), Map("p" -> Seq(base("small", 1))), sizing,
      () => newId(), useSmallFiles = false)
    assert(plan.buckets.size == 3 && plan.buckets.forall(_.isNew))
    assert(plan.insertTargets("p").map(_._2) == Seq(0.4, 0.8, 1.0))
  }
}
