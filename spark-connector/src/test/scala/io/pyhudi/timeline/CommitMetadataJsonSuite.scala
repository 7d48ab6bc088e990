// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import java.io.File
import java.nio.file.Files

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.testutil.Corpus

/**
 * Commit metadata JSON written by [[CommitMetadata.toJson]] equals what Hudi wrote, for every
 * completed and inflight commit, deltacommit and replacecommit file of the corpus.
 */
class CommitMetadataJsonSuite extends AnyFunSuite {

  private val mapper = new ObjectMapper()

  /**
   * Stat fields Hudi writes that the model does not carry: toJson writes them as Hudi does when
   * unused (null, and `{"val": null}` for recordsStats). The test checks the corpus never uses them.
   */
  private val OmittedStatFields = Map(
    "tempPath" -> "null", "cdcStats" -> "null", "minEventTime" -> "null", "maxEventTime" -> "null",
    "recordsStats" -> """{"val":null}""")

  private def jsonFiles(table: File): Seq[File] =
    Option(new File(table, ".hoodie").listFiles()).toSeq.flatten.filter { f =>
      Instant.fromFileName(f.getName).exists { i =>
        Action.Writes(i.action) && i.state != State.Requested
      }
    }.sortBy(_.getName)

  private lazy val corpusFiles: Seq[(String, File)] =
    (Corpus.tables("cow") ++ Corpus.tables("mor")).flatMap(t => jsonFiles(Corpus.extract(t)).map(t -> _))

  test("the corpus has completed and inflight files of all three write actions") {
    val kinds = corpusFiles.flatMap { case (_, f) => Instant.fromFileName(f.getName) }
      .map(i => (i.action, i.state)).toSet
    assert(kinds == Set((Action.Commit, State.Completed), (Action.Commit, State.Inflight),
      (Action.DeltaCommit, State.Completed), (Action.DeltaCommit, State.Inflight),
      (Action.ReplaceCommit, State.Completed), (Action.ReplaceCommit, State.Inflight)))
    assert(corpusFiles.size >= 50)
  }

  test("every corpus commit JSON parses and serializes to the same JSON tree") {
    val mismatches = corpusFiles.flatMap { case (table, f) =>
      val original = Files.readAllBytes(f.toPath)
      val written = CommitMetadata.parse(original).toJson
      val (a, b) = (mapper.readTree(original), mapper.readTree(written))
      if (a == b) None else Some(s"$table/${f.getName}:\n${diff(a, b, "").mkString("\n")}")
    }
    assert(mismatches.isEmpty, mismatches.mkString("\n\n"))
  }

  test("fields the model omits are unused in the corpus") {
    val values = for {
      (_, f) <- corpusFiles
      stats <- mapper.readTree(f).get("partitionToWriteStats").elements().asScala
      stat <- stats.elements().asScala
      (name, expected) <- OmittedStatFields
      node <- Option(stat.get(name))
    } yield (name, node.toString, expected)
    assert(values.nonEmpty)
    values.foreach { case (name, actual, expected) => assert(actual == expected, name) }
  }

  test("output is Hudi's pretty printing: byte-identical where Hudi's map order cannot differ") {
    // Hudi writes partitions and extraMetadata in hash-map order; with at most one of each the
    // bytes must match exactly.
    val candidates = corpusFiles.map { case (t, f) => (t, f, Files.readAllBytes(f.toPath)) }.filter { case (_, _, b) =>
      val m = CommitMetadata.parse(b)
      m.writeStats.map(_.partitionPath).distinct.size <= 1 && m.extraMetadata.size <= 1
    }
    assert(candidates.size >= 15)
    candidates.foreach { case (t, f, original) =>
      assert(java.util.Arrays.equals(original, CommitMetadata.parse(original).toJson), s"$t/${f.getName}")
    }
  }

  test("log stats keep their delta fields; new groups write prevCommit \"null\"") {
    val table = Corpus.extract("mor/v6_nonpartitioned_rollback")
    val m = CommitMetadata.parse(Files.readAllBytes(new File(table, ".hoodie/20250126060846931.deltacommit").toPath))
    val s = m.writeStats.head
    assert(s.isLogStat && s.logVersion.contains(3) && s.logFiles.size == 3)
    assert(s.baseFile.contains("0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_0-13-23_20250126040823628.parquet"))
    assert(s.runtimeStats.contains(RuntimeStats(0, 462, 0)))
    val fresh = mapper.readTree(CommitMetadata(Seq(WriteStat("p", "f", Some("p/f.parquet"))), Map.empty,
        Map.empty, Some("INSERT"), compacted = false).toJson)
    val stat = fresh.get("partitionToWriteStats").get("p").get(0)
    assert(stat.get("prevCommit").asText == "null" && !stat.has("logVersion") && !stat.has("prevBaseFile"))
    assert(stat.get("partitionPath").asText == "p" && stat.get("tempPath").isNull)
    assert(!fresh.has("partitionToReplaceFileIds"))
  }

  test("replace metadata writes partitionToReplaceFileIds even when empty") {
    val m = CommitMetadata(Nil, Map.empty, Map("schema" -> "{}"), Some("INSERT_OVERWRITE"),
      compacted = false, replaceCommit = true)
    val tree = mapper.readTree(m.toJson)
    assert(tree.get("partitionToReplaceFileIds").isObject && tree.get("partitionToReplaceFileIds").isEmpty)
    assert(CommitMetadata.parse(m.toJson).replaceCommit)
  }

  test("compaction stats carry prevBaseFile and the compaction counters") {
    val s = WriteStat("p", "f", Some("p/f_0-1-0_2.parquet"), Some("1"), prevBaseFile = Some("f_0-1-0_1.parquet"),
      totalLogFilesCompacted = 2, totalLogRecords = 5, totalLogSizeCompacted = 99,
      totalUpdatedRecordsCompacted = 3, totalLogBlocks = 2, runtimeStats = Some(RuntimeStats(1, 2, 3)))
    val m = CommitMetadata(Seq(s), Map.empty, Map("schema" -> "{}"), Some("COMPACT"), compacted = true)
    assert(CommitMetadata.parse(m.toJson) == m)
  }

  /** Paths and values where two JSON trees differ. */
  private def diff(a: JsonNode, b: JsonNode, at: String): Seq[String] =
    if (a == b) Nil
    else if (a != null && b != null && a.isObject && b.isObject) {
      val names = (a.fieldNames().asScala ++ b.fieldNames().asScala).toSeq.distinct
      names.flatMap(n => diff(a.get(n), b.get(n), s"$at/$n"))
    } else if (a != null && b != null && a.isArray && b.isArray && a.size == b.size) {
      (0 until a.size).flatMap(i => diff(a.get(i), b.get(i), s"$at[$i]"))
    } else Seq(s"  $at: Hudi ${String.valueOf(a).take(120)} / pyhudi ${String.valueOf(b).take(120)}")
}
