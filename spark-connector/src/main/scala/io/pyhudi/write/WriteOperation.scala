// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import io.pyhudi.table.TableType
import io.pyhudi.timeline.Action

/** Which existing file groups an operation's commit retires. */
sealed trait ReplaceScope
object ReplaceScope {

  /** The operation adds and merges; it retires no file group. */
  case object NoFileGroups extends ReplaceScope

  /** Every file group of the partitions the input holds rows for (insert_overwrite). */
  case object InputPartitions extends ReplaceScope

  /** Every file group of the table (insert_overwrite_table, Overwrite save mode). */
  case object Table extends ReplaceScope

  /** Every file group of the partitions named by `hoodie.datasource.write.partitions.to.delete`. */
  case object NamedPartitions extends ReplaceScope
}

/**
 * Apache Hudi's write operations, by their option value and commit-metadata name, each stating
 * what it needs from the write path; the writer asks these, never the operation's name.
 *
 * @param usesIndex      looks up existing keys (updates and deletes find their file group)
 * @param packsSmallFiles inserts fill the partition's small file groups before opening new ones
 * @param replaces       the file groups its commit retires (a replacecommit unless NoFileGroups)
 * @param readsInput     writes the input's rows (delete_partition writes none)
 */
sealed abstract class WriteOperation(val value: String, val metadataName: String, val usesIndex: Boolean,
    val packsSmallFiles: Boolean, val replaces: ReplaceScope, val readsInput: Boolean) {
  // No default arguments here: they would live in the companion, whose `All` initializes these objects.

  /** Operations whose commit replaces file groups (a `replacecommit`). */
  def isReplace: Boolean = replaces != ReplaceScope.NoFileGroups

  /**
   * Writes its rows into new file groups only, with no lookup and no small-file packing (bulk_insert):
   * no existing file group is read or chosen.
   */
  def onlyCreatesFileGroups: Boolean = readsInput && !isReplace && !usesIndex && !packsSmallFiles

  /** The timeline action of its instant on a table of `tableType`. */
  def action(tableType: TableType): String =
    if (isReplace) Action.ReplaceCommit
    else if (tableType == TableType.MergeOnRead) Action.DeltaCommit
    else Action.Commit

  override def toString: String = value
}

object WriteOperation {
  import ReplaceScope._

  case object Upsert extends WriteOperation("upsert", "UPSERT", usesIndex = true, packsSmallFiles = true, NoFileGroups,
        readsInput = true)
  case object Insert extends WriteOperation("insert", "INSERT", usesIndex = false, packsSmallFiles = true, NoFileGroups,
        readsInput = true)
  case object BulkInsert extends WriteOperation("bulk_insert", "BULK_INSERT", usesIndex = false,
        packsSmallFiles = false, NoFileGroups, readsInput = true)
  case object Delete extends WriteOperation("delete", "DELETE", usesIndex = true, packsSmallFiles = true, NoFileGroups,
        readsInput = true)
  case object InsertOverwrite extends WriteOperation("insert_overwrite", "INSERT_OVERWRITE", usesIndex = false,
        packsSmallFiles = false, InputPartitions, readsInput = true)
  case object InsertOverwriteTable extends WriteOperation("insert_overwrite_table", "INSERT_OVERWRITE_TABLE",
        usesIndex = false, packsSmallFiles = false, Table, readsInput = true)
  case object DeletePartition extends WriteOperation("delete_partition", "DELETE_PARTITION", usesIndex = false,
        packsSmallFiles = false, NamedPartitions, readsInput = false)

  val All: Seq[WriteOperation] =
    Seq(Upsert, Insert, BulkInsert, Delete, InsertOverwrite, InsertOverwriteTable, DeletePartition)

  def parse(v: String): Option[WriteOperation] = All.find(_.value.equalsIgnoreCase(v.trim))
}
