// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import java.io.File
import java.nio.file.{Files, StandardCopyOption}
import java.util.UUID

import org.apache.hadoop.conf.Configuration

import io.pyhudi.read.{QuerySpec, QueryType, ScanPlan, ScanPlanner}
import io.pyhudi.storage.Storage
import io.pyhudi.table.{HoodieTable, TableConfig, TableCreator, TableType}
import io.pyhudi.testutil.{Corpus, TempDirs}
import io.pyhudi.timeline.{RuntimeStats, WriteStat}
import io.pyhudi.transaction.{ConcurrencyConfig, HeartbeatPolicy}

/** Small tables on local disk for write-path tests: created by TableCreator, data copied from the corpus. */
object WriteFixtures {

  val conf = new Configuration()
  val storage = new Storage(conf)

  val Schema: String =
    """{"type":"record","name":"t_record","namespace":"hoodie.t","fields":[""" +
      """{"name":"id","type":["null","int"],"default":null},{"name":"ts","type":["null","long"],"default":null}]}"""

  val Extra: Map[String, String] = Map("schema" -> Schema)

  /** Judges every heartbeat older than 1 ms dead: what a writer sees long after a crash. */
  val AfterCrash: ConcurrencyConfig = ConcurrencyConfig(HeartbeatPolicy(1L, 1), 10000L)

  /** Recovery as the next writer runs it once the crashed writer's heartbeat expired. */
  def recover(table: HoodieTable): Seq[String] = {
    Thread.sleep(5)
    WriteTransaction.rollbackFailedWrites(table, AfterCrash)
  }

  /** A new non-partitioned table of `tableType` in a fresh temp folder, opened. */
  def createTable(tableType: TableType): HoodieTable = {
    val base = TempDirs.create("pyhudi-write").resolve("t").toString
    TableCreator.create(storage, base,
      Map(
        TableConfig.Name -> "t",
        TableConfig.DatabaseName -> "default",
        TableConfig.Type -> tableType.name,
        TableConfig.RecordKeyFields -> "id",
        TableConfig.PrecombineField -> "ts",
        TableConfig.KeyGeneratorClass -> "org.apache.hudi.keygen.NonpartitionedKeyGenerator",
        TableConfig.HiveStylePartitioning -> "false",
        TableConfig.UrlEncodePartitioning -> "false",
        TableConfig.DropPartitionColumns -> "false",
        TableConfig.PayloadClass -> "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload",
        TableConfig.CreateSchema -> Schema))
    HoodieTable.open(base, conf)
  }

  /** A real parquet base file of the corpus; the planner never opens it. */
  private lazy val parquet: File =
    Corpus.filesUnder(Corpus.extract("cow/v6_nonpartitioned"), _.endsWith(".parquet")).head

  def newFileId(): String = s"${UUID.randomUUID()}-0"

  /** Copies a parquet file into the base path as `<fileId>_<token>_<instant>.parquet`; returns its stat. */
  def writeBaseFile(table: HoodieTable, fileId: String, token: String, instant: String): WriteStat = {
    val name = s"${fileId}_${token}_$instant.parquet"
    val target = new File(new java.net.URI(s"${table.basePath}/$name"))
    Files.copy(parquet.toPath, target.toPath, StandardCopyOption.REPLACE_EXISTING)
    WriteStat("", fileId, Some(name), numWrites = 1, numInserts = 1, totalWriteBytes = target.length(),
      fileSizeInBytes = target.length(), runtimeStats = Some(RuntimeStats(totalCreateTime = 1)))
  }

  def local(table: HoodieTable, relative: String): File = new File(new java.net.URI(s"${table.basePath}/$relative"))

  def snapshot(table: HoodieTable): ScanPlan =
    ScanPlanner.plan(table.reload(), QuerySpec(QueryType.Snapshot, None, None, None), _ => true)

  /** Names of the files in `.hoodie/` (folders excluded). */
  def metaFiles(table: HoodieTable): Seq[String] = storage.listFiles(table.metaPath).map(_.name).sorted
}
