// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.PartitionMetafile
import io.pyhudi.logfile.{CommandBlock, DeleteRecord, LogBlockWriter, LogFormatReader}
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State, TimelineWriter}
import io.pyhudi.timeline.avro.{InstantInfo, RollbackMetadata, RollbackPlan}

/** Rolling back a failed deltacommit of a MOR table (hudi-format.md §7, §6.7). */
class RollbackSuite extends AnyFunSuite {
  import WriteFixtures._

  private val avroSchema = new org.apache.avro.Schema.Parser().parse(Schema)

  /**
   * A MOR table with one committed base file, then a pending deltacommit that appended a delete
   * block as log.1 of that slice and created a new base file. Returns (table, T1, fileId, D, log, base).
   */
  private def failedDeltaCommit(): (HoodieTable, String, String, String, String, String) = {
    val table = createTable(TableType.MergeOnRead)
    val first = new WriteTransaction(table, Action.DeltaCommit, "UPSERT")
    first.start(Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val fileId = newFileId()
    first.markers.create("", s"${fileId}_0-1-0_${first.instantTime}.parquet", IOType.Create)
    PartitionMetafile.ensure(storage, table.basePath, "", first.instantTime)
    first.commit(Seq(writeBaseFile(table, fileId, "0-1-0", first.instantTime)), Extra)

    val tx = new WriteTransaction(table.reload(), Action.DeltaCommit, "UPSERT")
    tx.start(Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val log = s".${fileId}_${first.instantTime}.log.1_0-2-0"
    tx.markers.create("", log, IOType.Append)
    val block = LogBlockWriter.deleteBlock(tx.instantTime, avroSchema, Seq(DeleteRecord("1", Some(""), None)))
    storage.create(s"${table.basePath}/$log", LogBlockWriter.encode(block))
    val newGroup = newFileId()
    tx.markers.create("", s"${newGroup}_0-2-1_${tx.instantTime}.parquet", IOType.Create)
    val base = writeBaseFile(table, newGroup, "0-2-1", tx.instantTime).path.get
    (table.reload(), first.instantTime, fileId, tx.instantTime, log, base)
  }

  private def checkRolledBack(
      table: HoodieTable, t1: String, fileId: String, d: String, log: String, base: String): Unit = {
    val rollback = table.reload().timeline.instants.filter(_.action == Action.Rollback)
    assert(rollback.size == 1 && rollback.head.isCompleted)
    val r = rollback.head.timestamp
    assert(!local(table, base).exists() && local(table, log).exists(), "base file deleted, failed log kept")
    val command = s".${fileId}_$t1.log.2_1-0-1"
    val bytes = storage.readAll(s"${table.basePath}/$command")
    assert(bytes.length == 105)
    val blocks = LogFormatReader.readBytes(command, bytes)
    assert(blocks.size == 1 && blocks.head.isInstanceOf[CommandBlock])
    val block = blocks.head.asInstanceOf[CommandBlock]
    assert(block.isRollback && block.instantTime.contains(r) && block.targetInstant.contains(d))

    val plan = RollbackPlan.fromBytes(storage.readAll(s"${table.metaPath}/$r.rollback.requested"))
    assert(plan.instantToRollback.contains(InstantInfo(d, Action.DeltaCommit)) && plan.version.contains(1))
    val requests = plan.rollbackRequests.get
    assert(requests.exists(q => q.filesToBeDeleted == Seq(s"${table.basePath}/$base") && q.fileId.contains("")))
    val logRequest = requests.find(_.fileId.contains(fileId)).get
    assert(logRequest.latestBaseInstant.contains(t1) && logRequest.filesToBeDeleted.isEmpty)
    val logSize = storage.fileSize(s"${table.basePath}/$log")
    assert(logRequest.logBlocksToBeDeleted.contains(Map(s"${table.basePath}/$log" -> logSize)))

    val metadata = RollbackMetadata.fromBytes(storage.readAll(s"${table.metaPath}/$r.rollback"))
    val p = metadata.partitionMetadata("")
    assert(p.successDeleteFiles == Seq(s"${table.basePath}/$base") && p.failedDeleteFiles.isEmpty)
    assert(p.rollbackLogFiles.contains(Map(s"${table.basePath}/$command" -> 105L)))
    assert(p.logFilesFromFailedCommit.contains(Map(s"${table.basePath}/$log" -> logSize)))
    assert(metadata.instantsRollback == Seq(InstantInfo(d, Action.DeltaCommit)) && metadata.totalFilesDeleted == 1)
    assert(!metaFiles(table).exists(_.startsWith(d)) && !local(table, s".hoodie/.temp/$d").exists())
    val slices = snapshot(table).slices
    assert(slices.map(_.groupId.fileId) == Seq(fileId))
    assert(slices.head.logFiles.map(_.name) == Seq(log, command))
  }

  test("marker-based rollback: base file deleted, command block as the next log version") {
    val (table, t1, fileId, d, log, base) = failedDeltaCommit()
    assert(recover(table) == Seq(d))
    checkRolledBack(table, t1, fileId, d, log, base)
  }

  test("listing-based rollback finds the base file and the log holding the instant's blocks") {
    val (table, t1, fileId, d, log, base) = failedDeltaCommit()
    new Markers(storage, table.basePath, d).deleteAll()
    assert(RollbackPlanner.holdsBlocksOf(storage, s"${table.basePath}/$log", d))
    assert(recover(table) == Seq(d))
    checkRolledBack(table, t1, fileId, d, log, base)
  }

  test("an interrupted rollback is resumed from its plan, not planned again") {
    val (table, t1, fileId, d, log, base) = failedDeltaCommit()
    val timeline = new TimelineWriter(storage, table.metaPath)
    val r = io.pyhudi.timeline.InstantTimeGenerator.Default.next(timeline.stateFiles().map(_.timestamp))
    val plan = RollbackPlanner.plan(table, Instant(d, Action.DeltaCommit, State.Inflight))
    timeline.requested(r, Action.Rollback, plan.toBytes)
    timeline.inflight(r, Action.Rollback)
    storage.delete(s"${table.basePath}/$base") // the crashed rollback got this far
    assert(recover(table.reload()) == Seq(d))
    assert(table.reload().timeline.instants.filter(_.action == Action.Rollback).map(_.timestamp) == Seq(r))
    val metadata = RollbackMetadata.fromBytes(storage.readAll(s"${table.metaPath}/$r.rollback"))
    assert(metadata.partitionMetadata("").rollbackLogFiles.exists(_.size == 1))
    assert(storage.exists(s"${table.basePath}/.${fileId}_$t1.log.2_1-0-1"))
    assert(!storage.exists(s"${table.basePath}/.${fileId}_$t1.log.3_1-0-1"))
    assert(!metaFiles(table).exists(_.startsWith(d)))
  }

  test("a rollback that completed but left its target's files only finishes the cleanup") {
    val (table, _, _, d, _, _) = failedDeltaCommit()
    recover(table)
    val timeline = new TimelineWriter(storage, table.metaPath)
    timeline.requested(d, Action.DeltaCommit)
    timeline.inflight(d, Action.DeltaCommit, Commits.workloadProfile("UPSERT", Map.empty).toJson)
    assert(recover(table.reload()) == Seq(d))
    assert(table.reload().timeline.instants.count(_.action == Action.Rollback) == 1)
    assert(!metaFiles(table).exists(_.startsWith(d)))
  }

  test("pending compactions are not rolled back") {
    val table = createTable(TableType.MergeOnRead)
    val timeline = new TimelineWriter(storage, table.metaPath)
    timeline.requested("20250101000000001", Action.Compaction, Array[Byte](1))
    assert(recover(table).isEmpty)
    assert(metaFiles(table).contains("20250101000000001.compaction.requested"))
  }
}
