// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.MissingFileException
import io.pyhudi.filegroup.{FileGroupId, PartitionMetafile}
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.timeline.{Action, CommitMetadata}
import io.pyhudi.write.commit.{Commits, IOType, WriteTransaction}
import io.pyhudi.write.commit.WriteFixtures._
import io.pyhudi.write.plan.TableFiles

/** The missing-file check as the read planner and the writer's file listing apply it, on real tables. */
class MissingFilesPlanningSuite extends AnyFunSuite {

  /** One file group rewritten by two commits; returns the table, both instants and the second base file. */
  private def twoCommits(): (HoodieTable, String, String, String) = {
    var table = createTable(TableType.CopyOnWrite)
    val fileId = newFileId()
    val written = (1 to 2).map { i =>
      val tx = new WriteTransaction(table, Action.Commit, "UPSERT")
      tx.start(Commits.workloadProfile("UPSERT", Map("" -> 1L)))
      val name = s"${fileId}_0-$i-0_${tx.instantTime}.parquet"
      tx.markers.create("", name, IOType.Create)
      PartitionMetafile.ensure(storage, table.basePath, "", tx.instantTime)
      tx.commit(Seq(writeBaseFile(table, fileId, s"0-$i-0", tx.instantTime)), Extra)
      table = table.reload()
      tx.instantTime -> name
    }
    (table, written(0)._1, written(1)._1, written(1)._2)
  }

  private def plan(table: HoodieTable, spec: QuerySpec): ScanPlan = ScanPlanner.plan(table.reload(), spec, _ => true)

  test("reads fail naming the file and its instant, or skip it without falling back to the older slice") {
    val (table, t1, t2, latest) = twoCommits()
    assert(plan(table, QuerySpec(QueryType.Snapshot, None, None, None)).slices.map(_.baseInstant) == Seq(t2))
    assert(local(table, latest).delete())
    val e = intercept[MissingFileException](plan(table, QuerySpec(QueryType.Snapshot, None, None, None)))
    assert(e.getMessage.contains(s"${table.basePath}/$latest, written by completed instant $t2"), e.getMessage)
    intercept[MissingFileException](plan(table, QuerySpec(QueryType.Incremental, None, Some(t1), None)))
    assert(plan(table, QuerySpec(QueryType.Snapshot, None, None, None, MissingFilesMode.Skip)).slices.isEmpty)
    assert(plan(table, QuerySpec(QueryType.Snapshot, Some(t1), None, None)).slices.map(_.baseInstant) == Seq(t1))
  }

  test("the writer's view of the table fails too, unless the write replaces the group") {
    val (table, _, _, latest) = twoCommits()
    assert(local(table, latest).delete())
    val e = intercept[MissingFileException](TableFiles.load(table.reload(), None))
    assert(e.getMessage.contains(latest) && e.getMessage.contains("this write"))
    val files = TableFiles.load(table.reload(), None, toReplace = true)
    assert(files.lost.map(_.fileId) == Set(latest.takeWhile(_ != '_')))
    assert(files.lost.forall(_ == FileGroupId("", latest.takeWhile(_ != '_'))))
  }
}
