// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import java.util

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability}
import org.apache.spark.sql.connector.read.ScanBuilder
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import io.pyhudi.read.QuerySpec
import io.pyhudi.schema.TableSchemaResolver
import io.pyhudi.services.savepoint.Savepoints
import io.pyhudi.table.HoodieTable

/**
 * A Hudi table as Spark sees it. Options are validated here so that a bad query type or
 * instant fails at `load()`, before any planning.
 */
final class PyhudiTable private (
    val hoodie: HoodieTable,
    val spec: QuerySpec,
    options: Map[String, String],
    tableSchema: StructType) extends Table with SupportsRead {

  override def name(): String = s"${hoodie.config.name} (${hoodie.basePath})"

  override def schema(): StructType = tableSchema

  override def capabilities(): util.Set[TableCapability] =
    Set(TableCapability.BATCH_READ).asJava

  override def properties(): util.Map[String, String] = hoodie.config.props.asJava

  override def newScanBuilder(scanOptions: CaseInsensitiveStringMap): ScanBuilder =
    new PyhudiScanBuilder(this, options ++ scanOptions.asCaseSensitiveMap().asScala)
}

object PyhudiTable {
  def open(path: String, options: Map[String, String], conf: Configuration): PyhudiTable = {
    val parsed = QuerySpec.fromOptions(options)
    val hoodie = HoodieTable.open(path, conf)
    val spec = parsed.copy(asOf = Savepoints.resolveAsOf(hoodie, parsed.asOf))
    new PyhudiTable(hoodie, spec, options, TableSchemaResolver.resolve(hoodie))
  }
}
