// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.archive

import scala.jdk.CollectionConverters._
import scala.util.Using

import org.apache.avro.Schema
import org.apache.avro.generic.GenericRecord
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.logfile.{AvroDataBlock, HeaderKey, LogFormatReader}
import io.pyhudi.services.compaction.CompactionFixtures
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State, TimelineWriter}
import io.pyhudi.timeline.avro.ArchivedMetaEntry

/**
 * Archival on copies of corpus tables (written by Apache Hudi 0.14) that each test extends with
 * further delta commits: the archive file read back with pyhudi's log reader, its schema against
 * Hudi's `HoodieArchivedMetaEntry`, and the states an interrupted archival leaves.
 */
class ArchiveTransactionSuite extends AnyFunSuite {
  import CompactionFixtures.{copyOf, storage}

  private val Config = ArchiveConfig(minCommits = 3, maxCommits = 5)

  /** The log file of the corpus table's rolled-back delta commit, which its rollback cancelled with a command block. */
  private val FailedLog = ".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.1_0-33-43"
  private val RolledBack = "20250126040826878"

  /**
   * mor/v6_nonpartitioned_rollback and `n` more delta commits whose metadata copies its latest
   * one's. Unless `keepFailedLog`, the rolled-back log file is gone, as compaction and clean of its
   * slice eventually make it.
   */
  private def extended(n: Int, keepFailedLog: Boolean = false): HoodieTable = {
    val table = copyOf("mor/v6_nonpartitioned_rollback")
    if (!keepFailedLog) storage.delete(s"${table.basePath}/$FailedLog")
    val writer = new TimelineWriter(storage, table.metaPath)
    val json = writer.read(table.timeline.completedWrites.last)
    (1 to n).foreach { i =>
      val t = f"2025012607$i%02d00000"
      writer.requested(t, Action.DeltaCommit)
      writer.inflight(t, Action.DeltaCommit, json)
      writer.complete(t, Action.DeltaCommit, json)
    }
    table.reload()
  }

  private def stateFiles(table: HoodieTable): Seq[Instant] =
    new TimelineWriter(storage, table.metaPath).stateFiles().sortBy(_.fileName)

  private def blocks(table: HoodieTable): Seq[AvroDataBlock] =
    ArchivedTimeline.files(storage, ArchivedTimeline.folder(table)).flatMap { case (_, path) =>
      Using.resource(LogFormatReader.read(storage, path))(_.collect { case b: AvroDataBlock => b }.toList)
    }

  private def entries(table: HoodieTable): Seq[GenericRecord] = blocks(table).flatMap(_.records.toList)

  test("a rolled-back write whose log file is still there keeps a commit before it active") {
    val table = extended(8, keepFailedLog = true)
    // Apache Hudi recorded the log file under the table's old location; it is found by name.
    assert(ArchivePlanner.limits(table) == ArchiveLimits(rolledBackLeftovers = Seq(RolledBack)))
    // Only one commit sorts before the rolled-back instant, and it must stay: nothing is archived.
    assert(ArchivePlanner.plan(table, Config).isEmpty)
    assert(ArchiveTransaction.archive(table, Config).isEmpty)
    storage.delete(s"${table.basePath}/$FailedLog")
    assert(ArchivePlanner.limits(table) == ArchiveLimits())
    assert(ArchivePlanner.plan(table, Config).nonEmpty)
  }

  test("archived state files are written as HoodieArchivedMetaEntry records, then leave the active timeline") {
    val table = extended(8)
    val before = stateFiles(table)
    val writer = new TimelineWriter(storage, table.metaPath)
    val contents = before.map(i => i -> writer.read(i)).toMap
    val plan = ArchivePlanner.plan(table, Config)
    // 10 delta commits and a rollback: the 7 oldest commits and the rollback between them go.
    assert(plan.count(i => Action.Writes(i.action)) == 7)
    assert(plan.exists(_.action == Action.Rollback))
    val archived = ArchiveTransaction.archive(table, Config)
    assert(archived == plan)

    val times = plan.map(_.timestamp).toSet
    val (gone, kept) = before.partition(i => times(i.timestamp))
    assert(stateFiles(table) == kept)
    assert(table.reload().timeline.completedWrites.size == 3)

    val files = ArchivedTimeline.files(storage, ArchivedTimeline.folder(table))
    assert(files.map(f => f._1 -> f._2.substring(f._2.lastIndexOf('/') + 1)) == Seq(1 -> ".commits_.archive.1_1-0-1"))
    val bs = blocks(table)
    assert(bs.size == 1)
    assert(bs.head.header.keySet == Set(HeaderKey.Schema))
    assert(new Schema.Parser().parse(bs.head.header(HeaderKey.Schema)) == ArchivedMetaEntry.Schema)
    val records = entries(table)
    assert(records.flatMap(ArchivedMetaEntry.instantOf).sortBy(_.fileName) == gone)

    records.filter(r =>
      r.get("actionType").toString == Action.DeltaCommit &&
        r.get("actionState").toString == "COMPLETED").foreach { r =>
      val avro = r.get("hoodieCommitMetadata").asInstanceOf[GenericRecord]
      val json = CommitMetadata.parse(contents(ArchivedMetaEntry.instantOf(r).get))
      val stats = avro.get("partitionToWriteStats").asInstanceOf[java.util.Map[AnyRef, java.util.List[GenericRecord]]]
        .asScala.toSeq.flatMap { case (p, ss) => ss.asScala.map(s => p.toString -> s) }
      assert(stats.map { case (p, s) => (p, s.get("fileId").toString, s.get("numWrites")) } ==
        json.writeStats.map(s => (s.partitionPath, s.fileId, Long.box(s.numWrites))))
      val extra = avro.get("extraMetadata").asInstanceOf[java.util.Map[AnyRef, AnyRef]].asScala
      assert(extra.get(new org.apache.avro.util.Utf8("schema")).map(_.toString) == json.schema)
      assert(Option(avro.get("operationType")).map(_.toString) == json.operationType)
    }
    val rollback = records.find(_.get("actionType").toString == Action.Rollback).get
    assert(rollback.get("actionState").toString == "REQUESTED" || rollback.get("actionState").toString == "COMPLETED")
    val rollbackDone = records.find(r =>
      r.get("actionType").toString == Action.Rollback &&
        r.get("actionState").toString == "COMPLETED").get
    assert(rollbackDone.get("hoodieRollbackMetadata").asInstanceOf[GenericRecord].get("commitsRollback") != null)
    assert(records.forall(r => r.get("hoodieCleanMetadata") == null && r.get("hoodieSavePointMetadata") == null))
  }

  test("the entry schema has Apache Hudi 0.14/0.15's fields, in order, with their types") {
    def describe(s: Schema): String = s.getType match {
      case Schema.Type.UNION => s.getTypes.asScala.map(describe).mkString("[", ",", "]")
      case Schema.Type.RECORD => s.getName
      case other => other.getName
    }
    val fields = ArchivedMetaEntry.Schema.getFields.asScala.map(f => f.name -> describe(f.schema())).toSeq
    assert(ArchivedMetaEntry.Schema.getFullName == "org.apache.hudi.avro.model.HoodieArchivedMetaEntry")
    assert(fields == Seq(
      "hoodieCommitMetadata" -> "[null,HoodieCommitMetadata]",
      "hoodieCleanMetadata" -> "[null,HoodieCleanMetadata]",
      "hoodieCompactionMetadata" -> "[null,HoodieCompactionMetadata]",
      "hoodieRollbackMetadata" -> "[null,HoodieRollbackMetadata]",
      "hoodieSavePointMetadata" -> "[null,HoodieSavepointMetadata]",
      "commitTime" -> "[null,string]",
      "actionType" -> "[null,string]",
      "version" -> "[int,null]",
      "hoodieCompactionPlan" -> "[null,HoodieCompactionPlan]",
      "hoodieCleanerPlan" -> "[null,HoodieCleanerPlan]",
      "actionState" -> "[null,string]",
      "hoodieReplaceCommitMetadata" -> "[null,HoodieReplaceCommitMetadata]",
      "hoodieRequestedReplaceMetadata" -> "[null,HoodieRequestedReplaceMetadata]",
      "HoodieInflightReplaceMetadata" -> "[null,HoodieCommitMetadata]",
      "hoodieIndexCommitMetadata" -> "[null,HoodieIndexCommitMetadata]",
      "stateTransitionTime" -> "[null,string]"))
    val stat = ArchivedMetaEntry.Schema.getField("hoodieCommitMetadata").schema().getTypes.get(1)
      .getField("partitionToWriteStats").schema().getTypes.get(1).getValueType.getElementType
    assert(stat.getFullName == "org.apache.hudi.avro.model.HoodieWriteStat")
    assert(stat.getFields.asScala.map(_.name).toSeq == Seq("fileId", "path", "prevCommit", "prevFilePathOverwritten",
      "numWrites", "numDeletes", "numUpdateWrites", "totalWriteBytes", "totalWriteErrors", "partitionPath",
      "totalLogRecords", "totalLogFiles", "totalUpdatedRecordsCompacted", "numInserts", "totalLogBlocks",
      "totalCorruptLogBlock", "totalRollbackBlocks", "fileSizeInBytes"))
    assert(ArchivedMetaEntry.Schema.getFields.asScala.forall(_.hasDefaultValue))
  }

  test("an archival interrupted after its archive file is finished by the next one, without duplicate entries") {
    val table = extended(8)
    val plan = ArchivePlanner.plan(table, Config)
    val writer = new TimelineWriter(storage, table.metaPath)
    val files = writer.stateFiles().filter(i => plan.map(_.timestamp).contains(i.timestamp))
    ArchivedTimeline.append(storage, ArchivedTimeline.folder(table),
      files.map(i => ArchivedMetaEntry.of(i, writer.read(i), writer.path(i))))
    // The crash came after the pending files and the oldest completed one were deleted.
    files.filterNot(_.isCompleted).foreach(writer.deleteArchived)
    writer.deleteArchived(files.filter(_.isCompleted).minBy(_.timestamp))
    val interrupted = table.reload()
    assert(interrupted.timeline.completedWrites.size == 9, "the rest still reads as completed")
    assert(interrupted.timeline.instants.forall(_.isCompleted))

    val finished = ArchiveTransaction.archive(interrupted, Config)
    assert(finished.map(_.timestamp) == plan.map(_.timestamp).tail)
    val records = entries(table)
    val recorded = records.flatMap(ArchivedMetaEntry.instantOf)
    assert(recorded.distinct == recorded)
    assert(recorded.toSet == files.toSet)
    assert(table.reload().timeline.completedWrites.size == 3)
    assert(ArchiveTransaction.archive(table.reload(), Config).isEmpty)
    assert(ArchivedTimeline.files(storage, ArchivedTimeline.folder(table)).size == 1)
  }

  test("repeated archivals write one file each, with increasing versions") {
    val table = extended(8)
    ArchiveTransaction.archive(table, Config)
    val writer = new TimelineWriter(storage, table.metaPath)
    val json = writer.read(table.reload().timeline.completedWrites.last)
    (1 to 3).foreach { i =>
      val t = f"2025012608$i%02d00000"
      writer.requested(t, Action.DeltaCommit)
      writer.complete(t, Action.DeltaCommit, json)
    }
    val second = ArchiveTransaction.archive(table.reload(), Config)
    assert(second.map(_.state).distinct == Seq(State.Completed) && second.size == 3)
    assert(ArchivedTimeline.files(storage, ArchivedTimeline.folder(table)).map(_._1) == Seq(1, 2))
    assert(ArchivedTimeline.instants(storage, ArchivedTimeline.folder(table)).count(_.isCompleted) == 11)
  }

  test("a replacecommit whose replaced file group still has files holds archival back") {
    val table = copyOf("cow/v6_simplekeygen_nonhivestyle_overwritetable")
    val replace = table.timeline.completedWrites.find(_.action == Action.ReplaceCommit).get
    assert(ArchivePlanner.limits(table).replacedLeftovers == Set(replace.timestamp))
  }

  test("a pending compaction holds archival back, and its plan stays") {
    val table = extended(8)
    // A compaction scheduled between the third and the fourth added delta commit, as an async
    // compaction of Apache Hudi leaves it while later writes go on.
    val plan = io.pyhudi.services.compaction.CompactionPlanner.plan(table).get
    val pending = "20250126070350000"
    val writer = new TimelineWriter(storage, table.metaPath)
    val planBytes = plan.toBytes
    writer.requested(pending, Action.Compaction, planBytes)
    val withPending = table.reload()
    val archived = ArchiveTransaction.archive(withPending, Config)
    assert(archived.nonEmpty && archived.forall(_.timestamp < pending))
    assert(archived.count(i => Action.Writes(i.action)) == 5, "the corpus's two and the first three added")
    val left = table.reload().timeline
    assert(left.instants.head == Instant(pending, Action.Compaction, State.Requested))
    assert(left.completedWrites.head.timestamp == "20250126070400000")
    assert(writer.read(Instant(pending, Action.Compaction, State.Requested)).sameElements(planBytes))
  }
}
