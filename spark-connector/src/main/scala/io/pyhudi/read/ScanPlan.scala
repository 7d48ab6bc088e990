// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import io.pyhudi.filegroup.FileSlice

/**
 * The outcome of planning: the instant the query reads at, the slices to read, and counts for
 * `explain()`.
 *
 * @param instant            the as-of instant (None when the table has no completed write)
 * @param incrementalRange   (begin exclusive, end inclusive) for incremental queries
 * @param slices             slices to read; read-optimized queries carry no log files
 * @param partitionsTotal    partitions considered before pruning
 * @param partitionsRead     partitions left after pruning
 */
final case class ScanPlan(
    instant: Option[String],
    incrementalRange: Option[(String, String)],
    slices: Seq[FileSlice],
    partitionsTotal: Int,
    partitionsRead: Int)
