// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import org.apache.spark.sql.types.{LongType, StringType, StructField, StructType}
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.table.TableType

/** The route each of Apache Hudi's operations takes, per table type and index. */
class WritePathSuite extends AnyFunSuite {
  import WriteOperation._
  import WritePath.{BulkInsert => _, _}

  private def route(op: WriteOperation, tableType: TableType = TableType.CopyOnWrite, bucket: Boolean = false,
      global: Boolean = false): WritePath = WritePath.of(op, tableType, bucket, global)

  test("copy-on-write with a lookup index") {
    assert(route(Upsert) == Indexed(lookup = true, packsSmallFiles = true, allPartitions = false, appendsLogs = false))
    assert(route(Delete) == Indexed(lookup = true, packsSmallFiles = true, allPartitions = false, appendsLogs = false))
    assert(route(Insert) == Indexed(lookup = false, packsSmallFiles = true, allPartitions = false, appendsLogs = false))
    assert(route(BulkInsert) == WritePath.BulkInsert)
    assert(route(InsertOverwrite) == Overwrite(ReplaceScope.InputPartitions, bucketed = false))
    assert(route(InsertOverwriteTable) == Overwrite(ReplaceScope.Table, bucketed = false))
    assert(route(DeletePartition) == DropPartitions)
  }

  test("merge-on-read appends logs to existing groups; a global index looks at every partition") {
    assert(route(Upsert, TableType.MergeOnRead) ==
      Indexed(lookup = true, packsSmallFiles = true, allPartitions = false, appendsLogs = true))
    assert(route(Upsert, global = true) ==
      Indexed(lookup = true, packsSmallFiles = true, allPartitions = true, appendsLogs = false))
    assert(route(BulkInsert, TableType.MergeOnRead, global = true) == WritePath.BulkInsert)
    assert(route(InsertOverwrite, TableType.MergeOnRead) == Overwrite(ReplaceScope.InputPartitions, bucketed = false))
    assert(route(DeletePartition, TableType.MergeOnRead, bucket = true) == DropPartitions)
  }

  test("bucket index: every non-replacing operation, bulk_insert included, writes bucket file groups") {
    Seq(Upsert, Insert, BulkInsert, Delete).foreach { op =>
      assert(route(op, bucket = true) == Buckets(appendsLogs = false), op)
      assert(route(op, TableType.MergeOnRead, bucket = true) == Buckets(appendsLogs = true), op)
    }
    assert(route(InsertOverwriteTable, TableType.MergeOnRead, bucket = true) == Overwrite(ReplaceScope.Table,
      bucketed = true))
  }

  test("a resolved write spec takes the route of its operation, table type and index") {
    val schema = StructType(Seq(StructField("id", StringType), StructField("ts", LongType)))
    def spec(extra: (String, String)*): WriteSpec = WriteSpec.resolve(Map("hoodie.table.name" -> "t",
        "hoodie.datasource.write.recordkey.field" -> "id") ++ extra, None, schema)
    assert(WritePath.of(spec()) == route(Upsert))
    assert(WritePath.of(spec("hoodie.index.type" -> "GLOBAL_SIMPLE",
        "hoodie.datasource.write.table.type" -> "MERGE_ON_READ"))
      == route(Upsert, TableType.MergeOnRead, global = true))
    assert(WritePath.of(spec("hoodie.index.type" -> "BUCKET", "hoodie.datasource.write.operation" -> "bulk_insert"))
      == Buckets(appendsLogs = false))
  }

  test("bulk_insert runs in one pass unless it de-duplicates, sorts by key or collects new keys for OCC") {
    val schema = StructType(Seq(StructField("id", StringType), StructField("day", StringType)))
    def spec(extra: (String, String)*): WriteSpec = WriteSpec.resolve(Map("hoodie.table.name" -> "t",
        "hoodie.datasource.write.recordkey.field" -> "id", "hoodie.datasource.write.partitionpath.field" -> "day",
        "hoodie.datasource.write.operation" -> "bulk_insert") ++ extra, None, schema)
    assert(spec().bulkInsertInOnePass(optimistic = false))
    assert(spec().partitionColumns == Seq("day"))
    assert(!spec().bulkInsertInOnePass(optimistic = true))
    assert(!spec("hoodie.combine.before.insert" -> "true").bulkInsertInOnePass(optimistic = false))
    Seq("GLOBAL_SORT", "PARTITION_SORT").foreach { mode =>
      assert(!spec("hoodie.bulkinsert.sort.mode" -> mode).bulkInsertInOnePass(optimistic = false), mode)
    }
  }

  test("a bucket-index bulk_insert into a table without data is a one-pass load; with data it is planned") {
    val schema = StructType(Seq(StructField("id", StringType), StructField("day", StringType)))
    def spec(op: String, extra: (String, String)*): WriteSpec = WriteSpec.resolve(Map("hoodie.table.name" -> "t",
        "hoodie.datasource.write.recordkey.field" -> "id", "hoodie.datasource.write.partitionpath.field" -> "day",
        "hoodie.index.type" -> "BUCKET", "hoodie.datasource.write.operation" -> op) ++ extra, None, schema)
    assert(spec("bulk_insert").bucketLoadInOnePass(optimistic = false, tableHasData = false))
    assert(spec("bulk_insert", "hoodie.datasource.write.table.type" -> "MERGE_ON_READ")
        .bucketLoadInOnePass(optimistic = false, tableHasData = false))
    assert(!spec("bulk_insert").bucketLoadInOnePass(optimistic = false, tableHasData = true))
    assert(!spec("bulk_insert").bucketLoadInOnePass(optimistic = true, tableHasData = false))
    assert(!spec("bulk_insert", "hoodie.combine.before.insert" -> "true")
        .bucketLoadInOnePass(optimistic = false, tableHasData = false))
    assert(!spec("bulk_insert", "hoodie.bulkinsert.sort.mode" -> "GLOBAL_SORT")
        .bucketLoadInOnePass(optimistic = false, tableHasData = false))
    // operations that look keys up, pack small files or replace file groups take their own routes
    Seq("upsert", "insert", "delete", "insert_overwrite").foreach { op =>
      assert(!spec(op).bucketLoadInOnePass(optimistic = false, tableHasData = false), op)
    }
    // without the bucket index a bulk_insert has its own one-pass route
    assert(!spec("bulk_insert", "hoodie.index.type" -> "BLOOM").bucketLoadInOnePass(optimistic = false,
        tableHasData = false))
  }
}
