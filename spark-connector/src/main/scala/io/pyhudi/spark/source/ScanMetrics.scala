// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.spark.sql.connector.metric.{CustomMetric, CustomSumMetric, CustomTaskMetric}

/** The scan's counts in the Spark UI, summed over its tasks. */
object ScanMetrics {

  def all: Array[CustomMetric] = Array(new FooterPartitionValuesMetric, new PatchedBatchesMetric)

  /** A task's value of the metric named `name`. */
  def task(name: String, count: Long): CustomTaskMetric = {
    val n = name
    new CustomTaskMetric {
      override def name(): String = n
      override def value(): Long = count
    }
  }
}

/** Base files whose partition columns came from footer statistics ([[PartitionValuesReader]]). */
final class FooterPartitionValuesMetric extends CustomSumMetric {
  override def name(): String = FooterPartitionValuesMetric.Name
  override def description(): String = "base files read with partition values from footer statistics"
}

object FooterPartitionValuesMetric {
  val Name = "footerPartitionValueFiles"
}

/** Merged batches whose log rows were written over their base rows ([[MergedBatches]]). */
final class PatchedBatchesMetric extends CustomSumMetric {
  override def name(): String = PatchedBatchesMetric.Name
  override def description(): String = "merge-on-read batches with log rows written in place"
}

object PatchedBatchesMetric {
  val Name = "mergedBatchesInPlace"
}
