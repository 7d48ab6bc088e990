// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.storage.FileInfo
import io.pyhudi.timeline.Timeline

class FileSystemViewSuite extends AnyFunSuite {

  private val t1 = "20240101000000001"
  private val t2 = "20240101000000002"
  private val t3 = "20240101000000003"
  private val t4 = "20240101000000004"

  private def files(names: String*): Seq[FileInfo] = names.map(n => FileInfo(s"/t/p/$n", 100L, 0L))

  private def timeline(names: String*): Timeline = Timeline.fromFileNames(names)

  test("latest slice per group: newest visible base file, its logs attached") {
    val tl = timeline(s"$t1.commit", s"$t2.deltacommit", s"$t3.deltacommit")
    val listing = Seq("p" -> files(s"fa_0-1-1_$t1.parquet", s".fa_$t1.log.1_0-2-2",
      s".fa_$t1.log.2_0-3-3", s"fb_0-1-2_$t1.parquet", s"fb_0-2-3_$t3.parquet",
      ".hoodie_partition_metadata"))
    val view = new FileSystemView(tl, listing, t3, Set.empty)
    val slices = view.latestSlices
    assert(slices.map(_.groupId.fileId) == Seq("fa", "fb"))
    assert(slices.head.logFiles.map(_.version) == Seq(1, 2))
    assert(slices(1).baseInstant == t3)
    // Time travel to t2: fb's t3 base file is not visible yet.
    val old = new FileSystemView(tl, listing, t2, Set.empty).latestSlices
    assert(old.find(_.groupId.fileId == "fb").get.baseInstant == t1)
  }

  test("base files of pending or unknown instants are invisible; replaced groups are dropped") {
    val tl = timeline(s"$t1.commit", s"$t2.commit.requested", s"$t2.inflight", s"$t3.replacecommit")
    val listing = Seq("p" -> files(s"fa_0-1-1_$t1.parquet", s"fa_0-1-1_$t2.parquet",
      s"fc_0-1-1_$t3.parquet", s"fd_0-1-1_20240101000000000.parquet"))
    val view = new FileSystemView(tl, listing, t3, Set(FileGroupId("p", "fa")))
    assert(view.latestSlices.map(s => s.groupId.fileId -> s.baseInstant) ==
        Seq("fc" -> t3, "fd" -> "20240101000000000"), "fd predates the timeline: archived commit")
    val noReplace = new FileSystemView(tl, listing, t3, Set.empty)
    assert(noReplace.latestSlices.find(_.groupId.fileId == "fa").get.baseInstant == t1)
  }

  test("logs against a pending compaction fold into the previous slice") {
    val tl = timeline(s"$t1.deltacommit", s"$t2.compaction.requested", s"$t3.deltacommit")
    val listing = Seq("p" -> files(s"fa_0-1-1_$t1.parquet", s".fa_$t1.log.1_0-1-1",
      s"fa_0-9-9_$t2.parquet", s".fa_$t2.log.1_0-2-2"))
    val slice = new FileSystemView(tl, listing, t3, Set.empty).latestSlices.head
    assert(slice.baseInstant == t1)
    assert(slice.baseFile.get.instant == t1, "the half-written compaction base file is hidden")
    assert(slice.logFiles.map(_.baseInstant) == Seq(t1, t2))
  }

  test("a log-only file group forms a slice without base file") {
    val tl = timeline(s"$t1.deltacommit")
    val slices = new FileSystemView(tl, Seq("p" -> files(s".fz_$t1.log.1_0-1-1")), t1, Set.empty).latestSlices
    assert(slices.size == 1 && slices.head.baseFile.isEmpty && slices.head.logFiles.size == 1)
  }
}
