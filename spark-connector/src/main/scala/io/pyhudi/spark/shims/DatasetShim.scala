// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.shims

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.catalyst.InternalRow

/** Internal-row access to a DataFrame (no conversion to external rows). */
object DatasetShim {

  /** The DataFrame's rows as Catalyst rows; rows may be reused: copy before buffering. */
  def internalRows(df: DataFrame): RDD[InternalRow] =
    df.asInstanceOf[org.apache.spark.sql.classic.Dataset[Row]].queryExecution.toRdd
}
