// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import io.pyhudi.table.TableType

/**
 * The route a write's records take, decided from what its operation declares
 * ([[WriteOperation]]), the table type and the index: the engine runs the route's jobs and
 * never looks at the operation's name.
 */
sealed trait WritePath

object WritePath {

  /** The routes that write the input's rows: every one but [[DropPartitions]]. */
  sealed trait WritesRecords extends WritePath

  /** No input rows: the commit retires the named partitions' file groups (delete_partition). */
  case object DropPartitions extends WritePath

  /**
   * Each task writes its rows into new file groups, one per partition path, sorted by the
   * configured sort mode: no index lookup and no plan (bulk_insert without the bucket index).
   */
  case object BulkInsert extends WritesRecords

  /**
   * The commit retires the file groups of `scope` and the rows go to new file groups: planned
   * by size, or the input's buckets when `bucketed` (insert_overwrite, insert_overwrite_table).
   */
  final case class Overwrite(scope: ReplaceScope, bucketed: Boolean) extends WritesRecords

  /**
   * Bucket index: a key's file group follows from its hash, so there is no lookup; a bucket's
   * file group takes its rows in place, never rolled over to a new group.
   *
   * @param appendsLogs merge-on-read: existing groups get a log file, not a new base file
   */
  final case class Buckets(appendsLogs: Boolean) extends WritesRecords

  /**
   * Rows are tagged with the file group holding their key (when `lookup`), then planned: updates
   * go to their group, inserts fill small file groups (when `packsSmallFiles`) and new ones.
   *
   * @param allPartitions the index is global: stored keys of every partition are looked at
   * @param appendsLogs   merge-on-read: updated groups get a log file, and only base files
   *                      without log files take small-file inserts
   */
  final case class Indexed(lookup: Boolean, packsSmallFiles: Boolean, allPartitions: Boolean,
      appendsLogs: Boolean) extends WritesRecords

  /**
   * @param bucketIndex the table's index is the bucket index
   * @param globalIndex the index looks keys up across partitions
   */
  def of(op: WriteOperation, tableType: TableType, bucketIndex: Boolean, globalIndex: Boolean): WritePath = {
    val mergeOnRead = tableType == TableType.MergeOnRead
    if (!op.readsInput) DropPartitions
    else if (op.isReplace) Overwrite(op.replaces, bucketIndex)
    else if (bucketIndex) Buckets(appendsLogs = mergeOnRead)
    else if (op.onlyCreatesFileGroups) BulkInsert
    else Indexed(lookup = op.usesIndex, packsSmallFiles = op.packsSmallFiles, allPartitions = globalIndex,
      appendsLogs = mergeOnRead)
  }

  /** The route of a resolved write. */
  def of(spec: WriteSpec): WritePath = of(spec.operation, spec.tableType, spec.isBucketIndex, spec.isGlobalIndex)
}
