// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clustering

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{CommitFailedException, InstantStateException, WriteConflictException}
import io.pyhudi.filegroup.{FileGroupId, FileSystemView, PartitionLister}
import io.pyhudi.services.clean.CleanPlanner
import io.pyhudi.services.compaction.CompactionFixtures.{copyOf, schemaOf, storage}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State, TimelineWriter, WriteStat}
import io.pyhudi.transaction.{ConcurrentChanges, HeartbeatPolicy}
import io.pyhudi.write.commit.{IOType, WriteStats}
import io.pyhudi.write.handle.HandleResult

/** The timeline steps of a clustering instant, without Spark: executors stand in as byte copies. */
class ClusteringTransactionSuite extends AnyFunSuite {

  private val Config = ClusteringConfig(sortColumns = Seq("x"))

  private def latest(table: HoodieTable): Seq[FileGroupId] = {
    val t = table.reload()
    val asOf = t.timeline.latestCompletedWrite.get.timestamp
    new FileSystemView(t.timeline, PartitionLister.list(t.storage, t.basePath), asOf,
      FileSystemView.replacedFileGroups(t.timeline, asOf, t.commitMetadata)).latestSlices.map(_.groupId)
  }

  /** One new file group per clustering group, a copy of its first slice's base file, behind a marker. */
  private def execute(table: HoodieTable, instant: String): Seq[WriteStat] = {
    val plan = ClusteringTransaction.pendingClusterings(table).toMap.apply(instant)
    plan.groups.zipWithIndex.map { case (g, i) =>
      val slice = ClusteringSlices.toFileSlice(table, instant, g.slices.get.head)
      val p = slice.groupId.partitionPath
      val name = s"new$i-0_0-1-0_$instant.parquet"
      ClusteringTransaction.markers(table, instant).create(p, name, IOType.Create)
      val bytes = storage.readAll(slice.baseFile.get.path)
      storage.create(s"${table.basePath}/$p/$name", bytes)
      WriteStats.written(HandleResult(p, s"new$i-0", s"$p/$name", None, 1, 1, 0, 0, bytes.length.toLong, "a", "b", 1))
    }
  }

  test("requested holds the plan, inflight is empty, the commit replaces every planned group") {
    val table = copyOf("cow/v6_simplekeygen_nonhivestyle")
    val before = latest(table)
    val plan = ClusteringPlanner.plan(table, Config).get
    val t = ClusteringTransaction.schedule(table, plan)
    val writer = new TimelineWriter(storage, table.metaPath)
    assert(ClusteringTransaction.pendingClusterings(table) == Seq(t -> plan))
    assert(latest(table) == before, "a requested clustering changes no reader's view")
    assert(ClusteringPlanner.plan(table.reload(), Config).isEmpty,
      "groups of a pending clustering are not planned again")
    val beat = ClusteringTransaction.start(table, t)
    try {
      assert(writer.read(Instant(t, Action.ReplaceCommit, State.Inflight)).isEmpty)
      val stats = execute(table, t)
      ClusteringTransaction.commit(table, t, stats, schemaOf(table))
    } finally beat.close()
    val meta = CommitMetadata.parse(writer.read(Instant(t, Action.ReplaceCommit, State.Completed)))
    assert(meta.operationType.contains("CLUSTER") && meta.replaceCommit && !meta.compacted)
    assert(meta.replacedFileIds.toSeq.flatMap { case (p, ids) => ids.map(FileGroupId(p, _)) }.toSet == before.toSet)
    assert(latest(table).map(_.fileId).toSet == plan.groups.indices.map(i => s"new$i-0").toSet)
    assert(ClusteringTransaction.pendingClusterings(table.reload()).isEmpty)
    assert(!storage.exists(s"${table.metaPath}/.temp/$t"), "markers removed")
    assert(ClusteringPlanner.commitsSinceLastClustering(table.reload()) == 0)
  }

  test("rollback of an inflight clustering deletes its files and returns it to requested; repeatable") {
    val table = copyOf("cow/v6_simplekeygen_nonhivestyle")
    val t = ClusteringTransaction.schedule(table, ClusteringPlanner.plan(table, Config).get)
    ClusteringTransaction.start(table, t).close()
    val written = execute(table, t).map(s => s"${table.basePath}/${s.path.get}")
    assert(written.forall(storage.exists))
    assert(ClusteringTransaction.rollbackInflight(table, t).toSet == written.toSet)
    assert(!written.exists(storage.exists))
    assert(table.reload().timeline.instants.find(_.timestamp == t).map(_.state).contains(State.Requested))
    assert(ClusteringTransaction.rollbackInflight(table, t).isEmpty)
    // executed again from requested
    val beat = ClusteringTransaction.start(table, t)
    try ClusteringTransaction.commit(table, t, execute(table, t), schemaOf(table))
    finally beat.close()
    intercept[InstantStateException](ClusteringTransaction.rollbackInflight(table, t))
  }

  test("a pending clustering is no failed write; updates to its groups are rejected, naming instant and group") {
    val table = copyOf("cow/v6_simplekeygen_nonhivestyle")
    val plan = ClusteringPlanner.plan(table, Config).get
    val t = ClusteringTransaction.schedule(table, plan)
    val now = new TimelineWriter(storage, table.metaPath).timeline()
    assert(ConcurrentChanges.deadWrites(storage, table.metaPath, now, HeartbeatPolicy(1L, 1)).isEmpty)
    val g = ClusteringSlices.groupIds(plan).head
    val err = intercept[WriteConflictException](ClusteringTransaction.rejectUpdates(table, "999", Seq(g)))
    assert(err.errorId == "UPDATE_UNDER_CLUSTERING")
    assert(err.getMessage.contains(t) && err.getMessage.contains(g.fileId))
    ClusteringTransaction.rejectUpdates(table, "999", Seq(FileGroupId(g.partitionPath, "other")))
    assert(CleanPlanner.pendingClusteringGroups(table.reload()) == ClusteringSlices.groupIds(plan).toSet)
  }

  test("schedule refuses an empty plan, a twice-named group and groups already pending") {
    val table = copyOf("cow/v6_simplekeygen_nonhivestyle")
    val plan = ClusteringPlanner.plan(table, Config).get
    intercept[CommitFailedException](ClusteringTransaction.schedule(table, plan.copy(inputGroups = Some(Nil))))
    val g = plan.groups.head
    intercept[CommitFailedException](
      ClusteringTransaction.schedule(table, plan.copy(inputGroups = Some(Seq(g, g)))))
    ClusteringTransaction.schedule(table, plan)
    val again = intercept[CommitFailedException](ClusteringTransaction.schedule(table.reload(), plan))
    assert(again.getMessage.contains("pending"))
  }
}
