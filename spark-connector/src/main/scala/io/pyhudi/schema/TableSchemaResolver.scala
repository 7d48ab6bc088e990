// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.schema

import org.apache.spark.sql.types.StructType

import io.pyhudi.avro.AvroSchemaConverter
import io.pyhudi.errors.{Errors, PyhudiException}
import io.pyhudi.table.{HoodieTable, TableConfig}

/**
 * The Spark schema of a table: the writer schema of the newest completed write that recorded
 * one (`extraMetadata.schema`), else the schema the table was created with. Meta columns come
 * first when the table populates them, as Apache Hudi returns them.
 */
object TableSchemaResolver {

  def resolve(table: HoodieTable): StructType = {
    val fromCommits = table.timeline.completedWrites.reverseIterator
      .flatMap(i => table.commitMetadata(i).schema)
      .nextOption()
    val avroJson = fromCommits.orElse(table.config.createSchema).getOrElse(
      throw Errors.missingTableProperty(table.basePath, TableConfig.CreateSchema))
    val data =
      try AvroSchemaConverter.toStructType(AvroSchemaConverter.parse(avroJson))
      catch {
        case e: PyhudiException => throw e
        case e: Exception => throw Errors.corruptFile(s"${table.metaPath}",
            s"the table schema cannot be parsed (${e.getMessage})", e)
      }
    withMetaFields(data, table.config.populateMetaFields)
  }

  /** Puts the meta columns first (or drops them for tables that do not populate them). */
  def withMetaFields(data: StructType, populateMetaFields: Boolean): StructType = {
    val dataOnly = StructType(data.fields.filterNot(f => MetaFields.isMeta(f.name)))
    if (populateMetaFields) StructType(MetaFields.Schema.fields ++ dataOnly.fields) else dataOnly
  }
}
