// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import io.pyhudi.table.TableConfig

/**
 * Maps a relative partition path back to the raw string value of each partition column, for
 * partition pruning. Timestamp-based key generators format the path from a column, so their
 * folders do not equal column values and are never pruned.
 */
object PartitionValues {
  val HiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__"

  /** Column → raw value (None for null), or None when the path cannot be mapped to columns. */
  def parse(config: TableConfig, partitionPath: String): Option[Map[String, Option[String]]] = {
    val fields = config.partitionFields
    if (fields.isEmpty || config.isTimestampKeyGen) return None
    val segments = partitionPath.split('/').toSeq
    if (segments.size != fields.size) return None
    val raws = segments.zip(fields).map { case (seg, field) =>
      if (!config.hiveStylePartitioning) Some(seg)
      else {
        val eq = seg.indexOf('=')
        if (eq < 0 || seg.substring(0, eq) != field) None else Some(seg.substring(eq + 1))
      }
    }
    if (raws.exists(_.isEmpty)) None
    else Some(fields.zip(raws.flatten).map { case (field, raw) =>
      val decoded = if (config.urlEncodePartitioning) PartitionPathEncoding.unescape(raw) else raw
      field -> (if (decoded == HiveDefaultPartition) None else Some(decoded))
    }.toMap)
  }
}
