// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import java.io.File
import java.nio.file.Files

import com.fasterxml.jackson.databind.ObjectMapper
import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, LogFile}
import io.pyhudi.storage.Storage
import io.pyhudi.table.HoodieTable
import io.pyhudi.testutil.Corpus
import io.pyhudi.timeline.{CommitMetadata, RuntimeStats, WriteStat}
import io.pyhudi.write.handle.HandleResult

/**
 * The write stats of every committing path come from [[WriteStats]]: a handle's result and a
 * compacted slice give the stats, and the bytes, that Apache Hudi writes for the same files.
 */
class WriteStatsSuite extends AnyFunSuite {

  private val storage = new Storage(new Configuration())
  private val mapper = new ObjectMapper()

  /**
   * The result a write handle reports for the file a Hudi stat names, rebuilt from the files on
   * disk: the group's previous slice from the table's listing, sizes from the file system. Only
   * the counters and the task time, which only the writing task knew, come from the stat.
   */
  private def handleResult(table: HoodieTable, instant: String, s: WriteStat): HandleResult = {
    val relative = s.path.get
    val dir = if (s.partitionPath.isEmpty) table.basePath else s"${table.basePath}/${s.partitionPath}"
    val size = storage.fileSize(s"${table.basePath}/$relative")
    val name = relative.substring(relative.lastIndexOf('/') + 1)
    val bases = storage.listFiles(dir).flatMap(f => BaseFile.parse(f.path, f.size))
    val time = s.runtimeStats.map(r => r.totalUpsertTime + r.totalCreateTime).getOrElse(0L)
    LogFile.parse(name, size) match {
      case Some(log) =>
        val base = bases.find(b => b.fileId == log.fileId && b.instant == log.baseInstant)
        HandleResult(s.partitionPath, log.fileId, relative, Some(log.baseInstant), s.numWrites, s.numInserts,
          s.numUpdateWrites, s.numDeletes, size, "", "", time, base.map(_.name).orElse(Some("")), Seq(name),
          Some(log.version))
      case None =>
        val written = BaseFile.parse(name, size).get
        val previous = bases.filter(b => b.fileId == written.fileId && b.instant < instant).map(_.instant).maxOption
        HandleResult(s.partitionPath, written.fileId, relative, previous, s.numWrites, s.numInserts,
          s.numUpdateWrites, s.numDeletes, size, "", "", time)
    }
  }

  for (name <- Seq("mor/v6_trips_8i1u", "cow/v6_simplekeygen_nonhivestyle", "cow/v6_nonpartitioned")) {
    test(s"handle results give the stats and commit bytes Hudi wrote: $name") {
      val table = HoodieTable.open(Corpus.extract(name).getPath, storage)
      val writes = table.timeline.completedWrites
      assert(writes.nonEmpty)
      writes.foreach { instant =>
        val file = new File(instant.fileName)
        val original = storage.readAll(s"${table.metaPath}/${instant.fileName}")
        val hudi = CommitMetadata.parse(original)
        val built = hudi.writeStats.map(s => WriteStats.written(handleResult(table, instant.timestamp, s)))
        assert(built == hudi.writeStats, file.getName)
        assert(java.util.Arrays.equals(hudi.copy(writeStats = built).toJson, original), file.getName)
      }
      val stats = writes.flatMap(i => table.commitMetadata(i).writeStats)
      assert(stats.exists(_.prevCommit.isEmpty) && stats.exists(_.prevCommit.isDefined)) // new and existing groups
    }
  }

  test("a log append is a delta stat of its slice: base file, the log it wrote, upsert time") {
    val stat = WriteStats.written(HandleResult("p", "f-0", "p/.f-0_1.log.2_0-1-0", Some("1"), 3, 0, 2, 1, 500,
        "", "", 40, Some("f-0_0-1-0_1.parquet"), Seq(".f-0_1.log.2_0-1-0"), Some(2)))
    assert(stat.isLogStat && stat.logVersion.contains(2) && stat.prevCommit.contains("1"))
    assert(stat.baseFile.contains("f-0_0-1-0_1.parquet") && stat.logFiles == Seq(".f-0_1.log.2_0-1-0"))
    assert((stat.numWrites, stat.numUpdateWrites, stat.numInserts, stat.numDeletes) == (3L, 2L, 0L, 1L))
    assert((stat.totalWriteBytes, stat.fileSizeInBytes) == (500L, 500L))
    assert(stat.runtimeStats.contains(RuntimeStats(0, 40, 0)))
    val json =
      mapper.readTree(CommitMetadata(Seq(stat), Map.empty, Map.empty, Some("UPSERT"), compacted = false).toJson)
        .get("partitionToWriteStats").get("p").get(0)
    assert(json.get("logVersion").asInt == 2 && json.get("logFiles").size == 1 && !json.has("prevBaseFile"))
  }

  test("a compacted slice: new base file, prevCommit and prevBaseFile of the slice, its log figures") {
    val table = HoodieTable.open(Corpus.extract("mor/v6_trips_8i1u").getPath, storage)
    val partition = "city=san_francisco"
    val dir = storage.listFiles(s"${table.basePath}/$partition")
    val base = dir.flatMap(f => BaseFile.parse(f.path, f.size)).head
    val logs = dir.flatMap(f => LogFile.parse(f.path, f.size)).filter(_.fileId == base.fileId).sorted
    assert(logs.nonEmpty)
    val slice = FileSlice(FileGroupId(partition, base.fileId), base.instant, Some(base), logs)
    val instant = "20250401000000000"
    val output = BaseFile(s"${table.basePath}/$partition/${base.fileId}_0-1-0_$instant.parquet", base.fileId,
      "0-1-0", instant, 4242L)
    val counts = CompactionCounts(numWrites = 5, numUpdateWrites = 1, totalLogRecords = 2,
      totalUpdatedRecordsCompacted = 1, totalLogBlocks = 1, scanTimeMillis = 7, writeTimeMillis = 9)
    val stat = WriteStats.compacted(table.basePath, slice, output, counts)
    assert(stat.path.contains(s"$partition/${output.name}") && stat.fileId == base.fileId)
    assert(stat.partitionPath == partition && !stat.isLogStat)
    assert(stat.prevCommit.contains(base.instant) && stat.prevBaseFile.contains(base.name))
    assert((stat.numWrites, stat.numUpdateWrites, stat.numInserts, stat.numDeletes) == (5L, 1L, 0L, 0L))
    assert((stat.totalWriteBytes, stat.fileSizeInBytes) == (4242L, 4242L))
    assert(stat.totalLogFilesCompacted == logs.size && stat.totalLogSizeCompacted == logs.map(_.size).sum)
    assert((stat.totalLogRecords, stat.totalUpdatedRecordsCompacted, stat.totalLogBlocks) == (2L, 1L, 1L))
    assert(stat.runtimeStats.contains(RuntimeStats(7, 9, 0)))
    val logOnly = WriteStats.compacted(table.basePath, slice.copy(baseFile = None), output, counts)
    assert(logOnly.prevBaseFile.isEmpty && logOnly.prevCommit.contains(base.instant))

    val m = CommitMetadata(Seq(stat), Map.empty, Map("schema" -> "{}"), Some("COMPACT"), compacted = true)
    assert(CommitMetadata.parse(m.toJson) == m)
    val json = mapper.readTree(m.toJson).get("partitionToWriteStats").get(partition).get(0)
    assert(json.get("prevBaseFile").asText == base.name && !json.has("logVersion"))
  }

  test("workload profile reproduces the inflight file Hudi wrote") {
    val table = Corpus.extract("mor/v6_nonpartitioned_rollback")
    val original = Files.readAllBytes(new File(table, ".hoodie/20250126060846931.deltacommit.inflight").toPath)
    val profile = Commits.workloadProfile("UPSERT", Map("" -> 0L),
      Seq(PlannedUpdate("", "0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0", "20250126040823628", 1)))
    assert(mapper.readTree(profile.toJson) == mapper.readTree(original))
    assert(java.util.Arrays.equals(profile.toJson, original))
  }
}
