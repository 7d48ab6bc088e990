// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.restore

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{ErrorId, PyhudiException}
import io.pyhudi.filegroup.PartitionMetafile
import io.pyhudi.logfile.{CommandBlock, DeleteRecord, LogBlockWriter, LogFormatReader}
import io.pyhudi.services.savepoint.Savepoints
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State, TimelineWriter}
import io.pyhudi.timeline.avro.{InstantInfo, RestoreMetadata, RestorePlan}
import io.pyhudi.write.commit.{IOType, Rollback, WriteTransaction}
import io.pyhudi.write.commit.WriteFixtures._

/** Rollback of the latest completed write and restore to a savepoint. */
class RestoreSuite extends AnyFunSuite {

  private val avroSchema = new org.apache.avro.Schema.Parser().parse(Schema)

  /** Commits one base file of `fileId` (a new group when None); returns (instant, file id). */
  private def commit(
      table: HoodieTable, fileId: Option[String] = None, action: String = Action.Commit): (String, String) = {
    val tx = new WriteTransaction(table.reload(), action, "UPSERT")
    tx.start(io.pyhudi.write.commit.Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val id = fileId.getOrElse(newFileId())
    tx.markers.create("", s"${id}_0-1-0_${tx.instantTime}.parquet", IOType.Create)
    PartitionMetafile.ensure(storage, table.basePath, "", tx.instantTime)
    tx.commit(Seq(writeBaseFile(table, id, "0-1-0", tx.instantTime)), Extra)
    tx.instantTime -> id
  }

  /** A deltacommit appending a delete block to the slice of `fileId` based on `base`; returns (instant, log). */
  private def appendDeltaCommit(table: HoodieTable, fileId: String, base: String, version: Int): (String, String) = {
    val tx = new WriteTransaction(table.reload(), Action.DeltaCommit, "UPSERT")
    tx.start(io.pyhudi.write.commit.Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val log = s".${fileId}_$base.log.${version}_0-2-0"
    tx.markers.create("", log, IOType.Append)
    val bytes = LogBlockWriter.encode(LogBlockWriter.deleteBlock(tx.instantTime, avroSchema,
        Seq(DeleteRecord("1", Some(""), None))))
    storage.create(s"${table.basePath}/$log", bytes)
    val stat = io.pyhudi.timeline.WriteStat("", fileId, Some(log), prevCommit = Some(base),
      baseFile = Some(s"${fileId}_0-1-0_$base.parquet"), logFiles = Seq(log), numDeletes = 1,
      totalWriteBytes = bytes.length.toLong, fileSizeInBytes = bytes.length.toLong, logVersion = Some(version))
    tx.commit(Seq(stat), Extra)
    tx.instantTime -> log
  }

  private def errorOf(body: => Any): ErrorId[_] = intercept[PyhudiException](body).error

  private def sliceFiles(table: HoodieTable): Seq[String] =
    snapshot(table).slices.flatMap(s => s.baseFile.map(_.name).toSeq ++ s.logFiles.map(_.name)).sorted

  test("rolling back the latest commit (COW) deletes its base files and instant; the table reads as before") {
    val table = createTable(TableType.CopyOnWrite)
    val (c1, g1) = commit(table)
    val before = sliceFiles(table)
    val (c2, _) = commit(table, Some(g1))
    val (_, newGroup) = commit(table)
    val mid = sliceFiles(table)
    val (c3, r3) = InstantRollback.rollbackLatest(table)
    assert(sliceFiles(table) == mid.filterNot(_.startsWith(newGroup)))
    assert(!metaFiles(table).exists(f => f.startsWith(c3) && !f.contains("rollback")))
    val (c2b, _) = InstantRollback.rollbackLatest(table, Some(c2))
    assert(c2b == c2 && sliceFiles(table) == before)
    val metadata = Rollback.metadata(table, r3)
    assert(metadata.commitsRollback == Seq(c3) && metadata.instantsRollback == Seq(InstantInfo(c3, Action.Commit)))
    assert(metadata.totalFilesDeleted == 1)
    assert(table.reload().timeline.completedWriteTimes == Set(c1))
  }

  test("rollback refuses a savepointed instant, an older instant and a table with pending writes after it") {
    val table = createTable(TableType.CopyOnWrite)
    val (c1, _) = commit(table)
    val (c2, _) = commit(table)
    assert(errorOf(InstantRollback.rollbackLatest(table, Some(c1))) == ErrorId.CannotRollBackInstant)
    Savepoints.create(table, Some(c2), Some("sp"))
    assert(errorOf(InstantRollback.rollbackLatest(table)) == ErrorId.InstantSavepointed)
    Savepoints.delete(table, "sp")
    val pending = new WriteTransaction(table.reload(), Action.Commit, "UPSERT")
    pending.start(io.pyhudi.write.commit.Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    assert(errorOf(InstantRollback.rollbackLatest(table)) == ErrorId.CannotRollBackInstant)
    pending.abort(new RuntimeException("test"))
    InstantRollback.rollbackLatest(table)
    assert(table.reload().timeline.completedWriteTimes == Set(c1))
  }

  test("rolling back a deltacommit (MOR) writes a rollback command block after its log file") {
    val table = createTable(TableType.MergeOnRead)
    val (c1, g1) = commit(table, action = Action.DeltaCommit)
    val (d2, log) = appendDeltaCommit(table, g1, c1, 1)
    val (_, r) = InstantRollback.rollbackLatest(table)
    val command = s".${g1}_$c1.log.2_1-0-1"
    val blocks = LogFormatReader.readBytes(command, storage.readAll(s"${table.basePath}/$command"))
    assert(blocks.size == 1 && blocks.head.asInstanceOf[CommandBlock].targetInstant.contains(d2))
    assert(blocks.head.instantTime.contains(r) && local(table, log).exists())
    assert(table.reload().timeline.completedWriteTimes == Set(c1))
  }

  test("restore to a savepoint: plan, one rollback per later instant newest first, restore metadata") {
    val table = createTable(TableType.MergeOnRead)
    val (c1, g1) = commit(table, action = Action.DeltaCommit)
    Savepoints.create(table, Some(c1), Some("base"))
    val atSavepoint = sliceFiles(table)
    val (d2, _) = appendDeltaCommit(table, g1, c1, 1)
    val (c3, _) = commit(table, Some(g1), Action.DeltaCommit)
    val (d4, _) = appendDeltaCommit(table, g1, c3, 1)
    val (c5, _) = commit(table, action = Action.DeltaCommit)
    val r = Restore.restore(table, "base")
    // c1's base file; d2's log stays, cancelled by a command block; nothing of c3 or c5 is left.
    assert(sliceFiles(table).filter(_.endsWith(".parquet")) == atSavepoint)
    assert(sliceFiles(table).filterNot(_.endsWith(".parquet")).forall(_.startsWith(s".${g1}_$c1.log.")))
    assert(!storage.listFiles(table.basePath).exists(f => f.name.contains(c3) || f.name.contains(c5)))
    val timeline = table.reload().timeline
    assert(timeline.completedWriteTimes == Set(c1) && timeline.savepointedTimes == Set(c1))
    val plan = RestorePlan.fromBytes(storage.readAll(s"${table.metaPath}/$r.restore.requested"))
    val undone = Seq(c5, d4, c3, d2)
    assert(plan.instantsToRollback.map(_.commitTime) == undone && plan.savepointToRestoreTimestamp.contains(c1))
    assert(plan.version.contains(2))
    assert(metaFiles(table).contains(s"$r.restore.inflight"))
    val metadata = RestoreMetadata.fromBytes(storage.readAll(s"${table.metaPath}/$r.restore"))
    assert(metadata.startRestoreTime == r && metadata.instantsToRollback == undone)
    assert(metadata.rollbacks.keySet == undone.toSet && metadata.rollbacks.values.forall(_.size == 1))
    assert(metadata.rollbacks(c3).head.commitsRollback == Seq(c3))
    assert(metadata.restoreInstantInfo.map(_.commitTime) == undone)
    val rollbacks = timeline.instants.filter(_.action == Action.Rollback)
    assert(rollbacks.size == 4 && rollbacks.forall(i => i.isCompleted && i.timestamp > r))
    // Further writes work.
    val (c6, _) = commit(table, action = Action.DeltaCommit)
    assert(table.reload().timeline.completedWriteTimes == Set(c1, c6))
  }

  test("restore refuses later savepoints and unknown names") {
    val table = createTable(TableType.CopyOnWrite)
    val (c1, _) = commit(table)
    val (c2, _) = commit(table)
    Savepoints.create(table, Some(c1), Some("one"))
    Savepoints.create(table, Some(c2), Some("two"))
    assert(errorOf(Restore.restore(table, "one")) == ErrorId.InstantSavepointed)
    assert(errorOf(Restore.restore(table, "three")) == ErrorId.SavepointNotFound)
    Restore.restore(table, "two") // nothing after it: an empty restore
    assert(table.reload().timeline.completedWriteTimes == Set(c1, c2))
  }

  test("a restore stopped after its first rollback is finished by resume") {
    val table = createTable(TableType.CopyOnWrite)
    val (c1, g1) = commit(table)
    Savepoints.create(table, Some(c1))
    val atSavepoint = sliceFiles(table)
    val (c2, _) = commit(table, Some(g1))
    val (c3, _) = commit(table)
    // What a restore that died after rolling back c3 leaves: its plan and inflight, c3 gone.
    val writer = new TimelineWriter(storage, table.metaPath)
    val r = io.pyhudi.timeline.InstantTimeGenerator.Default.next(writer.stateFiles().map(_.timestamp))
    writer.requested(r, Action.Restore,
      RestorePlan(Seq(InstantInfo(c3, Action.Commit), InstantInfo(c2, Action.Commit)), Some(c1)).toBytes)
    writer.inflight(r, Action.Restore)
    Rollback.rollbackCompleted(table, Instant(c3, Action.Commit, State.Completed))
    assert(Restore.resume(table) == Seq(r))
    assert(sliceFiles(table) == atSavepoint)
    val metadata = RestoreMetadata.fromBytes(storage.readAll(s"${table.metaPath}/$r.restore"))
    assert(metadata.rollbacks.keySet == Set(c2, c3))
    assert(Restore.resume(table).isEmpty)
  }
}
