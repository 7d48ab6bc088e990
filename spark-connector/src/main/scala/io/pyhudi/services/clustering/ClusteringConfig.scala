// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clustering

import java.util.regex.Pattern

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors

/**
 * What a clustering plans and writes, from the `hoodie.clustering.plan.strategy.*` options.
 *
 * @param partitions partition paths to consider, None for all
 * @param partitionPattern a regular expression a partition path must match entirely
 */
final case class ClusteringConfig(
    sortColumns: Seq[String] = Nil,
    targetFileMaxBytes: Long = 1073741824L,
    smallFileLimit: Long = 314572800L,
    maxNumGroups: Int = 30,
    maxBytesPerGroup: Long = 2147483648L,
    partitions: Option[Seq[String]] = None,
    partitionPattern: Option[Pattern] = None) {

  def selects(partitionPath: String): Boolean =
    partitions.forall(_.contains(partitionPath)) && partitionPattern.forall(_.matcher(partitionPath).matches())

  /**
   * Fails naming the first sort column that is not one of `dataColumns` (the table's columns
   * without meta columns), before anything is written.
   */
  def checkSortColumns(dataColumns: Seq[String]): Unit =
    sortColumns.find(c => !dataColumns.contains(c)).foreach { c =>
      throw Errors.invalidOption(WriteConfig.ClusteringSortColumns.key, sortColumns.mkString(","),
        s"the table has no column '$c' (columns: ${dataColumns.mkString(", ")})")
    }
}

object ClusteringConfig {

  def from(options: Map[String, String]): ClusteringConfig = ClusteringConfig(
    WriteConfig.ClusteringSortColumns.from(options).getOrElse(Nil),
    WriteConfig.ClusteringTargetFileMaxBytes.from(options).get,
    WriteConfig.ClusteringSmallFileLimit.from(options).get,
    WriteConfig.ClusteringMaxNumGroups.from(options).get,
    WriteConfig.ClusteringMaxBytesPerGroup.from(options).get,
    WriteConfig.ClusteringPartitionSelected.from(options).filter(_.nonEmpty),
    WriteConfig.ClusteringPartitionRegex.from(options))
}
