// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.{ErrorId, WriteConflictException}
import io.pyhudi.filegroup.PartitionMetafile
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.timeline.{Action, Instant, State, Timeline, WriteStat}
import io.pyhudi.write.commit.{Commits, IOType, WriteTransaction}
import io.pyhudi.write.commit.WriteFixtures._

/**
 * Scripted interleavings of two writers under OPTIMISTIC_CONCURRENCY_CONTROL with the
 * file-system and in-process lock providers: A starts, B starts, A commits, B commits.
 */
class OptimisticConcurrencySuite extends AnyFunSuite {

  private def occ(provider: LockProviderType) = ConcurrencyConfig.from(Map(
      WriteConfig.ConcurrencyMode.key -> "OPTIMISTIC_CONCURRENCY_CONTROL",
      WriteConfig.LockProvider.key -> provider.className))

  /** A table with one committed file group; returns it and that file group's id. */
  private def seeded(tableType: TableType): (HoodieTable, String) = {
    val table = createTable(tableType)
    val tx = new WriteTransaction(table, action(tableType), "INSERT")
    tx.start(Commits.workloadProfile("INSERT", Map("" -> 1L)))
    val fileId = newFileId()
    tx.markers.create("", s"${fileId}_0-1-0_${tx.instantTime}.parquet", IOType.Create)
    PartitionMetafile.ensure(storage, table.basePath, "", tx.instantTime)
    tx.commit(Seq(writeBaseFile(table, fileId, "0-1-0", tx.instantTime)), Extra)
    (table.reload(), fileId)
  }

  /** A started write of `fileId` (a new one when None) and its stat. */
  private def started(table: HoodieTable, tableType: TableType, concurrency: ConcurrencyConfig,
      fileId: Option[String]): (WriteTransaction, WriteStat) = {
    val tx = new WriteTransaction(table, action(tableType), "UPSERT", concurrency = concurrency)
    tx.start(Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val id = fileId.getOrElse(newFileId())
    tx.markers.create("", s"${id}_0-2-0_${tx.instantTime}.parquet", IOType.Create)
    (tx, writeBaseFile(table, id, "0-2-0", tx.instantTime))
  }

  private def action(t: TableType): String = if (t == TableType.MergeOnRead) Action.DeltaCommit else Action.Commit

  private def completed(table: HoodieTable): Seq[String] = table.reload().timeline.completedWrites.map(_.timestamp)

  for (provider <- Seq(LockProviderType.FileSystem, LockProviderType.InProcess);
    tableType <- Seq(TableType.CopyOnWrite, TableType.MergeOnRead)) {
    val name = s"${provider.simpleName}, $tableType"

    test(s"$name: A starts, B starts, A commits, B commits, different file groups: both commit") {
      val (table, _) = seeded(tableType)
      val c = occ(provider)
      val (a, sa) = started(table, tableType, c, None)
      val (b, sb) = started(table, tableType, c, None) // a live writer does not stop B under OCC
      a.commit(Seq(sa), Extra)
      b.commit(Seq(sb), Extra)
      assert(completed(table).takeRight(2) == Seq(a.instantTime, b.instantTime))
    }

    test(s"$name: A starts, B starts, A commits, B commits, same file group: B fails and is rolled back") {
      val (table, fileId) = seeded(tableType)
      val c = occ(provider)
      val (a, sa) = started(table, tableType, c, Some(fileId))
      val (b, sb) = started(table, tableType, c, Some(fileId))
      a.commit(Seq(sa), Extra)
      val e = intercept[WriteConflictException](b.commit(Seq(sb), Extra))
      assert(e.errorId == ErrorId.ConcurrentWriteConflict.id)
      assert(e.getMessage.contains(a.instantTime) && e.getMessage.contains(fileId), e.getMessage)
      b.abort(e)
      assert(completed(table).last == a.instantTime)
      assert(!table.reload().timeline.instants.exists(_.timestamp == b.instantTime), "B's instant is gone")
      assert(!local(table, sb.path.get).exists(), "B's data file is deleted")
      assert(local(table, sa.path.get).exists())
    }

    test(s"$name: B started before A and commits after it on the same file group: B fails") {
      val (table, fileId) = seeded(tableType)
      val c = occ(provider)
      val (b, sb) = started(table, tableType, c, Some(fileId))
      val (a, sa) = started(table, tableType, c, Some(fileId))
      a.commit(Seq(sa), Extra) // the later instant commits first
      val e = intercept[WriteConflictException](b.commit(Seq(sb), Extra))
      assert(e.getMessage.contains(a.instantTime))
      b.abort(e)
    }
  }

  test("early conflict detection: another pending write's markers, and with commit checks what completed since") {
    val (table, fileId) = seeded(TableType.MergeOnRead)
    val c = occ(LockProviderType.InProcess)
    val (a, sa) = started(table, TableType.MergeOnRead, c, Some(fileId)) // A has a marker in fileId
    val b = new WriteTransaction(table, Action.DeltaCommit, "UPSERT", concurrency = c)
    b.start(Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val early = intercept[WriteConflictException](b.checkEarlyConflicts(Set("" -> fileId), checkCommits = false,
        bucketed = false))
    assert(early.errorId == ErrorId.ConcurrentWriteConflict.id && early.getMessage.contains(a.instantTime))
    assert(early.getMessage.contains("detected early"))
    b.checkEarlyConflicts(Set("" -> newFileId()), checkCommits = false, bucketed = false) // other groups pass
    b.checkEarlyConflicts(Set.empty, checkCommits = true, bucketed = false)
    // Once A committed (its markers gone), only the commit check sees it.
    a.commit(Seq(sa), Extra)
    b.checkEarlyConflicts(Set("" -> fileId), checkCommits = false, bucketed = false)
    intercept[WriteConflictException](b.checkEarlyConflicts(Set("" -> fileId), checkCommits = true, bucketed = false))
    b.abort(new RuntimeException("test"))
  }

  test("a key both writers inserted, found by the new-keys check, fails the second to commit") {
    val (table, _) = seeded(TableType.CopyOnWrite)
    val c = occ(LockProviderType.InProcess)
    val (a, sa) = started(table, TableType.CopyOnWrite, c, None)
    val (b, sb) = started(table, TableType.CopyOnWrite, c, None)
    a.commit(Seq(sa), Extra)
    var asked = Seq.empty[String]
    val e = intercept[WriteConflictException](b.commit(Seq(sb), Extra,
        newKeys = (i, m) => {
          asked :+= i.timestamp
          if (m.touchedFileGroups.map(_._2).contains(sa.fileId)) Seq("k1") else Nil
        }))
    assert(asked == Seq(a.instantTime), "only commits since B read the timeline are checked")
    assert(e.errorId == ErrorId.ConcurrentWriteConflict.id && e.getMessage.contains("k1"))
    b.abort(e)
  }

  test("candidates: writes completed since, table services scheduled since; not pending writes or what was known") {
    val c1 = Instant("001", Action.Commit, State.Completed)
    val basedOn = Timeline(Seq(c1, Instant("002", Action.Compaction, State.Requested)))
    val now = Timeline(Seq(c1, Instant("002", Action.Compaction, State.Requested),
        Instant("003", Action.DeltaCommit, State.Completed), Instant("004", Action.Commit, State.Inflight),
        Instant("005", Action.Compaction, State.Requested), Instant("006", Action.ReplaceCommit, State.Requested),
        Instant("007", Action.Clean, State.Completed), Instant("008", Action.Commit, State.Inflight)))
    assert(ConcurrentFileWrites.candidates(basedOn, now, own = "008").map(_.timestamp) == Seq("003", "005", "006"))
    val mine = Set("p" -> "f1", "p" -> "f2")
    val hit = ConcurrentFileWrites.firstConflict(mine,
      Seq(Instant("003", Action.Commit, State.Completed) ->
          Set("p" -> "f3"), Instant("005", Action.Compaction, State.Requested) -> Set("p" -> "f2", "q" -> "f1")))
    assert(hit.map(h => (h._1.timestamp, h._2)) == Some(("005", Set("p" -> "f2"))))
    assert(ConcurrentFileWrites.firstConflict(mine,
        Seq(Instant("003", Action.Commit, State.Completed) ->
          Set("q" -> "f1"))).isEmpty, "the same file id in another partition is another file group")
    // Bucket index: two new file groups of bucket 3 are one bucket.
    val b3 = io.pyhudi.index.bucket.BucketIdentifier.newFileId(3)
    val other = Seq(Instant("003", Action.Commit, State.Completed) ->
      Set("p" -> io.pyhudi.index.bucket.BucketIdentifier.newFileId(3)))
    assert(ConcurrentFileWrites.firstConflict(Set("p" -> b3), other).isEmpty)
    assert(ConcurrentFileWrites.firstConflict(Set("p" -> b3), other, byBucket = true).map(_._2) == Some(Set("p" -> b3)))
  }
}
