// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.compaction

import java.nio.file.{Files, Path}

import org.apache.hadoop.conf.Configuration

import io.pyhudi.filegroup.BaseFile
import io.pyhudi.read.{QuerySpec, QueryType, ScanPlan, ScanPlanner}
import io.pyhudi.storage.Storage
import io.pyhudi.table.HoodieTable
import io.pyhudi.testutil.{Corpus, TempDirs}
import io.pyhudi.timeline.WriteStat
import io.pyhudi.write.commit.{CompactionCounts, IOType, WriteStats}

/** Private copies of corpus tables and a stand-in executor that copies base file bytes. */
object CompactionFixtures {

  val storage = new Storage(new Configuration())

  val TripsBase = "20250331030642808"
  val TripsLatest = "20250331030645735"
  val TripsPartition = "city=san_francisco"
  val TripsFileId = "d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0"
  val TripsBaseName = s"${TripsFileId}_0-13-60_$TripsBase.parquet"
  val TripsLogName = s".${TripsFileId}_$TripsBase.log.1_0-26-85"

  /** A fresh copy of a corpus table (the extracted corpus is shared by the whole JVM), opened. */
  def copyOf(name: String): HoodieTable = {
    val source = Corpus.extract(name).toPath
    val target = TempDirs.create("pyhudi-compaction").resolve(source.getFileName)
    val stream = Files.walk(source)
    try stream.forEach { (p: Path) =>
        val out = target.resolve(source.relativize(p).toString)
        if (Files.isDirectory(p)) Files.createDirectories(out) else Files.copy(p, out)
      }
    finally stream.close()
    HoodieTable.open(target.toString, storage)
  }

  /** The writer schema of the table's latest completed write. */
  def schemaOf(table: HoodieTable): String =
    table.commitMetadata(table.timeline.latestCompletedWrite.get).schema.get

  /**
   * Executes compaction `instant` as an executor would, except that each new base file is a
   * byte copy of the old one (slice selection is under test, not merged content).
   */
  def runCompaction(table: HoodieTable, instant: String, token: String = "0-1-0"): Seq[WriteStat] = {
    val (_, plan) = CompactionTransaction.pendingCompactions(table).find(_._1 == instant).get
    plan.operations.get.map { op =>
      val slice = CompactionOperations.toFileSlice(table, instant, op)
      val name = CompactionOperations.outputFileName(slice.groupId.fileId, token, instant)
      CompactionTransaction.markers(table, instant).create(slice.groupId.partitionPath, name, IOType.Merge)
      val path = s"${table.basePath}/${slice.groupId.partitionPath}/$name"
      val bytes = storage.readAll(slice.baseFile.get.path)
      storage.create(path, bytes)
      val output = BaseFile.parse(path, bytes.length.toLong).get
      WriteStats.compacted(table.basePath, slice, output,
        CompactionCounts(numWrites = 2, numUpdateWrites = 1, totalLogRecords = 1, totalUpdatedRecordsCompacted = 1,
          totalLogBlocks = 1))
    }
  }

  /** Schedules, starts, executes and commits a compaction of `table`'s current plan. */
  def compact(table: HoodieTable): String = {
    val t = CompactionTransaction.schedule(table, CompactionPlanner.plan(table).get)
    CompactionTransaction.start(table, t)
    CompactionTransaction.commit(table, t, runCompaction(table, t), schemaOf(table))
    t
  }

  def scan(table: HoodieTable, queryType: QueryType = QueryType.Snapshot, asOf: Option[String] = None): ScanPlan =
    ScanPlanner.plan(table.reload(), QuerySpec(queryType, asOf, None, None), _ => true)

  def metaFiles(table: HoodieTable): Seq[String] = storage.listFiles(table.metaPath).map(_.name).sorted
}
