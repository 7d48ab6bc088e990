// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{CommitFailedException, InstantStateException}
import io.pyhudi.filegroup.PartitionMetafile
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State}
import io.pyhudi.timeline.avro.{InstantInfo, RollbackMetadata}

/** The single-writer protocol (hudi-format.md §2.4) on a COW table on local disk. */
class WriteTransactionSuite extends AnyFunSuite {
  import WriteFixtures._

  /** A table with one committed file group; returns the table and the committed file name. */
  private def committedTable(): (HoodieTable, String) = {
    val table = createTable(TableType.CopyOnWrite)
    val tx = new WriteTransaction(table, Action.Commit, "INSERT")
    tx.start(Commits.workloadProfile("INSERT", Map("" -> 1L)))
    val fileId = newFileId()
    val name = s"${fileId}_0-1-0_${tx.instantTime}.parquet"
    tx.markers.create("", name, IOType.Create)
    PartitionMetafile.ensure(storage, table.basePath, "", tx.instantTime)
    val stat = writeBaseFile(table, fileId, "0-1-0", tx.instantTime)
    tx.commit(Seq(stat), Extra)
    (table.reload(), name)
  }

  /** Starts a write of one new base file with its marker, as a task would. */
  private def startWrite(table: HoodieTable): (WriteTransaction, String) = {
    val tx = new WriteTransaction(table, Action.Commit, "INSERT")
    tx.start(Commits.workloadProfile("INSERT", Map("" -> 1L)))
    val fileId = newFileId()
    tx.markers.create("", s"${fileId}_0-2-0_${tx.instantTime}.parquet", IOType.Create)
    (tx, writeBaseFile(table, fileId, "0-2-0", tx.instantTime).path.get)
  }

  /** After a rollback of `target`: its files and markers are gone and one completed rollback names it. */
  private def assertRolledBack(table: HoodieTable, target: String, file: String): Unit = {
    assert(!local(table, file).exists(), s"$file should be deleted")
    assert(!metaFiles(table).exists(_.startsWith(target)), metaFiles(table))
    assert(!local(table, s".hoodie/.temp/$target").exists())
    val rollbacks = table.reload().timeline.instants.filter(_.action == Action.Rollback)
    assert(rollbacks.size == 1 && rollbacks.head.isCompleted && rollbacks.head.timestamp > target)
    val r = rollbacks.head.timestamp
    assert(metaFiles(table).filter(_.startsWith(r)) == Seq(s"$r.rollback", s"$r.rollback.inflight",
      s"$r.rollback.requested"))
    assert(storage.fileSize(s"${table.metaPath}/$r.rollback.inflight") == 0)
    val metadata = RollbackMetadata.fromBytes(storage.readAll(s"${table.metaPath}/$r.rollback"))
    assert(metadata.commitsRollback == Seq(target) && metadata.instantsRollback == Seq(InstantInfo(target, "commit")))
    assert(metadata.partitionMetadata("").successDeleteFiles == Seq(s"${table.basePath}/$file"))
    assert(metadata.totalFilesDeleted == 1)
  }

  test("a committed write: timeline files, metadata, markers gone, planner sees exactly the file") {
    val (table, name) = committedTable()
    val t = table.timeline.instants.head.timestamp
    assert(table.timeline.instants == Seq(Instant(t, Action.Commit, State.Completed)))
    assert(metaFiles(table) == Seq(s"$t.commit", s"$t.commit.requested", s"$t.inflight", "hoodie.properties"))
    assert(storage.fileSize(s"${table.metaPath}/$t.commit.requested") == 0)
    val inflight = CommitMetadata.parse(storage.readAll(s"${table.metaPath}/$t.inflight"))
    assert(inflight.writeStats.map(s => (s.fileId, s.numInserts, s.path)) == Seq(("", 1L, None)))
    val metadata = table.commitMetadata(table.timeline.instants.head)
    assert(metadata.writeStats.flatMap(_.path) == Seq(name) && metadata.operationType.contains("INSERT"))
    assert(metadata.schema.contains(Schema))
    assert(!local(table, s".hoodie/.temp/$t").exists())
    assert(snapshot(table).slices.map(_.baseFile.get.name) == Seq(name))
  }

  test("a write whose table was removed while it started fails and leaves nothing behind") {
    val table = createTable(TableType.CopyOnWrite)
    // The creator's first write failed and it removed the table after this writer opened it.
    storage.delete(s"${table.metaPath}/${HoodieTable.PropertiesFile}")
    val tx = new WriteTransaction(table, Action.Commit, "INSERT")
    val e =
      intercept[io.pyhudi.errors.WriteConflictException](tx.start(Commits.workloadProfile("INSERT", Map("" -> 1L))))
    assert(e.getMessage.contains("removed") && e.getMessage.contains(tx.instantTime), e.getMessage)
    assert(storage.listFiles(table.metaPath).forall(f => !f.name.startsWith(tx.instantTime)), "no instant file left")
    assert(!storage.exists(s"${table.metaPath}/.heartbeat/${tx.instantTime}"), "no heartbeat left")
    tx.abort(e) // a caller's abort after the failure is a no-op
  }

  test("abort rolls the write back: file, timeline files and markers gone, plan unchanged") {
    val (table, name) = committedTable()
    val (tx, file) = startWrite(table)
    assert(local(table, file).exists())
    val cause = new RuntimeException("task failed")
    tx.abort(cause)
    assert(cause.getSuppressed.isEmpty, cause.getSuppressed.toSeq)
    assertRolledBack(table, tx.instantTime, file)
    assert(snapshot(table).slices.map(_.baseFile.get.name) == Seq(name))
    assert(intercept[InstantStateException](tx.commit(Nil, Extra)).errorId == "INVALID_TRANSACTION_STATE")
  }

  test("a crashed writer is rolled back by rollbackFailedWrites") {
    val (table, name) = committedTable()
    val (tx, file) = startWrite(table)
    val crashed = tx.instantTime
    // The writer dies here: nothing but storage is left.
    assert(recover(table.reload()) == Seq(crashed))
    assertRolledBack(table, crashed, file)
    assert(snapshot(table).slices.map(_.baseFile.get.name) == Seq(name))
    assert(recover(table.reload()).isEmpty)
  }

  test("a crashed writer without markers is rolled back from a listing") {
    val (table, name) = committedTable()
    val (tx, file) = startWrite(table)
    tx.markers.deleteAll()
    assert(recover(table.reload()) == Seq(tx.instantTime))
    assertRolledBack(table, tx.instantTime, file)
    assert(snapshot(table).slices.map(_.baseFile.get.name) == Seq(name))
  }

  test("commit deletes the files of failed and duplicate task attempts") {
    val (table, first) = committedTable()
    val tx = new WriteTransaction(table, Action.Commit, "UPSERT")
    tx.start(Commits.workloadProfile("UPSERT", Map("" -> 2L)))
    val fileId = newFileId()
    val attempts = Seq("0-3-0", "0-3-1").map { token =>
      tx.markers.create("", s"${fileId}_${token}_${tx.instantTime}.parquet", IOType.Create)
      writeBaseFile(table, fileId, token, tx.instantTime)
    }
    val orphan = newFileId()
    tx.markers.create("", s"${orphan}_0-4-0_${tx.instantTime}.parquet", IOType.Create)
    val orphanFile = writeBaseFile(table, orphan, "0-4-0", tx.instantTime).path.get
    tx.markers.create("", s"${newFileId()}_0-5-0_${tx.instantTime}.parquet", IOType.Create) // never written
    tx.commit(Seq(attempts(1)), Extra)
    assert(!local(table, attempts.head.path.get).exists() && !local(table, orphanFile).exists())
    assert(local(table, attempts(1).path.get).exists())
    assert(snapshot(table).slices.map(_.baseFile.get.name).toSet == Set(first, attempts(1).path.get))
  }

  test("commit leaves another writer's log file that a task's marker names (the task found the name taken)") {
    val (table, first) = committedTable()
    val schema = org.apache.avro.SchemaBuilder.record("r").fields().requiredString("k").endRecord()
    val theirs = s".${first.split('_').head}_${first.split('_').last.stripSuffix(".parquet")}.log.1_0-9-0"
    val bytes = io.pyhudi.logfile.LogBlockWriter.encodeFile(Seq(io.pyhudi.logfile.LogBlockWriter.deleteBlock(
          "20200101000000000", schema, Seq(io.pyhudi.logfile.DeleteRecord("k1", Some(""), None)))))
    storage.create(s"${table.basePath}/$theirs", bytes)
    val tx = new WriteTransaction(table, Action.Commit, "UPSERT")
    tx.start(Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val fileId = newFileId()
    tx.markers.create("", s"${fileId}_0-3-0_${tx.instantTime}.parquet", IOType.Create)
    val stat = writeBaseFile(table, fileId, "0-3-0", tx.instantTime)
    tx.markers.create("", theirs, IOType.Append)
    tx.commit(Seq(stat), Extra)
    assert(storage.readAll(s"${table.basePath}/$theirs").sameElements(bytes))
    assert(table.reload().timeline.instants.exists(i => i.timestamp == tx.instantTime && i.isCompleted))
  }

  test("a commit without a schema fails before the commit point; abort is then safe") {
    val (table, name) = committedTable()
    val (tx, file) = startWrite(table)
    val e = intercept[CommitFailedException](tx.commit(Nil, Map.empty))
    assert(e.getMessage.contains("schema") && e.getMessage.contains("abort"))
    tx.abort(e)
    assert(e.getSuppressed.isEmpty)
    assertRolledBack(table, tx.instantTime, file)
    assert(snapshot(table).slices.map(_.baseFile.get.name) == Seq(name))
  }

  test("abort after commit does not roll back; instants increase") {
    val (table, _) = committedTable()
    val (tx, file) = startWrite(table)
    tx.commit(Seq(io.pyhudi.timeline.WriteStat("", "x", Some(file))), Extra)
    val cause = new RuntimeException("late failure")
    tx.abort(cause)
    assert(cause.getSuppressed.length == 1 && local(table, file).exists())
    assert(table.reload().timeline.completedWrites.size == 2)
    val next = new WriteTransaction(table, Action.Commit, "INSERT")
    assert(next.instantTime > tx.instantTime)
  }

  test("a replacecommit requests Avro replace metadata and lists replaced file groups") {
    val (table, name) = committedTable()
    val tx = new WriteTransaction(table, Action.ReplaceCommit, "INSERT_OVERWRITE_TABLE")
    tx.start(Commits.workloadProfile("INSERT_OVERWRITE_TABLE", Map("" -> 1L)))
    assert(storage.readAll(s"${table.metaPath}/${tx.instantTime}.replacecommit.requested").take(4)
        .sameElements("Obj".getBytes :+ 1.toByte))
    val fileId = newFileId()
    tx.markers.create("", s"${fileId}_0-6-0_${tx.instantTime}.parquet", IOType.Create)
    val stat = writeBaseFile(table, fileId, "0-6-0", tx.instantTime)
    tx.commit(Seq(stat), Extra, Map("" -> Seq(name.split('_').head)))
    val reloaded = table.reload()
    val metadata = reloaded.commitMetadata(reloaded.timeline.latestCompletedWrite.get)
    assert(metadata.replaceCommit && metadata.replacedFileIds == Map("" -> Seq(name.split('_').head)))
    assert(snapshot(table).slices.map(_.baseFile.get.name) == Seq(stat.path.get))
  }
}
