// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.{LongType, StringType, StructField, StructType}
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.storage.Storage
import io.pyhudi.table.{HoodieTable, TableConfig, TableCreator}
import io.pyhudi.testutil.TempDirs

/** A table a first write creates: the next write, naming nothing, resolves the same settings. */
class NewTableSuite extends AnyFunSuite {

  private val storage = new Storage(new Configuration())
  private val schema = StructType(Seq(StructField("id", StringType), StructField("ts", LongType),
      StructField("day", LongType)))

  private def created(options: Map[String, String]): (WriteSpec, HoodieTable) = {
    val spec = WriteSpec.resolve(options, None, schema)
    val base = TempDirs.create("pyhudi-newtable").resolve("t").toString
    TableCreator.create(storage, base, NewTable.properties(spec, schema, options))
    (spec, HoodieTable.open(base, storage))
  }

  private def sameSettings(first: WriteSpec, next: WriteSpec): Unit = {
    assert(next.keyGen == first.keyGen)
    assert((next.tableName, next.tableType, next.precombineField, next.payloadClass) ==
      (first.tableName, first.tableType, first.precombineField, first.payloadClass))
  }

  test("partitioned merge-on-read table with an ordering field and a database") {
    val options = Map("hoodie.table.name" -> "trips", "hoodie.database.name" -> "db",
      "hoodie.datasource.write.table.type" -> "MERGE_ON_READ", "hoodie.datasource.write.recordkey.field" -> "id",
      "hoodie.datasource.write.partitionpath.field" -> "day", "hoodie.datasource.write.precombine.field" -> "ts",
      "hoodie.datasource.write.hive_style_partitioning" -> "true")
    val (spec, table) = created(options)
    val c = table.config
    assert(c.partitionFields == Seq("day") && c.precombineField.contains("ts") && c.hiveStylePartitioning)
    assert(c.get(TableConfig.DatabaseName).contains("db") && c.populateMetaFields)
    sameSettings(spec, WriteSpec.resolve(Map.empty, Some(c), schema))
  }

  test("the timestamp-based key generator keeps its settings in the table; other options stay out") {
    val options = Map("hoodie.table.name" -> "t", "hoodie.datasource.write.recordkey.field" -> "id",
      "hoodie.datasource.write.partitionpath.field" -> "day",
      "hoodie.datasource.write.keygenerator.type" -> "TIMESTAMP",
      "hoodie.keygen.timebased.timestamp.type" -> "EPOCHMILLISECONDS",
      "hoodie.keygen.timebased.output.dateformat" -> "yyyy/MM/dd", "hoodie.bloom.index.filter.type" -> "SIMPLE")
    assert(NewTable.keyGenProperties(options) == options.filter(_._1.startsWith("hoodie.keygen.timebased.")))
    val (spec, table) = created(options)
    assert(table.config.props.filter(_._1.startsWith("hoodie.keygen.timebased.")) == NewTable.keyGenProperties(options))
    assert(!table.config.props.contains("hoodie.bloom.index.filter.type"))
    assert(table.config.precombineField == spec.precombineField) // the default field, present in the input
    sameSettings(spec, WriteSpec.resolve(Map.empty, Some(table.config), schema))
  }
}
