// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.write.WriteRecord

class PrecombineSuite extends AnyFunSuite {

  private val project = UnsafeProjection.create(StructType(Seq(StructField("v", StringType))))
  private def record(key: String, ordering: Long, value: String) =
    WriteRecord(key, "p", project(InternalRow(UTF8String.fromString(value))).copy(), java.lang.Long.valueOf(ordering),
      isDelete = false)

  // The writer's rule: the larger ordering value, the later record on ties.
  private val pick = (a: WriteRecord, b: WriteRecord) =>
    if (a.ordering.asInstanceOf[java.lang.Long] > b.ordering.asInstanceOf[java.lang.Long]) a else b

  private def values(out: Iterator[(String, WriteRecord)]): Map[String, String] =
    out.toList.groupBy(_._1).map { case (k, rs) =>
      assert(rs.size == 1, s"key $k came out ${rs.size} times")
      k -> rs.head._2.row.getUTF8String(0).toString
    }

  private val input = Seq(
    record("a", 1, "a1"), record("b", 5, "b5"), record("a", 3, "a3"), record("b", 2, "b2"),
    record("c", 7, "c7"), record("c", 7, "c7-later"), record("d", 0, "d0"))
  private val expected = Map("a" -> "a3", "b" -> "b5", "c" -> "c7-later", "d" -> "d0")

  private val noSpill = (_: Iterator[(String, WriteRecord)]) => fail("spilled within the budget")

  test("one record per key: the larger ordering value, the later one on ties") {
    assert(values(Precombine(input.iterator.map(r => r.key -> r), pick, Precombine.Budget, noSpill)) == expected)
    assert(Precombine(Iterator.empty[(String, WriteRecord)], pick, Precombine.Budget, noSpill).isEmpty)
  }

  test("past the budget, the held records and then the rest go to the spilling combiner, in order of arrival") {
    val budget = Precombine.estimatedSize(input.head) * 3 // spills on the fourth record
    var handed: List[(String, WriteRecord)] = Nil
    // A combiner that applies the same rule in order of arrival, as Spark's does.
    val spill = (rest: Iterator[(String, WriteRecord)]) => {
      handed = rest.toList
      handed.foldLeft(Map.empty[String, WriteRecord]) { case (m, (k, r)) =>
        m.updated(k, m.get(k).fold(r)(pick(_, r)))
      }.iterator
    }
    assert(values(Precombine(input.iterator.map(r => r.key -> r), pick, budget, spill)) == expected)
    // the map's two keys, each combined from its two records, then the three records not yet seen
    assert(handed.take(2).map { case (k, r) => k -> r.row.getUTF8String(0).toString }.sorted ==
      List("a" -> "a3", "b" -> "b5"))
    assert(handed.drop(2).map(_._2.row.getUTF8String(0).toString) == List("c7", "c7-later", "d0"))
  }

  test("a record's estimated size follows its row, its key and its partition path") {
    val small = record("k", 1, "x")
    assert(Precombine.estimatedSize(record("k", 1, "x" * 1000)) > Precombine.estimatedSize(small) + 900)
    assert(Precombine.estimatedSize(record("k" * 100, 1, "x")) > Precombine.estimatedSize(small) + 100)
    assert(Precombine.estimatedSize(small.copy(row = null, isDelete = true)) < Precombine.estimatedSize(small))
  }
}
