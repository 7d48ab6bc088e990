// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import org.apache.spark.sql.types.{LongType, StringType, StructField, StructType}
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.InvalidOptionException
import io.pyhudi.table.{TableConfig, TableType}
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State}
import io.pyhudi.write.{PartialColumns, WriteSpec}

/** hoodie.write.conflict.granularity=COLUMN: which writes are partial, and when two of them conflict. */
class ColumnConflictSuite extends AnyFunSuite {

  private val stored = StructType(Seq("key", "part", "ts", "fare", "fare_ts", "tip", "tip_ts").map { n =>
    StructField(n, if (n.endsWith("ts")) LongType else StringType)
  })
  private val base = Map("hoodie.table.name" -> "t", "hoodie.datasource.write.recordkey.field" -> "key",
    "hoodie.datasource.write.partitionpath.field" -> "part", "hoodie.datasource.write.precombine.field" -> "ts",
    "hoodie.datasource.write.table.type" -> "MERGE_ON_READ", "hoodie.datasource.write.operation" -> "upsert",
    "hoodie.write.concurrency.mode" -> "OPTIMISTIC_CONCURRENCY_CONTROL",
    "hoodie.write.conflict.granularity" -> "COLUMN")
  private val tableConfig = TableConfig(Map("hoodie.table.name" -> "t", "hoodie.table.type" -> "MERGE_ON_READ",
      "hoodie.table.recordkey.fields" -> "key", "hoodie.table.partition.fields" -> "part",
      "hoodie.table.precombine.field" -> "ts"), "/t")

  private def input(names: String*): StructType = StructType(names.map(n => stored(n)))

  private def resolve(options: Map[String, String], in: StructType): Option[PartialColumns] = {
    val spec = WriteSpec.resolve(options, Some(tableConfig), in)
    PartialColumns.resolve("/t", Some(stored), in, spec, options)
  }

  test("an input without some table columns is a partial-column write of the columns it has") {
    val p =
      resolve(base + ("hoodie.write.partial.ordering.field" -> "fare_ts"), input("key", "part", "fare", "fare_ts"))
    assert(p == Some(PartialColumns(Seq("fare", "fare_ts"), Seq("key", "part"), Some("fare_ts"))))
    // The table's precombine field orders the group when the input has it; else nothing does.
    assert(resolve(base, input("key", "part", "ts", "tip")).get.orderingField == Some("ts"))
    assert(resolve(base, input("key", "part", "tip")).get.orderingField.isEmpty)
    // Every column, or FILE_GROUP granularity: a write of whole records.
    assert(resolve(base, stored).isEmpty)
  }

  test("a partial-column write is refused unless it is a merge-on-read upsert under OCC with COLUMN granularity") {
    val in = input("key", "part", "tip")
    def refused(options: Map[String, String], why: String): Unit = {
      val e = intercept[InvalidOptionException](resolve(options, in))
      assert(e.getMessage.contains("tip_ts") && e.getMessage.contains(why), e.getMessage)
    }
    refused(base + ("hoodie.write.concurrency.mode" -> "SINGLE_WRITER"), "OPTIMISTIC_CONCURRENCY_CONTROL")
    refused(base + ("hoodie.datasource.write.operation" -> "insert"), "only upserts")
    val e = intercept[InvalidOptionException](resolve(base + ("hoodie.write.partial.ordering.field" -> "tip_ts"), in))
    assert(e.getMessage.contains("hoodie.write.partial.ordering.field"), e.getMessage)
    val added = StructType(in.fields :+ StructField("extra", StringType))
    assert(intercept[InvalidOptionException](resolve(base, added)).getMessage.contains("extra"))
  }

  private def partial(columns: String*): CommitMetadata =
    CommitMetadata.Empty.copy(extraMetadata = Map(CommitMetadata.PartialColumnsKey -> columns.mkString(",")))
  private val delta = Instant("20261125000000000", Action.DeltaCommit, State.Completed)

  test("two partial-column delta commits conflict on a shared file group only when they share a column") {
    assert(ConcurrentFileWrites.disjointColumns(partial("fare", "fare_ts"), delta, partial("tip", "tip_ts")))
    assert(!ConcurrentFileWrites.disjointColumns(partial("fare", "ts"), delta, partial("tip", "ts")))
    // A write of whole records sets every column.
    assert(!ConcurrentFileWrites.disjointColumns(partial("fare"), delta, CommitMetadata.Empty))
    assert(!ConcurrentFileWrites.disjointColumns(CommitMetadata.Empty, delta, partial("fare")))
    // A compaction rewrites every column.
    val compaction = Instant(delta.timestamp, Action.Commit, State.Completed)
    assert(!ConcurrentFileWrites.disjointColumns(partial("fare"), compaction, partial("tip").copy(compacted = true)))
  }
}
