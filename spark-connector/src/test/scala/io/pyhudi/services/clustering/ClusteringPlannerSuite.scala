// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clustering

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.InvalidOptionException
import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, FileSystemView, LogFile, PartitionLister}
import io.pyhudi.services.compaction.CompactionFixtures.copyOf
import io.pyhudi.table.HoodieTable

/** Which slices a clustering plan takes and how it groups them (no SparkSession). */
class ClusteringPlannerSuite extends AnyFunSuite {

  private def slice(id: String, base: Long, logs: Long*): FileSlice = {
    val g = FileGroupId("p", id)
    val b = if (base < 0) None else Some(BaseFile(s"/t/p/${id}_0-1-0_001.parquet", id, "0-1-0", "001", base))
    val ls = logs.zipWithIndex.map { case (s, i) => LogFile.parse(s"/t/p/.${id}_001.log.${i + 1}_0-1-0", s).get }
    FileSlice(g, "001", b, ls)
  }

  test("groups take slices largest first until the next would pass max.bytes.per.group") {
    val config = ClusteringConfig(maxBytesPerGroup = 100)
    val slices = Seq(slice("a", 10), slice("b", 60), slice("c", 30), slice("d", 50), slice("e", 5))
    // In size order b, d, c, a, e: d does not fit beside b, so b stays alone and the rest fill d's group.
    val sorted = ClusteringPlanner.formGroups(slices, config.copy(sortColumns = Seq("x"))).map(_.map(_.groupId.fileId))
    assert(sorted == Seq(Seq("b"), Seq("d", "c", "a", "e")))
    assert(sorted.flatten.sorted == slices.map(_.groupId.fileId).sorted, "every slice exactly once")
    assert(ClusteringPlanner.formGroups(slices, config).map(_.map(_.groupId.fileId)) == Seq(Seq("d", "c", "a", "e")),
      "without sort columns a group of one slice is not rewritten")
    assert(ClusteringPlanner.formGroups(slices, config.copy(maxBytesPerGroup = 1000)).map(_.size) == Seq(5))
  }

  test("merge-on-read slices count base plus logs; a log-only slice counts its logs") {
    val config = ClusteringConfig(maxBytesPerGroup = 100)
    val slices = Seq(slice("a", 40, 30), slice("b", -1, 20, 20), slice("c", 45))
    assert(ClusteringPlanner.size(slices.head) == 70 && ClusteringPlanner.size(slices(1)) == 40)
    assert(ClusteringPlanner.formGroups(slices, config).map(_.map(_.groupId.fileId)) == Seq(Seq("c", "b")),
      "a (70) leaves no room for c (45); its single-slice group is dropped without sort columns")
    assert(ClusteringPlanner.formGroups(slices, config.copy(sortColumns = Seq("x"))).map(_.size) == Seq(1, 2))
  }

  test("output file groups: the group's bytes over the target file size, rounded up, at least 1") {
    assert(ClusteringPlanner.outputGroups(Seq(slice("a", 10), slice("b", 10)), 100) == 1)
    assert(ClusteringPlanner.outputGroups(Seq(slice("a", 100)), 100) == 1)
    assert(ClusteringPlanner.outputGroups(Seq(slice("a", 101)), 100) == 2)
    assert(ClusteringPlanner.outputGroups(Seq(slice("a", 0)), 100) == 1)
  }

  test("options: Hudi's defaults, validated values, partition selection") {
    val d = ClusteringConfig.from(Map.empty)
    assert(d == ClusteringConfig())
    assert(d.targetFileMaxBytes == 1024L * 1024 * 1024 && d.smallFileLimit == 300L * 1024 * 1024)
    assert(!WriteConfig.ClusteringInline.from(Map.empty).get && WriteConfig.ClusteringInlineMaxCommits.from(Map.empty)
      .contains(4))
    val c = ClusteringConfig.from(Map(WriteConfig.ClusteringSortColumns.key -> " city , ts ",
        WriteConfig.ClusteringPartitionSelected.key -> "a,b",
        WriteConfig.ClusteringPartitionRegex.key -> "[ab]"))
    assert(c.sortColumns == Seq("city", "ts"))
    assert(c.selects("a") && !c.selects("c") && !c.selects("ab"))
    Seq(WriteConfig.ClusteringTargetFileMaxBytes, WriteConfig.ClusteringSmallFileLimit,
      WriteConfig.ClusteringMaxBytesPerGroup, WriteConfig.ClusteringMaxNumGroups).foreach { e =>
      val err = intercept[InvalidOptionException](ClusteringConfig.from(Map(e.key -> "0")))
      assert(err.getMessage.contains(e.key))
    }
    val regex =
      intercept[InvalidOptionException](ClusteringConfig.from(Map(WriteConfig.ClusteringPartitionRegex.key -> "(")))
    assert(regex.getMessage.contains(WriteConfig.ClusteringPartitionRegex.key))
  }

  test("an unknown sort column is named in the error") {
    val err = intercept[InvalidOptionException](
      ClusteringConfig(sortColumns = Seq("city", "nope")).checkSortColumns(Seq("city", "ts")))
    assert(err.getMessage.contains("'nope'") && err.getMessage.contains(WriteConfig.ClusteringSortColumns.key))
    ClusteringConfig(sortColumns = Seq("ts")).checkSortColumns(Seq("city", "ts"))
  }

  private def latestSlices(table: HoodieTable): Seq[FileSlice] = {
    val asOf = table.timeline.latestCompletedWrite.get.timestamp
    val replaced = FileSystemView.replacedFileGroups(table.timeline, asOf, table.commitMetadata)
    new FileSystemView(table.timeline, PartitionLister.list(table.storage, table.basePath), asOf, replaced).latestSlices
  }

  test("a corpus table: every small latest slice of the selected partitions once, grouped per partition") {
    val table = copyOf("cow/v6_simplekeygen_nonhivestyle")
    val all = latestSlices(table)
    val config = ClusteringConfig(sortColumns = Seq("x"))
    val plan = ClusteringPlanner.plan(table, config).get
    assert(ClusteringSlices.groupIds(plan).sortBy(_.toString) == all.map(_.groupId).sortBy(_.toString))
    plan.groups.foreach { g =>
      assert(g.slices.get.map(_.partitionPath).distinct.size == 1, "a group never spans partitions")
      assert(g.numOutputFileGroups.contains(1) && g.version.contains(1))
      assert(g.metrics.get.keySet == Set("TOTAL_IO_READ_MB", "TOTAL_IO_WRITE_MB", "TOTAL_IO_MB",
        "TOTAL_LOG_FILE_SIZE", "TOTAL_LOG_FILES"))
      g.slices.get.foreach(s => assert(s.dataFilePath.get.startsWith(table.basePath), "full paths, as Hudi 0.x"))
    }
    assert(plan.strategy.get.strategyClassName.contains(ClusteringPlanner.ExecutionStrategyClass))
    assert(plan.strategy.get.strategyParams.contains(Map(WriteConfig.ClusteringSortColumns.key -> "x")))
    assert(plan.preserveHoodieMetadata.contains(true))

    val one = all.head.groupId.partitionPath
    val selected = ClusteringPlanner.plan(table, config.copy(partitions = Some(Seq(one)))).get
    assert(ClusteringSlices.groupIds(selected).map(_.partitionPath).toSet == Set(one))
    assert(ClusteringPlanner.plan(table, config.copy(smallFileLimit = 1)).isEmpty, "no base file is under 1 byte")
    assert(ClusteringPlanner.plan(table, config.copy(maxNumGroups = 1)).get.groups.size == 1)
  }
}
