// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bucket

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{ErrorId, InvalidRecordException, PyhudiException}

class BucketIdentifierSuite extends AnyFunSuite {

  import BucketIdentifier._

  test("simple key: List(k).hashCode = 31 * 1 + k.hashCode") {
    assert("a".hashCode == 97)
    // [a] → 31*1 + 97 = 128
    assert(bucketId("a", Seq("id"), 1000) == 128)
    assert(bucketId("a", Seq("id"), 10) == 8) // 128 % 10
    // "ab" → 97*31 + 98 = 3105; [ab] → 31 + 3105 = 3136
    assert("ab".hashCode == 3105)
    assert(bucketId("ab", Seq("id"), 100) == 36)
  }

  test("the sign bit is cleared before the modulo") {
    // "polygenelubricants".hashCode == Int.MinValue; [it] → 31 + MinValue = -2147483617
    assert("polygenelubricants".hashCode == Int.MinValue)
    // -2147483617 & 0x7fffffff = 31
    assert(bucketId("polygenelubricants", Seq("id"), 1000) == 31)
    // a 36-character UUID key overflows several times; the result is still in range
    assert((0 until 8).contains(bucketId("334e26e9-8355-45cc-97c6-c31daf0df330", Seq("uuid"), 8)))
  }

  test("complex key: values taken in hash-field order, not key order") {
    // "1".hashCode = 49; "Alice".hashCode = (((65*31 + 108)*31 + 105)*31 + 99)*31 + 101 = 63350368
    assert("1".hashCode == 49 && "Alice".hashCode == 63350368)
    assert(hashValues("id:1,name:Alice", Seq("id", "name")) == Seq("1", "Alice"))
    assert(hashValues("id:1,name:Alice", Seq("name", "id")) == Seq("Alice", "1"))
    // [1, Alice] → (31*1 + 49)*31 + 63350368 = 2480 + 63350368 = 63352848
    assert(bucketId("id:1,name:Alice", Seq("id", "name"), 1000) == 848)
    // [Alice, 1] → (31*1 + 63350368)*31 + 49 = 1963862369 + 49 = 1963862418
    assert(bucketId("id:1,name:Alice", Seq("name", "id"), 1000) == 418)
    // one hash field out of two: [Alice] → 31 + 63350368 = 63350399
    assert(bucketId("id:1,name:Alice", Seq("name"), 100) == 99)
  }

  test("complex key edge cases follow Java's split and map lookup") {
    // a hash field missing from the key hashes as null: [null] → 31*1 + 0
    assert(bucketId("id:1", Seq("other"), 1000) == 31)
    // a value with its own ':' is cut there, as Java's split(":") leaves it
    assert(hashValues("ts:10:30,id:7", Seq("ts", "id")) == Seq("10", "7"))
    assert(intercept[InvalidRecordException](bucketId("id:", Seq("id"), 4)).error == ErrorId.RecordKeyPartWithoutValue)
    assert(intercept[PyhudiException](bucketId("a", Seq("id"), 0)).error == ErrorId.InternalError)
  }

  test("file id prefix and bucket round trip") {
    assert(fileIdPrefix(3) == "00000003")
    assert(fileIdPrefix(12345678) == "12345678")
    for (bucket <- Seq(0, 3, 255, 99999999)) {
      val fileId = newFileId(bucket)
      assert(fileId.length == 38 && fileId.endsWith("-0"), fileId)
      assert(fileId.startsWith(fileIdPrefix(bucket)))
      assert(fileId.matches("\\d{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-0"), fileId)
      assert(bucketOf(fileId).contains(bucket))
    }
    assert(bucketOf("d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0").isEmpty)
    assert(bucketOf("0000001").isEmpty)
  }
}
