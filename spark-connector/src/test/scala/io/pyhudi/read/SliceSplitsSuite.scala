// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, LogFile}

class SliceSplitsSuite extends AnyFunSuite {

  private val MB = 1L << 20

  private def slice(id: String, baseSize: Option[Long], logSizes: Long*): FileSlice =
    FileSlice(FileGroupId("p", id), "001",
      baseSize.map(s => BaseFile(s"/t/p/${id}_0-1-2_001.parquet", id, "0-1-2", "001", s)),
      logSizes.zipWithIndex.map { case (s, i) =>
        LogFile(s"/t/p/.${id}_001.log.${i + 1}_0-1-2", id, "001", i + 1,
          "0-1-2", s)
      })

  test("the split size follows Spark's: bounded by maxPartitionBytes, shared over the minimum of tasks") {
    assert(SliceSplits.maxSplitBytes(10000 * MB, 128 * MB, 4 * MB, 2) == 128 * MB)
    assert(SliceSplits.maxSplitBytes(100 * MB, 128 * MB, 4 * MB, 2) == 50 * MB)
    assert(SliceSplits.maxSplitBytes(2 * MB, 128 * MB, 4 * MB, 2) == 4 * MB)
    assert(SliceSplits.maxSplitBytes(100 * MB, 128 * MB, 4 * MB, 0) == 100 * MB)
  }

  test("large log-free base files become ranges; slices with logs and log-only slices stay whole") {
    val big = slice("a", Some(250 * MB))
    val merged = slice("b", Some(250 * MB), 5 * MB)
    val logOnly = slice("c", None, 3 * MB)
    val splits = SliceSplits.split(Seq(big, merged, logOnly), 100 * MB)
    assert(splits.filter(_.slice == big).map(s => (s.start, s.length)) ==
      Seq((0L, 100 * MB), (100 * MB, 100 * MB), (200 * MB, 50 * MB)))
    assert(splits.filter(_.slice == merged).map(s => (s.start, s.length, s.cost)) == Seq((0L, 250 * MB, 255 * MB)))
    assert(splits.filter(_.slice == logOnly).map(s => (s.start, s.length, s.cost)) == Seq((0L, 0L, 3 * MB)))
  }

  test("tasks are as many as Spark's packing makes, rounded up to a multiple of the cores, and even") {
    val slices = (1 to 30).map(i => slice(f"f$i%02d", Some(3 * MB), MB / 2))
    val splits = SliceSplits.split(slices, 64 * MB)
    // Spark: 3.5 MB of files and 4 MB of open cost each, so 9 fit under 64 MB: groups of
    // 9, 9, 9 and 3. Four tasks on two cores, dealt evenly.
    val groups = SliceSplits.pack(splits, 64 * MB, 4 * MB, parallelism = 2)
    assert(groups.map(_.size) == Seq(8, 8, 7, 7))
    assert(groups.flatten.map(_.slice).toSet == slices.toSet, "every slice read once")
    assert(groups.flatten.size == slices.size)
    // Three cores: rounded up to six tasks of five.
    assert(SliceSplits.pack(splits, 64 * MB, 4 * MB, parallelism = 3).map(_.size) == Seq.fill(6)(5))
    // Never more tasks than splits.
    assert(SliceSplits.pack(splits.take(3), 64 * MB, 4 * MB, parallelism = 8).map(_.size) == Seq(1, 1, 1))
  }

  test("splits are dealt largest first to the task with the fewest bytes") {
    val sizes = Seq(40L, 30L, 20L, 10L, 10L, 10L)
    val slices = sizes.zipWithIndex.map { case (s, i) => slice(s"s$i", Some(s * MB)) }
    val groups = SliceSplits.pack(SliceSplits.split(slices, 64 * MB), 64 * MB, 0L, parallelism = 2)
    // Spark's packing: 40 | 30 20 10 | 10 10 -> 3 groups, rounded up to 4 tasks.
    assert(groups.map(_.map(_.length / MB)) == Seq(Seq(40), Seq(30), Seq(20, 10), Seq(10, 10)))
  }

  test("a split larger than the split size gets a task of its own, and nothing is dropped") {
    val huge = slice("h", Some(500 * MB), MB)
    val small = (1 to 3).map(i => slice(s"s$i", Some(MB)))
    val groups = SliceSplits.pack(SliceSplits.split(huge +: small, 128 * MB), 128 * MB, 4 * MB, parallelism = 2)
    assert(groups.head.map(_.slice) == Seq(huge))
    assert(groups.tail.flatten.map(_.slice).toSet == small.toSet)
    assert(SliceSplits.pack(Nil, 128 * MB, 4 * MB, parallelism = 2).isEmpty)
  }
}
