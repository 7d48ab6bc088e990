// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import java.util.Locale

import io.pyhudi.errors.Errors

/** How bulk_insert orders records before writing them (`hoodie.bulkinsert.sort.mode`). */
sealed abstract class BulkInsertSortMode(val name: String) extends Serializable {
  override def toString: String = name
}

object BulkInsertSortMode {

  /** Input partitions are written as they come. */
  case object None extends BulkInsertSortMode("NONE")

  /** All records sorted by partition path and key: tight key ranges for later lookups. */
  case object GlobalSort extends BulkInsertSortMode("GLOBAL_SORT")

  /** Each input partition sorted by partition path and key. */
  case object PartitionSort extends BulkInsertSortMode("PARTITION_SORT")

  val All: Seq[BulkInsertSortMode] = Seq(None, GlobalSort, PartitionSort)

  def parse(key: String, value: String): BulkInsertSortMode = {
    val v = value.trim.toUpperCase(Locale.ROOT)
    All.find(_.name == v).getOrElse(throw Errors.invalidEnumOption(key, value, All.map(_.name)))
  }
}
