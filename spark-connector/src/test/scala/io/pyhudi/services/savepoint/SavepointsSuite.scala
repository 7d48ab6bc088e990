// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.savepoint

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{ErrorId, PyhudiException}
import io.pyhudi.filegroup.PartitionMetafile
import io.pyhudi.services.clean.{CleanConfig, CleanPolicy, CleanTransaction}
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.timeline.{Action, CommitMetadata, State}
import io.pyhudi.timeline.avro.SavepointMetadata
import io.pyhudi.write.commit.{IOType, WriteTransaction}
import io.pyhudi.write.commit.WriteFixtures._

/** Savepoints on the timeline: files, metadata, names, deletion (hudi-format.md §2.2). */
class SavepointsSuite extends AnyFunSuite {

  /** Commits one base file of `fileId` (new when None); returns (instant, file id). */
  private def commit(table: HoodieTable, fileId: Option[String] = None): (String, String) = {
    val tx = new WriteTransaction(table.reload(), Action.Commit, "UPSERT")
    tx.start(io.pyhudi.write.commit.Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val id = fileId.getOrElse(newFileId())
    tx.markers.create("", s"${id}_0-1-0_${tx.instantTime}.parquet", IOType.Create)
    PartitionMetafile.ensure(storage, table.basePath, "", tx.instantTime)
    tx.commit(Seq(writeBaseFile(table, id, "0-1-0", tx.instantTime)), Extra)
    tx.instantTime -> id
  }

  private def errorOf(body: => Any): ErrorId[_] = intercept[PyhudiException](body).error

  test("a savepoint is T.savepoint.inflight then T.savepoint, named after the savepointed commit") {
    val table = createTable(TableType.CopyOnWrite)
    val (c1, g1) = commit(table)
    val (c2, _) = commit(table, Some(g1))
    val (_, g3) = commit(table)
    val sp = Savepoints.create(table, Some(c2), user = "tester", nowMs = 1700000000123L)
    assert(sp.instant == c2)
    assert(metaFiles(table).filter(_.contains("savepoint")) == Seq(s"$c2.savepoint", s"$c2.savepoint.inflight"))
    val metadata = SavepointMetadata.fromBytes(storage.readAll(s"${table.metaPath}/$c2.savepoint"))
    assert(metadata.savepointedBy == "tester" && metadata.savepointedAt == 1700000000L && metadata.comments == "")
    assert(metadata.version.contains(1))
    // The latest slice of g1 as of c2 is c2's base file; g3 came later and is not listed.
    assert(metadata.partitionMetadata.keySet == Set("") && metadata.partitionMetadata("").size == 1)
    assert(metadata.partitionMetadata("").head.startsWith(g1) && metadata.partitionMetadata("").head.endsWith(
      s"_$c2.parquet"))
    assert(!metadata.partitionMetadata("").exists(_.startsWith(g3)) && !metadata.partitionMetadata("").exists(
      _.endsWith(c1 + ".parquet")))

    // The commit and its savepoint are two instants of one time.
    val timeline = table.reload().timeline
    assert(timeline.instants.count(_.timestamp == c2) == 2)
    assert(timeline.completedWriteTimes(c2) && timeline.savepointedTimes == Set(c2))
    assert(timeline.savepoints.map(i => (i.timestamp, i.action, i.state)) == Seq((c2, Action.Savepoint,
        State.Completed)))
  }

  test("named savepoints: stored in comments, listed, resolved for as.of.instant, unique") {
    val table = createTable(TableType.CopyOnWrite)
    val (c1, _) = commit(table)
    val (c2, _) = commit(table)
    Savepoints.create(table, Some(c1), Some("compacted-20261122"), Some(30), Some("before backfill"),
      nowMs = 1700000000000L)
    Savepoints.create(table, None, None, None, Some("plain"))
    val listed = Savepoints.list(table)
    assert(listed.map(s => (s.instant, s.name)) == Seq(c1 -> Some("compacted-20261122"), c2 -> None))
    assert(listed.head.expiresAt.contains(1700000000L + 30 * 86400L) && listed.head.createdAt == 1700000000L)
    assert(listed.head.label.comment.contains("before backfill") && listed(1).label.comment.contains("plain"))
    // Hudi's reader sees one JSON string in comments.
    val raw = SavepointMetadata.fromBytes(storage.readAll(s"${table.metaPath}/$c1.savepoint")).comments
    assert(
      raw == s"""{"name":"compacted-20261122","expiresAt":${1700000000L + 30 * 86400L},"comment":"before backfill"}""")

    assert(Savepoints.resolveAsOf(table, Some("compacted-20261122")).contains(c1))
    assert(Savepoints.resolveAsOf(table, Some(c2)).contains(c2))
    assert(Savepoints.find(table, c2).instant == c2)
    assert(errorOf(Savepoints.resolveAsOf(table, Some("nope"))) == ErrorId.InvalidOptionValue)
    val (c3, _) = commit(table)
    assert(errorOf(Savepoints.create(table, Some(c3), Some("compacted-20261122"))) == ErrorId.SavepointNameTaken)
    assert(errorOf(Savepoints.create(table, Some(c1))) == ErrorId.CannotSavepoint)
    assert(errorOf(Savepoints.create(table, Some("20200101000000000"))) == ErrorId.CannotSavepoint)
    assert(errorOf(Savepoints.create(table, Some(c3), Some("1bad"))) == ErrorId.CannotSavepoint)
    assert(!metaFiles(table).exists(_.startsWith(s"$c3.savepoint")))
  }

  test("delete_savepoint removes only the savepoint's files") {
    val table = createTable(TableType.CopyOnWrite)
    val (c1, _) = commit(table)
    Savepoints.create(table, Some(c1), Some("keep"))
    assert(Savepoints.delete(table, "keep") == c1)
    assert(metaFiles(table).filter(_.startsWith(c1)) == Seq(s"$c1.commit", s"$c1.commit.requested", s"$c1.inflight"))
    assert(Savepoints.list(table).isEmpty)
    assert(errorOf(Savepoints.delete(table, "keep")) == ErrorId.SavepointNotFound)
    Savepoints.create(table, Some(c1), Some("keep")) // the name is free again
  }

  test("a savepoint taken while a write runs does not conflict with it") {
    val table = createTable(TableType.CopyOnWrite)
    val (c1, _) = commit(table)
    val tx = new WriteTransaction(table.reload(), Action.Commit, "UPSERT")
    Savepoints.create(table, Some(c1))
    tx.start(io.pyhudi.write.commit.Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val id = newFileId()
    tx.markers.create("", s"${id}_0-1-0_${tx.instantTime}.parquet", IOType.Create)
    tx.commit(Seq(writeBaseFile(table, id, "0-1-0", tx.instantTime)), Extra)
    assert(table.reload().timeline.completedWriteTimes(tx.instantTime))
  }

  test("clean drops expired savepoints, then frees their files; unexpired ones keep theirs") {
    val table = createTable(TableType.CopyOnWrite)
    val (c1, g) = commit(table)
    val (c2, _) = commit(table, Some(g))
    val day = 86400000L
    val t0 = 1700000000000L
    Savepoints.create(table, Some(c1), Some("short"), Some(1), nowMs = t0)
    Savepoints.create(table, Some(c2), Some("long"), Some(30), nowMs = t0)
    (1 to 3).foreach(_ => commit(table, Some(g)))
    val c1File = s"${table.basePath}/${g}_0-1-0_$c1.parquet"
    val config = CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 1)
    def cleanAt(nowMs: Long) = CleanTransaction.clean(table.reload(), config, CleanTransaction.deleteLocally(storage),
      nowMs = () => nowMs)

    // Before the expiry both savepoints hold their slices.
    cleanAt(t0 + day / 2)
    assert(Savepoints.list(table).flatMap(_.name) == Seq("short", "long") && storage.exists(c1File))
    // After it, the clean deletes the savepoint's files and then c1's slice.
    assert(cleanAt(t0 + day + 1).nonEmpty)
    assert(Savepoints.list(table).flatMap(_.name) == Seq("long"))
    assert(!metaFiles(table).exists(_.startsWith(s"$c1.savepoint")) && !storage.exists(c1File))
    assert(storage.exists(s"${table.basePath}/${g}_0-1-0_$c2.parquet"))
  }

  test("labels: Hudi's plain comments carry no name; JSON without a name is a comment") {
    assert(SavepointLabel.fromComments("nightly") == SavepointLabel(None, None, Some("nightly")))
    assert(SavepointLabel.fromComments("""{"a":1}""") == SavepointLabel(None, None, Some("""{"a":1}""")))
    assert(SavepointLabel.fromComments("") == SavepointLabel(None, None, None))
    val l = SavepointLabel(Some("n"), Some(5L), None)
    assert(SavepointLabel.fromComments(l.toComments) == l)
    assert(SavepointLabel.looksLikeName("x1") && !SavepointLabel.looksLikeName("2025-01-01 00:00:00"))
  }
}
