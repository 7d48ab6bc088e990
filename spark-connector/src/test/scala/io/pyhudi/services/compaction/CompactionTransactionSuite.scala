// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.compaction

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{CommitFailedException, InstantStateException}
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State}
import io.pyhudi.timeline.avro.CompactionPlan
import io.pyhudi.write.commit.{Commits, IOType, WriteTransaction}

/** The compaction instant lifecycle (hudi-format.md §2.2.1, §2.5) on a copy of v6_trips_8i1u. */
class CompactionTransactionSuite extends AnyFunSuite {
  import CompactionFixtures._

  test("schedule writes T.compaction.requested holding the plan; T is newer than every instant") {
    val table = copyOf("mor/v6_trips_8i1u")
    val plan = CompactionPlanner.plan(table).get
    val t = CompactionTransaction.schedule(table, plan)
    assert(t > TripsLatest && t.length == 17)
    assert(metaFiles(table).filter(_.startsWith(t)) == Seq(s"$t.compaction.requested"))
    val bytes = storage.readAll(s"${table.metaPath}/$t.compaction.requested")
    assert(bytes.take(4).sameElements("Obj".getBytes :+ 1.toByte))
    val back = CompactionPlan.fromBytes(bytes)
    assert(back == plan && back.version.contains(2))
    assert(back.operations.get.head.dataFilePath.contains(TripsBaseName))
    assert(CompactionTransaction.pendingCompactions(table) == Seq(t -> plan))
  }

  test("schedule -> start -> commit: inflight is 0 bytes, T.commit is a compaction commit with stats") {
    val table = copyOf("mor/v6_trips_8i1u")
    val t = CompactionTransaction.schedule(table, CompactionPlanner.plan(table).get)
    CompactionTransaction.start(table, t)
    assert(storage.fileSize(s"${table.metaPath}/$t.compaction.inflight") == 0)
    val stats = runCompaction(table, t)
    // A failed task attempt left a second file with a marker; the commit deletes it.
    val stray = CompactionOperations.outputFileName(TripsFileId, "0-1-1", t)
    CompactionTransaction.markers(table, t).create(TripsPartition, stray, IOType.Merge)
    storage.create(s"${table.basePath}/$TripsPartition/$stray", Array[Byte](1))
    CompactionTransaction.commit(table, t, stats, schemaOf(table))

    assert(metaFiles(table).filter(_.startsWith(t)) ==
      Seq(s"$t.commit", s"$t.compaction.inflight", s"$t.compaction.requested"))
    assert(!storage.exists(s"${table.basePath}/$TripsPartition/$stray"))
    assert(!storage.exists(s"${table.metaPath}/.temp/$t"))
    assert(CompactionTransaction.pendingCompactions(table).isEmpty)
    val m = CommitMetadata.parse(storage.readAll(s"${table.metaPath}/$t.commit"))
    assert(m.compacted && m.operationType.contains("COMPACT") && m.schema.contains(schemaOf(table)))
    assert(m.writeStats.size == 1)
    val s = m.writeStats.head
    val logSize = storage.fileSize(s"${table.basePath}/$TripsPartition/$TripsLogName")
    assert(s.fileId == TripsFileId && s.partitionPath == TripsPartition)
    assert(s.path.contains(s"$TripsPartition/${CompactionOperations.outputFileName(TripsFileId, "0-1-0", t)}"))
    assert(s.prevCommit.contains(TripsBase) && s.prevBaseFile.contains(TripsBaseName))
    assert(s.totalLogFilesCompacted == 1 && s.totalLogSizeCompacted == logSize)
    assert(s.numWrites == 2 && s.totalLogRecords == 1 && s.totalUpdatedRecordsCompacted == 1 && s.totalLogBlocks == 1)
    assert(s.fileSizeInBytes == storage.fileSize(s"${table.basePath}/$TripsPartition/$TripsBaseName"))
    val json = new String(storage.readAll(s"${table.metaPath}/$t.commit"), "UTF-8")
    assert(json.contains("\"prevBaseFile\"") && json.contains("\"compacted\" : true"), json.take(400))
  }

  test("steps out of order and bad stats are rejected") {
    val table = copyOf("mor/v6_trips_8i1u")
    val t = CompactionTransaction.schedule(table, CompactionPlanner.plan(table).get)
    intercept[InstantStateException](CompactionTransaction.commit(table, t, Nil, schemaOf(table)))
    CompactionTransaction.start(table, t)
    intercept[InstantStateException](CompactionTransaction.start(table, t))
    intercept[CommitFailedException](CompactionTransaction.commit(table, t, Nil, schemaOf(table)))
    val stats = runCompaction(table, t)
    intercept[CommitFailedException](CompactionTransaction.commit(table, t, stats, " "))
    intercept[CommitFailedException](
      CompactionTransaction.commit(table, t, stats.map(_.copy(fileId = "other-0")), schemaOf(table)))
    CompactionTransaction.commit(table, t, stats, schemaOf(table))
    intercept[InstantStateException](CompactionTransaction.commit(table, t, stats, schemaOf(table)))
    intercept[InstantStateException](CompactionTransaction.rollbackInflight(table, t))
  }

  test("schedule refuses pending writes, overlapping plans and empty plans") {
    val table = copyOf("mor/v6_trips_8i1u")
    val plan = CompactionPlanner.plan(table).get
    intercept[CommitFailedException](CompactionTransaction.schedule(table, CompactionPlan(Some(Nil))))
    CompactionTransaction.schedule(table, plan)
    // A plan made from a timeline that changed since is refused as a conflict.
    intercept[io.pyhudi.errors.WriteConflictException](CompactionTransaction.schedule(table, plan))
    intercept[CommitFailedException](CompactionTransaction.schedule(table.reload(), plan))
    val other = copyOf("mor/v6_trips_8i1u")
    val tx = new WriteTransaction(other, Action.DeltaCommit, "UPSERT")
    tx.start(Commits.workloadProfile("UPSERT", Map("city=chennai" -> 1L)))
    intercept[CommitFailedException](CompactionTransaction.schedule(other.reload(), plan))
  }

  test("rollbackInflight deletes T's files and returns T to requested; re-execution then commits") {
    val table = copyOf("mor/v6_trips_8i1u")
    val t = CompactionTransaction.schedule(table, CompactionPlanner.plan(table).get)
    CompactionTransaction.start(table, t)
    val first = runCompaction(table, t).map(s => s"${table.basePath}/${s.path.get}")
    // A base file of T written without a marker (e.g. by a task that crashed mid-way).
    val unmarked = s"${table.basePath}/$TripsPartition/${CompactionOperations.outputFileName(TripsFileId, "0-9-9", t)}"
    storage.create(unmarked, Array[Byte](1))

    val deleted = CompactionTransaction.rollbackInflight(table, t)
    assert(deleted.toSet == (first :+ unmarked).toSet)
    assert((first :+ unmarked).forall(p => !storage.exists(p)))
    assert(metaFiles(table).filter(_.startsWith(t)) == Seq(s"$t.compaction.requested"))
    assert(!storage.exists(s"${table.metaPath}/.temp/$t"))
    // As Apache Hudi writes it: a rollback instant naming the compaction and the files it deleted.
    val rollbacks = metaFiles(table).filter(_.endsWith(".rollback"))
    assert(rollbacks.size == 1)
    val r = rollbacks.head.stripSuffix(".rollback")
    assert(metaFiles(table).filter(_.startsWith(r)).toSet ==
      Set(s"$r.rollback.requested", s"$r.rollback.inflight", s"$r.rollback"))
    val metadata = io.pyhudi.write.commit.Rollback.metadata(table, r)
    assert(metadata.commitsRollback == Seq(t) && metadata.instantsRollback.map(_.action) == Seq(Action.Compaction))
    assert(metadata.partitionMetadata.values.flatMap(_.successDeleteFiles).toSet == (first :+ unmarked).toSet)
    assert(CompactionTransaction.rollbackInflight(table, t).isEmpty, "repeatable")
    assert(metaFiles(table).count(_.endsWith(".rollback")) == 1, "nothing left to roll back: no second rollback")
    assert(scan(table).slices.exists(s => s.baseInstant == TripsBase && s.hasLogs))

    CompactionTransaction.start(table, t)
    CompactionTransaction.commit(table, t, runCompaction(table, t, "0-2-0"), schemaOf(table))
    // The compaction completes at its own time, before the rollback instant that undid its first run.
    assert(table.reload().timeline.completedWrites.last == Instant(t, Action.Commit, State.Completed))
  }

  test("rollbackFailedWrites leaves pending compactions alone") {
    val table = copyOf("mor/v6_trips_8i1u")
    val t = CompactionTransaction.schedule(table, CompactionPlanner.plan(table).get)
    CompactionTransaction.start(table, t)
    val written = runCompaction(table, t).map(s => s"${table.basePath}/${s.path.get}")
    assert(io.pyhudi.write.commit.WriteFixtures.recover(table.reload()).isEmpty)
    assert(metaFiles(table).filter(_.startsWith(t)) == Seq(s"$t.compaction.inflight", s"$t.compaction.requested"))
    assert(written.forall(storage.exists))
    assert(CompactionTransaction.pendingCompactions(table).map(_._1) == Seq(t))
  }
}
