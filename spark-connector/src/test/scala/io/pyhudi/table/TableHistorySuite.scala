// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.ObjectMapper
import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.testutil.Corpus
import io.pyhudi.timeline.{Action, Instant, State}

/** History rows and file-group summaries on every corpus table, checked against its expected file. */
class TableHistorySuite extends AnyFunSuite {

  private val mapper = new ObjectMapper()

  private def open(name: String): HoodieTable =
    HoodieTable.open(Corpus.extract(name).getAbsolutePath, new Configuration())

  private val tables = Corpus.tables("cow") ++ Corpus.tables("mor")

  test("the completed instants of the history are the table's completed instants, with their actions") {
    tables.foreach { name =>
      val expected = mapper.readTree(Corpus.expected(name).get).get("completed_instants").elements().asScala
        .map(p => (p.get(0).asText, p.get(1).asText)).toSeq
      val history = TableHistory.entries(open(name))
      val completed = history.filter(_.state == "completed").map(e => (e.instant, e.action))
      assert(completed.filter(c => Action.Writes(c._2)) == expected.filter(c => Action.Writes(c._2)), name)
      history.filter(_.state == "completed").foreach { e =>
        assert(e.completedAt.isDefined && e.startedAt.isDefined && e.durationMs.exists(_ >= 0), s"$name ${e.instant}")
      }
    }
  }

  test("row counts add up the commit metadata of each completed write") {
    tables.foreach { name =>
      val table = open(name)
      TableHistory.entries(table).filter(e => e.state == "completed" && Action.Writes(e.action)).foreach { e =>
        val stats = table.commitMetadata(Instant(e.instant, e.action, State.Completed)).writeStats
          .filter(_.path.isDefined)
        assert(e.rowsInserted == stats.map(_.numInserts).sum, s"$name ${e.instant}")
        assert(e.rowsUpdated == stats.map(_.numUpdateWrites).sum, s"$name ${e.instant}")
        assert(e.rowsDeleted == stats.map(_.numDeletes).sum, s"$name ${e.instant}")
        assert(e.filesWritten == stats.size && e.bytesWritten == stats.map(_.totalWriteBytes).sum)
        assert(e.operation.isDefined, s"$name ${e.instant}: a completed write has an operation")
      }
    }
  }

  test("pending instants have no operation and no completion time") {
    val i = Instant("20250101000000000", Action.Commit, State.Inflight)
    val e = TableHistory.entry(i, None, Some(5L), None)
    assert(e.state == "inflight" && e.operation.isEmpty && e.durationMs.isEmpty && e.rowsInserted == 0)
    val clean =
      TableHistory.entry(Instant("20250101000000001", Action.Clean, State.Completed), None, Some(1L), Some(4L))
    assert(clean.operation.contains("clean") && clean.durationMs.contains(3L))
  }

  test("file groups hold every record of the latest snapshot, each group once") {
    tables.foreach { name =>
      val groups = FileGroupSummary.of(open(name))
      assert(groups.map(g => (g.partition, g.fileId)).distinct.size == groups.size, name)
      val ids = groups.map(g => (g.partition, g.fileId)).toSet
      val rows = mapper.readTree(Corpus.expected(name).get).get("snapshot").elements().asScala.toSeq
      rows.filter(_.has("_hoodie_file_name")).foreach { r =>
        val file = r.get("_hoodie_file_name").asText
        val fileId = if (file.startsWith(".")) file.drop(1).takeWhile(_ != '_') else file.takeWhile(_ != '_')
        val partition = r.get("_hoodie_partition_path").asText
        assert(ids.contains((partition, fileId)), s"$name: $partition/$file is in no listed file group")
      }
      groups.foreach { g =>
        assert(g.slices >= 1 && g.totalSize == g.baseSize + g.logSize && (g.baseFile.isDefined || g.logFiles > 0))
      }
    }
  }
}
