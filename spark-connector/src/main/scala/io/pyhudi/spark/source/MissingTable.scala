// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import java.util

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability}
import org.apache.spark.sql.connector.read.ScanBuilder
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * Stands for a table a first write is about to create: Spark asks for a table object before it
 * falls back to our V1 write path. Reading it fails with the error that opening it gave.
 */
final class MissingTable(tableSchema: StructType, cause: Exception) extends Table with SupportsRead {
  override def name(): String = "pyhudi (no table yet)"
  override def schema(): StructType = tableSchema
  override def capabilities(): util.Set[TableCapability] = Set(TableCapability.BATCH_READ).asJava
  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = throw cause
}
