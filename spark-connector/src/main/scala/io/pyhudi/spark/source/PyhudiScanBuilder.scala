// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.read.{Scan, ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns}
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.StructType

import io.pyhudi.read.{QuerySpec, ScanPlanner}
import io.pyhudi.services.savepoint.Savepoints
import io.pyhudi.spark.expr.PartitionFilters

/**
 * Collects pushed filters and the pruned columns, then plans the scan on the driver. Every
 * filter is also handed back to Spark: partition pruning and parquet row-group skipping only
 * narrow what is read, Spark still evaluates each filter on the rows.
 */
final class PyhudiScanBuilder(table: PyhudiTable, options: Map[String, String])
    extends ScanBuilder with SupportsPushDownFilters with SupportsPushDownRequiredColumns {

  private var filters: Array[Filter] = Array.empty
  private var required: StructType = table.schema()

  override def pushFilters(pushed: Array[Filter]): Array[Filter] = {
    filters = pushed
    pushed
  }

  override def pushedFilters(): Array[Filter] = filters

  override def pruneColumns(requiredSchema: StructType): Unit = required = requiredSchema

  override def build(): Scan = {
    val hoodie = table.hoodie
    val parsed = QuerySpec.fromOptions(options)
    val spec = parsed.copy(asOf = Savepoints.resolveAsOf(hoodie, parsed.asOf))
    val pruning = new PartitionFilters(hoodie.config, table.schema(), filters.toSeq)
    val plan = ScanPlanner.plan(hoodie, spec, pruning.keep)
    new PyhudiScan(SparkSession.active, table, spec, plan, required, filters.toSeq,
      pruning.partitionOnly, options)
  }
}
