// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.functions.col

import io.pyhudi.write.WriteSpec

/** The input of a one-pass bulk_insert ([[WriteSpec.bulkInsertInOnePass]]). */
private[write] object BulkInsertInput {

  /**
   * The input sorted within each Spark partition by the columns the partition path is made of,
   * so equal paths are adjacent. Spark's sort spills to disk, as in its own partitioned writes;
   * a non-partitioned table needs no order.
   */
  def clustered(df: DataFrame, spec: WriteSpec): DataFrame =
    if (spec.partitionColumns.isEmpty) df else df.sortWithinPartitions(spec.partitionColumns.map(col): _*)
}
