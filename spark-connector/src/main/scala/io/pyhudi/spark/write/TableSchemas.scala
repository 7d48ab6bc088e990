// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Cast
import org.apache.spark.sql.types.StructType

import io.pyhudi.avro.{AvroSchemaConverter, SparkToAvro}
import io.pyhudi.errors.Errors
import io.pyhudi.filegroup.BaseFile
import io.pyhudi.schema.{MetaFields, TableSchemaResolver}
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.table.HoodieTable
import io.pyhudi.write.{WriteOperation, WriteSpec}

/** The data schema a write produces, and reading stored base files in the table schema. */
object TableSchemas {

  /** Spark types as Hudi reads them back after its Avro round trip (bytes and shorts as ints). */
  def normalise(schema: StructType): StructType =
    AvroSchemaConverter.toStructType(SparkToAvro.tableSchema(schema, "t"))

  /**
   * The table's data columns after this write: the [[stored]] ones (input types must cast safely to
   * them) followed by columns the input adds. Every stored column must be in the input, except
   * for deletes, which need only the key columns, and a `partial`-column write.
   */
  def resolve(basePath: String, storedColumns: Option[StructType], input: StructType, spec: WriteSpec,
      partial: Boolean = false): StructType = {
    val incoming = normalise(input)
    storedColumns match {
      case None => incoming
      case Some(stored) =>
        val keysOnly = spec.operation == WriteOperation.Delete || spec.operation == WriteOperation.DeletePartition
        val missing = stored.fieldNames.filterNot(input.fieldNames.contains)
        if (missing.nonEmpty && !keysOnly && !partial) throw Errors.missingColumns(basePath, missing.toSeq)
        stored.fields.foreach { f =>
          input.find(_.name == f.name).foreach { in =>
            val t = incoming(f.name).dataType
            if (t != f.dataType && !Cast.canUpCast(in.dataType, f.dataType))
              throw Errors.incompatibleColumn(basePath, f.name, in.dataType.simpleString, f.dataType.simpleString)
          }
        }
        val added = if (keysOnly) Nil else incoming.fields.filterNot(f => stored.fieldNames.contains(f.name)).toSeq
        StructType(stored.fields ++ added)
    }
  }

  /** The table's stored data columns (meta columns left out), None for a table without a commit. */
  def stored(existing: Option[HoodieTable]): Option[StructType] =
    existing.filter(_.timeline.completedWrites.nonEmpty).orElse(existing).map { table =>
      StructType(TableSchemaResolver.resolve(table).fields.filterNot(f => MetaFields.isMeta(f.name)))
    }

  /** Reads a stored base file in the full table schema (columns it lacks read as null). */
  def baseReader(
      spark: SparkSession, tableSchema: StructType, conf: Configuration): BaseFile => Iterator[InternalRow] = {
    val reader = ParquetReaderShim.buildReader(spark, tableSchema, tableSchema, Nil, returningBatch = false, conf)
    (b: BaseFile) => reader(ParquetReaderShim.partitionedFile(b.path, 0L, b.size, b.size))
  }
}
