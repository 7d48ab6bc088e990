// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clean

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.{BaseFile, PartitionLister}
import io.pyhudi.read.QueryType
import io.pyhudi.services.compaction.CompactionFixtures
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State, TimelineWriter, WriteStat}
import io.pyhudi.timeline.avro.{CleanMetadata, CleanerPlan, CompactionOperation, CompactionPlan, SavepointMetadata}

/**
 * Which slices a clean deletes, per policy, and what it never deletes, on copies of corpus tables
 * that each test extends with further commits (a new base file per commit, a byte copy of the
 * group's latest one, with its write stat in the commit metadata), then runs through
 * [[CleanTransaction]] with in-process deletes.
 */
class CleanPlannerSuite extends AnyFunSuite {
  import CompactionFixtures.{copyOf, scan, storage}

  private val NonPartFileId = "a079bdb3-731c-4894-b855-abfcd6921007-0"
  private val C0 = "20240418173550988"
  private val C1 = "20240418173551906"

  /** Further commits, one hour apart. */
  private val Later = Seq("20240418183551906", "20240418193551906", "20240418203551906", "20240418213551906")
  private val HourMs = 3600L * 1000L

  private def epochMs(instant: String): Long =
    java.time.LocalDateTime.parse(instant, java.time.format.DateTimeFormatter.ofPattern("uuuuMMddHHmmssSSS"))
      .toInstant(java.time.ZoneOffset.UTC).toEpochMilli

  /** Commits a new base file of group (`partition`, `fileId`) at `instant`, copied from its latest one. */
  private def commitCopy(table: HoodieTable, partition: String, fileId: String, instant: String,
      action: String = Action.Commit): HoodieTable = {
    val dir = if (partition.isEmpty) table.basePath else s"${table.basePath}/$partition"
    val latest = storage.listFiles(dir).flatMap(f => BaseFile.parse(f.path, f.size))
      .filter(_.fileId == fileId).maxBy(_.instant)
    val name = s"${fileId}_0-1-0_$instant.parquet"
    val bytes = storage.readAll(latest.path)
    storage.create(s"$dir/$name", bytes)
    val rel = if (partition.isEmpty) name else s"$partition/$name"
    val schema = CompactionFixtures.schemaOf(table)
    val writer = new TimelineWriter(storage, table.metaPath)
    writer.requested(instant, action)
    writer.inflight(instant, action)
    writer.complete(instant, action,
      CommitMetadata(Seq(WriteStat(partition, fileId, Some(rel),
            prevCommit = Some(latest.instant), numWrites = 1, fileSizeInBytes = bytes.length.toLong)), Map.empty,
        Map("schema" -> schema), Some("upsert"), compacted = false).toJson)
    table.reload()
  }

  /** v6_nonpartitioned (slices C0, C1) with four more slices of its one file group. */
  private def sixSlices(): HoodieTable =
    Later.foldLeft(copyOf("cow/v6_nonpartitioned"))((t, i) => commitCopy(t, "", NonPartFileId, i))

  /** Names of the base and log files in the table's partitions. */
  private def dataFiles(table: HoodieTable): Set[String] =
    PartitionLister.list(storage, table.basePath).flatMap(_._2).map(_.name)
      .filter(n => n.endsWith(".parquet") || n.contains(".log.")).toSet

  private def baseName(instant: String): String = s"${NonPartFileId}_0-1-0_$instant.parquet"

  private def plannedNames(plan: CleanerPlan): Set[String] =
    plan.filesToDelete.map(p => p.substring(p.lastIndexOf('/') + 1)).toSet

  private def cleanNow(table: HoodieTable, config: CleanConfig, nowMs: Long = System.currentTimeMillis()): Seq[String] =
    CleanTransaction.clean(table, config, CleanTransaction.deleteLocally(storage), nowMs = () => nowMs)

  test("KEEP_LATEST_COMMITS: slices latest at or after the earliest retained commit stay, with the one before") {
    val table = sixSlices()
    val all = dataFiles(table)
    // Commits C0 C1 L0 L1 L2 L3; retaining 2 makes L2 the earliest retained commit. L1's slice was
    // replaced by L2's, which is not older than L2, so it stays; C0, C1 and L0 go.
    val plan = CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 2)).get
    assert(plan.earliestInstantToRetain.map(i => (i.timestamp, i.action, i.state)).contains((Later(2), "commit",
          "COMPLETED")))
    assert(plan.policy == "KEEP_LATEST_COMMITS" && plan.version.contains(2))
    assert(plan.filePathsToBeDeletedPerPartition.keySet == Set(""))
    val doomed = all.filter(n => Seq(C0, C1, Later(0)).exists(t => n.endsWith(s"_$t.parquet")))
    assert(doomed.size == 3 && plannedNames(plan) == doomed)
    assert(plan.filesToDelete.forall(_.startsWith("file:")), "absolute paths, as Hudi writes them")

    val cleans = cleanNow(table, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 2))
    assert(cleans.size == 1)
    assert(dataFiles(table) == all -- doomed)
    val after = table.reload()
    assert(after.timeline.instants.exists(i => i.timestamp == cleans.head && i.action == Action.Clean && i.isCompleted))
    // The completed clean is no data instant: the latest write is unchanged.
    assert(after.timeline.latestCompletedWrite.map(_.timestamp).contains(Later(3)))
    val writer = new TimelineWriter(storage, after.metaPath)
    val metadata = CleanMetadata.fromBytes(writer.read(Instant(cleans.head, Action.Clean, State.Completed)))
    assert(metadata.earliestCommitToRetain == Later(2) && metadata.lastCompletedCommitTimestamp == Later(3))
    assert(metadata.totalFilesDeleted == 3 && metadata.startCleanTime == cleans.head)
    assert(metadata.partitionMetadata("").successDeleteFiles.toSet == doomed)
    assert(metadata.partitionMetadata("").failedDeleteFiles.isEmpty)
    assert(CleanerPlan.fromBytes(writer.read(Instant(cleans.head, Action.Clean, State.Inflight))) == plan)
    // Time travel to every retained commit (and L1) still reads its slice.
    Seq(Later(1), Later(2), Later(3)).foreach { t =>
      val slices = scan(after, QueryType.Snapshot, Some(t)).slices
      assert(slices.map(_.baseInstant) == Seq(t), t)
    }
    // Nothing more to clean.
    assert(CleanPlanner.plan(after, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 2)).isEmpty)
  }

  test("KEEP_LATEST_COMMITS with no more commits than retained cleans nothing") {
    val table = sixSlices()
    assert(CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 6)).isEmpty)
    // Retaining 5 makes C1 the earliest: C0's slice is the one before it and stays too.
    assert(CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 5)).isEmpty)
    assert(CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 4)).map(plannedNames)
        .contains(Set(s"${NonPartFileId}_0-182-253_$C0.parquet")))
    assert(cleanNow(table, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 6)).isEmpty)
    assert(!table.reload().timeline.instants.exists(_.action == Action.Clean))
  }

  test("KEEP_LATEST_FILE_VERSIONS keeps the newest N slices of each group") {
    val table = sixSlices()
    val plan = CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestFileVersions, fileVersionsRetained = 2)).get
    assert(plan.earliestInstantToRetain.isEmpty && plan.policy == "KEEP_LATEST_FILE_VERSIONS")
    val kept = dataFiles(table) -- plannedNames(plan)
    assert(kept == Set(baseName(Later(2)), baseName(Later(3))))
    cleanNow(table, CleanConfig(CleanPolicy.KeepLatestFileVersions, fileVersionsRetained = 2))
    assert(dataFiles(table) == kept)
    val metadata = CleanMetadata.fromBytes(new TimelineWriter(storage, table.metaPath)
        .read(table.reload().timeline.instants.find(_.action == Action.Clean).get))
    assert(metadata.earliestCommitToRetain == "" && metadata.totalFilesDeleted == 4)
  }

  test("KEEP_LATEST_BY_HOURS retains the commits of the last N hours") {
    val table = sixSlices()
    // One hour retained at L2 + 1h + 1 ms: the cut-off is L1 + 1 ms, so L2 is the oldest commit
    // at or after it, and the slices replaced before L2 (C0, C1, L0) go.
    val now = epochMs(Later(1)) + HourMs + 1
    val plan = CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestByHours, hoursRetained = 1), now).get
    assert(plan.earliestInstantToRetain.map(_.timestamp).contains(Later(2)))
    assert(plannedNames(plan) == Set(s"${NonPartFileId}_0-182-253_$C0.parquet",
      s"${NonPartFileId}_0-203-274_$C1.parquet",
      baseName(Later(0))))
    val exact = epochMs(Later(1)) + HourMs // the cut-off is exactly L1: L1 is retained
    assert(CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestByHours, hoursRetained = 1), exact).get
        .earliestInstantToRetain.map(_.timestamp).contains(Later(1)))
    // Every commit older than the cut-off: nothing is cleaned (no commit to anchor the retention).
    assert(CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestByHours, hoursRetained = 1),
        epochMs(Later(3)) + 2 * HourMs).isEmpty)
  }

  test("a savepointed slice is never deleted, and does not count as a kept version") {
    val table = sixSlices()
    val savepointed = s"${NonPartFileId}_0-203-274_$C1.parquet"
    val writer = new TimelineWriter(storage, table.metaPath)
    // Hudi gives a savepoint the instant time of the commit it keeps.
    writer.inflight(C1, Action.Savepoint)
    writer.complete(C1, Action.Savepoint,
      SavepointMetadata("tester", 0L, "keep C1", Map("" -> Seq(savepointed))).toBytes)
    val fresh = table.reload()
    // The savepoint instant is not a write.
    assert(fresh.timeline.completedWrites.size == 6)
    val byCommits = CleanPlanner.plan(fresh, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 2)).get
    assert(plannedNames(byCommits) == Set(s"${NonPartFileId}_0-182-253_$C0.parquet", baseName(Later(0))))
    val byVersions =
      CleanPlanner.plan(fresh, CleanConfig(CleanPolicy.KeepLatestFileVersions, fileVersionsRetained = 2)).get
    assert(!plannedNames(byVersions).contains(savepointed))
    assert(dataFiles(fresh) -- plannedNames(byVersions) == Set(savepointed, baseName(Later(2)), baseName(Later(3))))
    cleanNow(fresh, CleanConfig(CleanPolicy.KeepLatestFileVersions, fileVersionsRetained = 1))
    assert(dataFiles(fresh) == Set(savepointed, baseName(Later(3))))
  }

  test("replaced file groups go whole once their replacecommit is older than the earliest retained commit") {
    val table0 = copyOf("cow/v6_simplekeygen_nonhivestyle_overwritetable")
    val newGroup = "ebcb261d-62d3-4895-90ec-5b3c9622dff4-0"
    val replace = "20240707001303088"
    val table = Seq("20240707011303088", "20240707021303088")
      .foldLeft(table0)((t, i) => commitCopy(t, "30", newGroup, i))
    val replacedGroups = Set("4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0", "88163884-fef0-4aab-865d-c72327a8a1d5-0",
      "d398fae1-c0e6-4098-8124-f55f7098bdba-0")
    val all = dataFiles(table)
    // Retaining 3: the replacecommit itself is the earliest retained commit, so the replaced groups
    // still serve time travel before it; only the older slice of group 4f26… goes.
    val three = CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 3)).get
    assert(three.earliestInstantToRetain.map(_.timestamp).contains(replace))
    assert(plannedNames(three) == Set("4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0_1-74-111_20240707001301554.parquet"))
    // Retaining 2: the replaced groups go whole; the new group's first slice was latest just
    // before the earliest retained commit and stays.
    val two = CleanPlanner.plan(table, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 2)).get
    val replacedFiles = all.filter(n => replacedGroups.exists(n.startsWith))
    assert(replacedFiles.size == 4)
    assert(plannedNames(two) == replacedFiles)
    assert(two.filePathsToBeDeletedPerPartition.keySet == Set("10", "20", "30"))
    cleanNow(table, CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 2))
    assert(dataFiles(table) == all -- plannedNames(two))
    val after = table.reload()
    assert(scan(after).slices.map(s => (s.groupId.partitionPath, s.baseInstant)) == Seq("30" -> "20240707021303088"))
    assert(scan(after, QueryType.Snapshot, Some("20240707011303088")).slices.map(_.baseInstant) == Seq(
      "20240707011303088"))
  }

  test("merge-on-read: a cleaned slice takes its log files; a slice a pending compaction reads stays") {
    import CompactionFixtures.{TripsBase, TripsBaseName, TripsFileId, TripsLogName, TripsPartition}
    val table0 = copyOf("mor/v6_trips_8i1u")
    val compaction = CompactionFixtures.compact(table0)
    val table = commitCopy(table0.reload(), TripsPartition, TripsFileId, "20990101000000000", Action.DeltaCommit)
    val config = CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 1)
    val plan = CleanPlanner.plan(table, config).get
    // The slice at TripsBase (base file and log) was replaced by the compaction's before the
    // earliest retained commit; the compaction's slice was latest until it.
    assert(plannedNames(plan).filter(_.contains(TripsFileId)) == Set(TripsBaseName, TripsLogName))
    assert(!plannedNames(plan).exists(_.endsWith(s"_$compaction.parquet")))

    // A pending compaction naming the old slice protects it (base file and logs).
    val pending = "20990101000000001"
    new TimelineWriter(storage, table.metaPath).requested(pending, Action.Compaction,
      CompactionPlan(Some(Seq(CompactionOperation(Some(TripsBase), Some(Seq(TripsLogName)), Some(TripsBaseName),
              Some(TripsFileId), Some(TripsPartition))))).toBytes)
    val protectedPlan = CleanPlanner.plan(table.reload(), config)
    assert(!protectedPlan.exists(p => plannedNames(p).exists(_.contains(TripsFileId))))

    storage.delete(s"${table.metaPath}/$pending.compaction.requested")
    val before = dataFiles(table)
    cleanNow(table.reload(), config)
    assert(dataFiles(table) == before -- plannedNames(plan))
    assert(!storage.exists(s"${table.basePath}/$TripsPartition/$TripsLogName"))
  }

  test("a clean interrupted after its inflight file is finished by the next clean from its plan") {
    val table = sixSlices()
    val config = CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 2)
    val (instant, beat) = CleanTransaction.schedule(table, config, io.pyhudi.transaction.ConcurrencyConfig.Default,
      io.pyhudi.timeline.InstantTimeGenerator.Default, System.currentTimeMillis()).get
    val plan = CleanTransaction.pending(table).toMap.apply(instant)
    // The process dies after deleting one planned file: its heartbeat stops (close deletes it).
    storage.delete(plan.filesToDelete.head)
    beat.close()
    val planned = plannedNames(plan)
    // A second plan would see one file less; the pending plan is what gets finished.
    assert(cleanNow(table.reload(), config.copy(commitsRetained = 5)) == Seq(instant))
    assert(dataFiles(table).intersect(planned).isEmpty)
    val metadata = CleanMetadata.fromBytes(new TimelineWriter(storage, table.metaPath)
        .read(Instant(instant, Action.Clean, State.Completed)))
    assert(metadata.partitionMetadata("").successDeleteFiles.toSet == planned)
    assert(CleanTransaction.pending(table).isEmpty)
  }

  test("a pending version-1 plan (older Hudi: file names per partition) deletes the files in their partition") {
    import org.apache.avro.generic.{GenericData, GenericDatumWriter, GenericRecord}
    import org.apache.avro.file.DataFileWriter
    val table = sixSlices()
    val schema = io.pyhudi.timeline.avro.TimelineSchemas.CleanerPlan
    val r = new GenericData.Record(schema)
    r.put("policy", "KEEP_LATEST_COMMITS")
    r.put("version", 1)
    val names = new java.util.HashMap[String, java.util.List[String]]()
    names.put("", java.util.List.of(s"${NonPartFileId}_0-182-253_$C0.parquet"))
    r.put("filesToBeDeletedPerPartition", names)
    val out = new java.io.ByteArrayOutputStream()
    val w = new DataFileWriter[GenericRecord](new GenericDatumWriter[GenericRecord](schema))
    w.create(schema, out); w.append(r); w.close()
    val instant = "20240418223551906"
    new TimelineWriter(storage, table.metaPath).requested(instant, Action.Clean, out.toByteArray)
    assert(cleanNow(table.reload(), CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 10)) == Seq(instant))
    assert(!dataFiles(table).exists(_.endsWith(s"_$C0.parquet")) && dataFiles(table).size == 5)
  }

  test("a pending clean whose heartbeat is live is left to its process") {
    val table = sixSlices()
    val config = CleanConfig(CleanPolicy.KeepLatestCommits, commitsRetained = 2)
    val (instant, beat) = CleanTransaction.schedule(table, config, io.pyhudi.transaction.ConcurrencyConfig.Default,
      io.pyhudi.timeline.InstantTimeGenerator.Default, System.currentTimeMillis()).get
    try {
      val files = dataFiles(table)
      // Neither finished here nor planned again while it runs.
      assert(cleanNow(table.reload(), config).isEmpty)
      assert(CleanTransaction.pending(table).map(_._1) == Seq(instant))
      assert(dataFiles(table) == files)
    } finally beat.close()
  }
}
