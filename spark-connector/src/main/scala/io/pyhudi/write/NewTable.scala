// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import org.apache.spark.sql.types.StructType

import io.pyhudi.avro.SparkToAvro
import io.pyhudi.table.TableConfig

/** The `hoodie.properties` a first write creates the table with. */
object NewTable {

  /**
   * The table config of a table created by a write of `spec` with data columns `data`.
   *
   * @param options the write's options: timestamp key generator settings in them are persisted
   */
  def properties(spec: WriteSpec, data: StructType, options: Map[String, String]): Map[String, String] = {
    val kg = spec.keyGen
    Map(
      TableConfig.Name -> spec.tableName,
      TableConfig.Type -> spec.tableType.name,
      TableConfig.RecordKeyFields -> kg.recordKeyFields.mkString(","),
      TableConfig.KeyGeneratorClass -> kg.generator.className,
      TableConfig.HiveStylePartitioning -> kg.hiveStyle.toString,
      TableConfig.UrlEncodePartitioning -> kg.urlEncode.toString,
      TableConfig.DropPartitionColumns -> "false",
      TableConfig.CreateSchema -> SparkToAvro.tableSchema(data, spec.tableName).toString,
      TableConfig.PayloadClass -> spec.payloadClass,
      TableConfig.RecordMergerStrategy -> TableConfig.DefaultRecordMergerStrategy,
      TableConfig.TimelineTimezone -> "UTC") ++
      (if (kg.partitionFields.isEmpty) Map.empty
       else Map(TableConfig.PartitionFields -> kg.partitionFields.mkString(","))) ++
      spec.precombineField.map(TableConfig.PrecombineField -> _) ++
      spec.databaseName.map(TableConfig.DatabaseName -> _) ++
      keyGenProperties(options)
  }

  /** Key generator settings a table keeps: the timestamp-based generator's `hoodie.keygen.timebased.*`. */
  def keyGenProperties(options: Map[String, String]): Map[String, String] =
    options.filter(_._1.startsWith(io.pyhudi.config.WriteConfig.TimebasedKeyGenPrefix))
}
