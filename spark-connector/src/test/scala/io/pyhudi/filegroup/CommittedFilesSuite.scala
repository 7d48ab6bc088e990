// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.MissingFileException
import io.pyhudi.storage.FileInfo
import io.pyhudi.timeline.{CommitMetadata, Instant, Timeline, WriteStat}

class CommittedFilesSuite extends AnyFunSuite {

  private val t1 = "20240101000000001"
  private val t2 = "20240101000000002"
  private val t3 = "20240101000000003"
  private val t4 = "20240101000000004"

  private def files(names: String*): Seq[FileInfo] = names.map(n => FileInfo(s"/t/p/$n", 100L, 0L))

  private def fileId(name: String): String =
    BaseFile.parse(name, 0L).map(_.fileId).orElse(LogFile.parse(name, 0L).map(_.fileId)).get

  /** A table whose instants wrote the named files in partition p (log names give log stats). */
  private final class Table(instants: (String, Seq[String])*) {
    val timeline: Timeline = Timeline.fromFileNames(instants.map(_._1))
    private val written: Map[String, Seq[String]] = instants.toMap
    def metadata(i: Instant): CommitMetadata = CommitMetadata(
      written(i.fileName).map { n =>
        WriteStat("p", fileId(n), Some(s"p/$n"), logVersion = LogFile.parse(n, 0L).map(_.version))
      }, Map.empty, Map.empty, None, compacted = false)
    def missing(listed: Seq[String], asOf: String, withLogs: Boolean = true,
        replaced: Set[FileGroupId] = Set.empty, keep: FileGroupId => Boolean = _ => true): Seq[(String, String)] =
      CommittedFiles.missing(timeline, metadata, Seq("p" -> files(listed: _*)), asOf, replaced, withLogs, keep)
        .map(m => m.path.stripPrefix("p/") -> m.instant)
  }

  private val a1 = s"fa_0-1-1_$t1.parquet"
  private val a2 = s"fa_0-2-2_$t2.parquet"
  private val b1 = s"fb_0-1-2_$t1.parquet"

  test("the latest base file of a group is expected; older slices may be cleaned") {
    val table = new Table(s"$t1.commit" -> Seq(a1, b1), s"$t2.commit" -> Seq(a2))
    assert(table.missing(Seq(a1, a2, b1), t2).isEmpty)
    assert(table.missing(Seq(a2, b1), t2).isEmpty, "a1 belongs to an older slice")
    assert(table.missing(Seq(a1, b1), t2) == Seq(a2 -> t2), "the view would fall back to a1")
    assert(table.missing(Seq(a2), t2) == Seq(b1 -> t1), "the only base file of fb")
    // As of t1 the latest slice of fa is a1's: a2 is not expected, a1 is.
    assert(table.missing(Seq(a1, b1), t1).isEmpty)
    assert(table.missing(Seq(a2, b1), t1) == Seq(a1 -> t1))
  }

  test("logs written after the latest base instant are expected, older slices' logs are not") {
    val l1 = s".fa_$t1.log.1_0-1-1"
    val l2 = s".fa_$t3.log.1_0-3-3"
    val table = new Table(s"$t1.deltacommit" -> Seq(a1), s"$t2.deltacommit" -> Seq(l1),
      s"$t3.commit" -> Seq(s"fa_0-3-3_$t3.parquet"), s"$t4.deltacommit" -> Seq(l2))
    val c3 = s"fa_0-3-3_$t3.parquet"
    assert(table.missing(Seq(c3, l2), t4).isEmpty, "a1 and l1 form the compacted slice")
    assert(table.missing(Seq(a1, l1, c3), t4) == Seq(l2 -> t4))
    assert(table.missing(Seq(a1, c3), t2) == Seq(l1 -> t2), "as of t2 the slice is a1 + l1")
    assert(table.missing(Seq(a1, c3), t2, withLogs = false).isEmpty, "read-optimized: base only")
  }

  test("a log listed by several deltacommits is reported once, naming the newest writer") {
    val l1 = s".fa_$t1.log.1_0-1-1"
    val table = new Table(s"$t1.commit" -> Seq(a1), s"$t2.deltacommit" -> Seq(l1), s"$t3.deltacommit" -> Seq(l1))
    val missing = CommittedFiles.missing(table.timeline, table.metadata, Seq("p" -> files(a1)), t3,
      Set.empty, withLogs = true)
    assert(missing.map(m => (m.path, m.instants)) == Seq(s"p/$l1" -> Seq(t2, t3)))
  }

  test("logs against a pending compaction belong to the served slice") {
    val l2 = s".fa_$t2.log.1_0-3-3"
    val table = new Table(s"$t1.deltacommit" -> Seq(a1), s"$t2.compaction.requested" -> Nil,
      s"$t3.deltacommit" -> Seq(l2))
    assert(table.missing(Seq(a1), t3) == Seq(l2 -> t3))
  }

  test("replaced groups, groups not served, partitions not listed and pending instants are not checked") {
    val table = new Table(s"$t1.commit" -> Seq(a1, b1), s"$t2.commit.requested" -> Nil, s"$t2.inflight" -> Nil)
    assert(table.missing(Nil, t2, replaced = Set(FileGroupId("p", "fa")), keep = _.fileId != "fb").isEmpty)
    assert(CommittedFiles.missing(table.timeline, table.metadata, Seq("q" -> Nil), t2, Set.empty, true).isEmpty)
  }

  test("base files of archived instants have no metadata: their slice's active logs are checked") {
    val t0 = "20230101000000000"
    val a0 = s"fa_0-0-0_$t0.parquet"
    val l0 = s".fa_$t0.log.1_0-1-1"
    val table = new Table(s"$t2.deltacommit" -> Seq(l0))
    assert(table.missing(Seq(a0, l0), t2).isEmpty)
    assert(table.missing(Seq(a0), t2) == Seq(l0 -> t2))
    // A listed visible base file newer than the metadata's one starts the served slice: logs of
    // the slice before it are not expected.
    val older = new Table(s"$t1.commit" -> Seq(a1), s"$t2.deltacommit" -> Seq(s".fa_$t1.log.1_0-1-1"))
    assert(older.missing(Seq(a1), t2) == Seq(s".fa_$t1.log.1_0-1-1" -> t2))
    assert(older.missing(Seq(a1, a2), t2).isEmpty)
  }

  test("skip: a group whose latest base is gone serves only the logs written against it") {
    val l1 = s".fa_$t1.log.1_0-1-1"
    val l2 = s".fa_$t2.log.1_0-2-2"
    val table = new Table(s"$t1.deltacommit" -> Seq(a1, b1), s"$t2.commit" -> Seq(a2),
      s"$t3.deltacommit" -> Seq(l2))
    val listing = Seq("p" -> files(a1, l1, l2, b1))
    val missing = CommittedFiles.missing(table.timeline, table.metadata, listing, t3, Set.empty, withLogs = true)
    assert(missing.map(_.path) == Seq(s"p/$a2"))
    val view = new FileSystemView(table.timeline, listing, t3, Set.empty).latestSlices
    assert(view.head.baseInstant == t1, "without the check the view serves a1 + l1 + l2")
    val served = CommittedFiles.withoutMissing(view, missing)
    assert(served.map(s => (s.groupId.fileId, s.baseInstant, s.baseFile.map(_.name), s.logFiles.map(_.name))) ==
      Seq(("fa", t2, None, Seq(l2)), ("fb", t1, Some(b1), Nil)))
    assert(CommittedFiles.withoutMissing(view.map(_.withoutLogs), missing).map(_.groupId.fileId) == Seq("fb"))
  }

  test("the error names every missing file with its instant and the instant read") {
    val table = new Table(s"$t1.commit" -> Seq(a1, b1))
    val missing = CommittedFiles.missing(table.timeline, table.metadata, Seq("p" -> Nil), t1, Set.empty, true)
    val e: MissingFileException = CommittedFiles.failure("/t", missing, t1, "this read")
    assert(e.getMessage.contains(s"/t/p/$a1, written by completed instant $t1"))
    assert(e.getMessage.contains(s"1 more missing: /t/p/$b1 ($t1)"))
    assert(e.getMessage.contains("hoodie.datasource.read.missing.files=skip"))
  }
}
