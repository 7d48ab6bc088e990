// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.InvalidOptionException
import io.pyhudi.index.bloom.KeyRanges

class IndexTypeSuite extends AnyFunSuite {

  test("option values parse case-insensitively into the enum; unknown values name the valid ones") {
    assert(WriteConfig.IndexType.from(Map.empty).get == IndexType.Bloom)
    assert(WriteConfig.IndexType.from(Map("hoodie.index.type" -> " global_simple ")).get == IndexType.GlobalSimple)
    val e = intercept[InvalidOptionException](WriteConfig.IndexType.from(Map("hoodie.index.type" -> "HBASE")))
    assert(e.getMessage.contains("HBASE") && IndexType.All.forall(t => e.getMessage.contains(t.name)))
  }

  test("what each type means to a write") {
    assert(IndexType.All.filter(_.isGlobal) == Seq(IndexType.GlobalBloom, IndexType.GlobalSimple))
    assert(IndexType.All.filter(_.usesBloomFilters) == Seq(IndexType.Bloom, IndexType.GlobalBloom))
    assert(IndexType.All.filter(_.isBucket) == Seq(IndexType.Bucket))
    assert(IndexType.All.map(_.name).distinct.size == IndexType.All.size)
  }

  private val files = Seq(
    (0, "a", Some("k10"), Some("k19")), (1, "a", Some("k20"), Some("k29")), (2, "b", Some("k10"), Some("k29")),
    (3, "b", None, None)) // no footer range: always a candidate

  test("range pruning keeps the files of the key's partition whose range contains it") {
    val ranges = new KeyRanges(files, global = false, pruneByRanges = true)
    assert(ranges.candidates("a", "k15") == Seq(0))
    assert(ranges.candidates("a", "k20") == Seq(1)) // bounds are inclusive
    assert(ranges.candidates("a", "k30").isEmpty)
    assert(ranges.candidates("b", "k15") == Seq(2, 3))
    assert(ranges.candidates("c", "k15").isEmpty)
  }

  test("a global index looks in every partition; without pruning every file of the scope is a candidate") {
    assert(new KeyRanges(files, global = true, pruneByRanges = true).candidates("zzz", "k25") == Seq(1, 2, 3))
    assert(new KeyRanges(files, global = false, pruneByRanges = false).candidates("a", "x") == Seq(0, 1))
    assert(new KeyRanges(files, global = true, pruneByRanges = false).candidates("a", "x") == Seq(0, 1, 2, 3))
  }

  test("every candidate a brute-force scan finds is kept (property over generated keys)") {
    val rnd = new scala.util.Random(7)
    val gen = (1 to 40).map { i =>
      val lo = f"k${rnd.nextInt(90)}%02d"
      val hi = f"k${lo.drop(1).toInt + rnd.nextInt(10)}%02d"
      (i, Seq("a", "b", "c")(rnd.nextInt(3)), Some(lo), Some(hi))
    }
    for (global <- Seq(false, true)) {
      val ranges = new KeyRanges(gen, global, pruneByRanges = true)
      for (p <- Seq("a", "b", "c"); n <- 0 until 100) {
        val key = f"k$n%02d"
        val expected = gen.filter(f => (global || f._2 == p) && f._3.get <= key && f._4.get >= key).map(_._1)
        assert(ranges.candidates(p, key).sorted == expected.sorted, s"$p $key global=$global")
      }
    }
  }
}
