// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.table.TableHistory
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State}

class IndexLookupSuite extends AnyFunSuite {

  private val lookup = IndexLookup(IndexType.GlobalBloom, 1234L, 60L, 31L, 29L, 28L, 4000000L, 51000L,
    50010L, 50000L)

  test("the figures go through a commit's extraMetadata unchanged, for every index type") {
    IndexType.All.foreach { t =>
      val l = lookup.copy(indexType = t)
      val extra = l.toExtraMetadata
      assert(extra.keySet.forall(_.startsWith("pyhudi.index.")), extra.keySet)
      assert(IndexLookup.fromExtraMetadata(extra ++ Map("schema" -> "{}")).contains(l))
    }
  }

  test("a commit without the figures, or with figures this version cannot read, has none") {
    val extra = lookup.toExtraMetadata
    assert(IndexLookup.fromExtraMetadata(Map("schema" -> "{}")).isEmpty)
    assert(IndexLookup.fromExtraMetadata(extra - IndexLookup.TypeKey).isEmpty)
    assert(IndexLookup.fromExtraMetadata(extra.updated(IndexLookup.TypeKey, "RECORD_INDEX")).isEmpty)
    assert(IndexLookup.fromExtraMetadata(extra.updated(IndexLookup.FilesProbedKey, "many")).isEmpty)
    // A figure a later version no longer writes reads as 0.
    assert(IndexLookup.fromExtraMetadata(extra - IndexLookup.KeysReadKey).contains(lookup.copy(keysRead = 0L)))
  }

  test("history shows the lookup of the commit that recorded one") {
    val i = Instant("20250101000000000", Action.Commit, State.Completed)
    val meta = CommitMetadata.Empty.copy(extraMetadata = lookup.toExtraMetadata, operationType = Some("UPSERT"))
    assert(TableHistory.entry(i, Some(meta), Some(1L), Some(2L)).indexLookup.contains(lookup))
    assert(TableHistory.entry(i, Some(CommitMetadata.Empty), Some(1L), Some(2L)).indexLookup.isEmpty)
  }
}
