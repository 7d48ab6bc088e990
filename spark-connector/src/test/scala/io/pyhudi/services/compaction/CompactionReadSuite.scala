// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.compaction

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.FileSlice
import io.pyhudi.read.{QueryType, ScanPlan}

/**
 * Which slice readers pick around a compaction (hudi-format.md §2.3, §4.4): the old slice with
 * its logs while `T` is pending, the new base file of `T` once `T.commit` exists.
 */
class CompactionReadSuite extends AnyFunSuite {
  import CompactionFixtures._

  private def compacted(plan: ScanPlan): FileSlice =
    plan.slices.find(s => s.groupId.fileId == TripsFileId && s.groupId.partitionPath == TripsPartition).get

  private def assertOldSlice(plan: ScanPlan, withLogs: Boolean): Unit = {
    val s = compacted(plan)
    assert(s.baseInstant == TripsBase && s.baseFile.map(_.name).contains(TripsBaseName))
    assert(s.logFiles.map(_.name) == (if (withLogs) Seq(TripsLogName) else Nil))
    assert(plan.slices.size == 3)
  }

  test("while T is requested or inflight, its half-written base file is hidden") {
    val table = copyOf("mor/v6_trips_8i1u")
    val t = CompactionTransaction.schedule(table, CompactionPlanner.plan(table).get)
    assertOldSlice(scan(table), withLogs = true)
    CompactionTransaction.start(table, t)
    runCompaction(table, t)
    assert(storage.listFiles(s"${table.basePath}/$TripsPartition").exists(_.name.endsWith(s"_$t.parquet")))
    assert(scan(table).instant.contains(TripsLatest))
    assertOldSlice(scan(table), withLogs = true)
    assertOldSlice(scan(table, QueryType.ReadOptimized), withLogs = false)
    assertOldSlice(scan(table, asOf = Some(t)), withLogs = true)
    assertOldSlice(scan(table, QueryType.ReadOptimized, Some(t)), withLogs = false)
  }

  test("after T.commit: snapshot and read-optimized read the new slice; time travel before T the old one") {
    val table = copyOf("mor/v6_trips_8i1u")
    val t = compact(table)
    val newName = CompactionOperations.outputFileName(TripsFileId, "0-1-0", t)
    for (plan <- Seq(scan(table), scan(table, QueryType.ReadOptimized), scan(table, asOf = Some(t)))) {
      assert(plan.instant.contains(t))
      val s = compacted(plan)
      assert(s.baseInstant == t && s.baseFile.map(_.name).contains(newName) && s.logFiles.isEmpty)
      assert(plan.slices.size == 3)
      assert(plan.slices.filterNot(_ eq s).forall(_.baseInstant == TripsBase))
    }
    assertOldSlice(scan(table, asOf = Some(TripsLatest)), withLogs = true)
    assertOldSlice(scan(table, QueryType.ReadOptimized, Some(TripsLatest)), withLogs = false)
  }

  test("logs written against the pending compaction instant fold into the old slice until T completes") {
    val table = copyOf("mor/v6_trips_8i1u")
    val t = CompactionTransaction.schedule(table, CompactionPlanner.plan(table).get)
    val late = s".${TripsFileId}_$t.log.1_0-30-90"
    storage.create(s"${table.basePath}/$TripsPartition/$late",
      storage.readAll(s"${table.basePath}/$TripsPartition/$TripsLogName"))
    assert(compacted(scan(table)).logFiles.map(_.name) == Seq(TripsLogName, late))
  }
}
