// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{ErrorId, PyhudiException}
import io.pyhudi.write.Location

class TagResolutionSuite extends AnyFunSuite {

  private val here = Location("2024/01", "f1")
  private val elsewhere = Location("2023/12", "f0")

  test("partitioned indexes join on (partition, key), global ones on the key alone") {
    assert(TagResolution.lookupKey(isGlobal = false, "p", "k") == ("p", "k"))
    assert(TagResolution.lookupKey(isGlobal = true, "p", "k") == ("", "k"))
  }

  test("not found is an insert, found in the record's partition an update, for every index type") {
    IndexType.All.foreach { t =>
      assert(TagResolution.resolve(t, "2024/01", None, updatePartitionPath = true) == Tag.Insert)
      assert(TagResolution.resolve(t, "2024/01", Some(here), updatePartitionPath = false) == Tag.Update(here))
    }
  }

  test("global indexes move a key found in another partition, or update it in place") {
    Seq(IndexType.GlobalBloom, IndexType.GlobalSimple).foreach { t =>
      assert(TagResolution.resolve(t, "2024/01", Some(elsewhere), updatePartitionPath = true) == Tag.Move(elsewhere))
      assert(TagResolution.resolve(t, "2024/01", Some(elsewhere), updatePartitionPath = false) ==
        Tag.UpdateInPlace(elsewhere))
    }
  }

  test("a partitioned index never reports a key in another partition") {
    val e = intercept[PyhudiException](
      TagResolution.resolve(IndexType.Bloom, "2024/01", Some(elsewhere), updatePartitionPath = true))
    assert(e.error == ErrorId.InternalError)
  }
}
