// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.compaction

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.table.HoodieTable
import io.pyhudi.testutil.Corpus

/** Which slices a compaction plan takes, and when inline compaction is due. */
class CompactionPlannerSuite extends AnyFunSuite {
  import CompactionFixtures._

  test("v6_trips_8i1u: the one slice with a log file, as names (plan version 2) with metrics") {
    val table = copyOf("mor/v6_trips_8i1u")
    val plan = CompactionPlanner.plan(table).get
    assert(plan.version.contains(2) && plan.extraMetadata.isEmpty)
    assert(plan.operations.get.size == 1)
    val op = plan.operations.get.head
    assert(op.baseInstantTime.contains(TripsBase))
    assert(op.dataFilePath.contains(TripsBaseName))
    assert(op.deltaFilePaths.contains(Seq(TripsLogName)))
    assert(op.fileId.contains(TripsFileId) && op.partitionPath.contains(TripsPartition))
    assert(op.bootstrapFilePath.isEmpty)
    val logSize = storage.fileSize(s"${table.basePath}/$TripsPartition/$TripsLogName")
    assert(op.metrics.get(CompactionOperations.TotalLogFiles) == 1.0)
    assert(op.metrics.get(CompactionOperations.TotalLogFilesSize) == logSize.toDouble)
    assert(Set(CompactionOperations.TotalIoMb, CompactionOperations.TotalIoReadMb,
        CompactionOperations.TotalIoWriteMb).subsetOf(op.metrics.get.keySet))
  }

  test("every corpus MOR table: one operation per latest slice with logs, names without folders") {
    val seen = Corpus.tables("mor").map { name =>
      val table = HoodieTable.open(Corpus.extract(name).getPath, storage)
      val expected = CompactionPlanner.compactableSlices(table)
        .map(s => (s.groupId.partitionPath, s.groupId.fileId, s.logFiles.map(_.name).sorted)).toSet
      val ops = CompactionPlanner.plan(table).flatMap(_.operations).getOrElse(Nil)
      assert(ops.map(o => (o.partitionPath.get, o.fileId.get, o.deltaFilePaths.get)).toSet == expected, name)
      ops.foreach { o =>
        assert(!o.dataFilePath.exists(_.contains('/')) && !o.deltaFilePaths.get.exists(_.contains('/')), name)
        assert(o.deltaFilePaths.get.nonEmpty, name)
      }
      name -> ops.size
    }.toMap
    assert(seen("mor/v6_trips_8i1u") == 1)
    assert(seen("mor/v6_nonpartitioned") == 1)
    assert(seen("mor/v6_empty") == 0)
  }

  test("copy-on-write tables have nothing to compact") {
    val cow = HoodieTable.open(Corpus.extract("cow/v6_nonpartitioned").getPath, storage)
    assert(CompactionPlanner.plan(cow).isEmpty)
  }

  /** Trips with a second slice with logs (chennai), whose logs are larger than san_francisco's. */
  private def twoSlices(): (HoodieTable, Long, Long) = {
    val table = copyOf("mor/v6_trips_8i1u")
    val log = storage.readAll(s"${table.basePath}/$TripsPartition/$TripsLogName")
    val chennai = "84e82649-b1ee-4a25-a316-17cc6872616b-0"
    storage.create(s"${table.basePath}/city=chennai/.${chennai}_$TripsBase.log.1_0-26-86", log ++ log)
    val sizes = CompactionPlanner.compactableSlices(table).map(s => s.groupId.partitionPath -> s.totalSize).toMap
    (table, sizes("city=chennai"), sizes(TripsPartition))
  }

  test("operations are ordered by log size, largest first; target IO takes a bounded prefix") {
    val (table, chennai, sf) = twoSlices()
    def partitions(target: Option[Long]) =
      CompactionPlanner.plan(table, target).get.operations.get.map(_.partitionPath.get)
    assert(partitions(None) == Seq("city=chennai", TripsPartition))
    assert(partitions(Some(chennai + sf)) == Seq("city=chennai", TripsPartition))
    assert(partitions(Some(chennai + sf - 1)) == Seq("city=chennai"))
    assert(partitions(Some(chennai)) == Seq("city=chennai"))
    assert(partitions(Some(1)) == Seq("city=chennai"), "at least one slice even over the target")
    assert(CompactionPlanner.plan(table) == CompactionPlanner.plan(table), "deterministic")
  }

  test("file groups of a pending compaction are not planned again") {
    val (table, _, _) = twoSlices()
    val first = CompactionPlanner.plan(table, Some(1)).get
    CompactionTransaction.schedule(table, first)
    val second = CompactionPlanner.plan(table.reload()).get
    assert(second.operations.get.map(_.partitionPath.get) == Seq(TripsPartition))
    CompactionTransaction.schedule(table.reload(), second)
    assert(CompactionPlanner.plan(table.reload()).isEmpty)
  }

  test("file groups a pending write has markers in wait for the next compaction") {
    val (table, _, _) = twoSlices()
    // A delta commit in flight that wrote a log file into chennai's group (marker first).
    val instant = "20991231235959000"
    val writer = new io.pyhudi.timeline.TimelineWriter(storage, table.metaPath)
    writer.requested(instant, io.pyhudi.timeline.Action.DeltaCommit, Array.emptyByteArray)
    writer.inflight(instant, io.pyhudi.timeline.Action.DeltaCommit)
    val chennai = "84e82649-b1ee-4a25-a316-17cc6872616b-0"
    new io.pyhudi.write.commit.Markers(storage, table.basePath, instant)
      .create("city=chennai", s".${chennai}_$TripsBase.log.2_0-30-90", io.pyhudi.write.commit.IOType.Append)
    assert(CompactionPlanner.plan(table.reload()).get.operations.get.map(_.partitionPath.get) == Seq(TripsPartition))
    // Once that write is gone (rolled back, its markers with it), the group is planned again.
    storage.delete(s"${table.metaPath}/.temp/$instant", recursive = true)
    assert(CompactionPlanner.plan(table.reload()).get.operations.get.map(_.partitionPath.get).toSet ==
      Set("city=chennai", TripsPartition))
  }

  test("shouldCompactInline counts completed deltacommits since the last compaction commit") {
    val table = copyOf("mor/v6_trips_8i1u")
    assert(CompactionPlanner.deltaCommitsSinceLastCompaction(table) == 2)
    assert(CompactionPlanner.shouldCompactInline(table, 2))
    assert(!CompactionPlanner.shouldCompactInline(table, 3))
    val t = compact(table)
    val after = table.reload()
    assert(after.timeline.latestCompletedWrite.get.timestamp == t)
    assert(CompactionPlanner.deltaCommitsSinceLastCompaction(after) == 0)
    assert(!CompactionPlanner.shouldCompactInline(after, 1))
    // A later deltacommit (metadata only) counts again.
    val d = io.pyhudi.timeline.InstantTimeGenerator.Default.next(after.timeline)
    storage.create(s"${table.metaPath}/$d.deltacommit", storage.readAll(s"${table.metaPath}/$TripsLatest.deltacommit"))
    assert(CompactionPlanner.deltaCommitsSinceLastCompaction(after.reload()) == 1)
    assert(CompactionPlanner.shouldCompactInline(after.reload(), 1))
  }
}
