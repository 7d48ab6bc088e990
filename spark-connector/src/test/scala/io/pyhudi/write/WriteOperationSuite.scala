// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.table.TableType
import io.pyhudi.timeline.Action

/** What each operation needs from the write path, as Apache Hudi defines the operations. */
class WriteOperationSuite extends AnyFunSuite {
  import WriteOperation._

  test("index lookups: upsert and delete only") {
    assert(All.filter(_.usesIndex) == Seq(Upsert, Delete))
  }

  test("small-file packing: upsert, insert and delete; bulk_insert and overwrites open new file groups") {
    assert(All.filter(_.packsSmallFiles) == Seq(Upsert, Insert, Delete))
  }

  test("replaced file groups and actions") {
    assert(All.map(o => o -> o.replaces).toMap == Map(
      Upsert -> ReplaceScope.NoFileGroups, Insert -> ReplaceScope.NoFileGroups, BulkInsert -> ReplaceScope.NoFileGroups,
      Delete -> ReplaceScope.NoFileGroups, InsertOverwrite -> ReplaceScope.InputPartitions,
      InsertOverwriteTable -> ReplaceScope.Table, DeletePartition -> ReplaceScope.NamedPartitions))
    All.foreach { o =>
      val (cow, mor) = (o.action(TableType.CopyOnWrite), o.action(TableType.MergeOnRead))
      if (o.isReplace) assert(cow == Action.ReplaceCommit && mor == Action.ReplaceCommit, o)
      else assert(cow == Action.Commit && mor == Action.DeltaCommit, o)
    }
    assert(All.filterNot(_.readsInput) == Seq(DeletePartition))
  }

  test("option values parse case-insensitively and name Hudi's metadata operation types") {
    All.foreach(o => assert(parse(o.value.toUpperCase + " ").contains(o) && o.metadataName == o.value.toUpperCase))
    assert(parse("merge").isEmpty)
  }
}
