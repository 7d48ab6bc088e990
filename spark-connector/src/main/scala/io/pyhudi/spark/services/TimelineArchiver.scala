// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.services

import io.pyhudi.config.WriteConfig
import io.pyhudi.services.archive.{ArchiveConfig, ArchiveTransaction}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.Instant
import io.pyhudi.transaction.ConcurrencyConfig

/**
 * Archival from the Spark entry points. It reads a few timeline files and writes one archive
 * file, so it runs on the driver, no job needed.
 */
object TimelineArchiver {

  /** Archives now; returns the instants moved to the archived timeline, oldest first. */
  def archive(table: HoodieTable, options: Map[String, String]): Seq[Instant] =
    ArchiveTransaction.archive(table, ArchiveConfig.from(options), ConcurrencyConfig.from(options))

  /** After a write or compaction (and its clean): archive when `hoodie.archive.automatic` is on. */
  def afterCommit(table: HoodieTable, options: Map[String, String]): Seq[Instant] =
    if (WriteConfig.ArchiveAutomatic.from(options).get) archive(table, options) else Nil
}
