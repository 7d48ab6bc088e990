// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import scala.jdk.CollectionConverters._

import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

class KeySetSuite extends AnyFunSuite {

  private def utf8(s: String) = UTF8String.fromString(s)

  test("holds exactly its keys, whatever their length, and answers keys read out of larger buffers") {
    val keys = (0 until 5000).map(i => s"key-${i * 7}") ++ Seq("", "a", "12345678", "123456789", "ü-ñ-€" * 5)
    val set = new KeySet(keys.map(utf8).asJava)
    assert(set.size == keys.size && !set.isEmpty)
    keys.foreach(k => assert(set.contains(utf8(k)), k))
    (0 until 35000).filter(_ % 7 != 0).foreach(i => assert(!set.contains(utf8(s"key-$i")), i))
    Seq("b", "1234567", "1234567890", "key-", "key-00").foreach(k => assert(!set.contains(utf8(k)), k))
    // A stored key as a reader hands it out: a view into a page of other bytes.
    val page = "xxkey-14yy".getBytes("UTF-8")
    assert(set.contains(UTF8String.fromBytes(page, 2, 6)))
    assert(!set.contains(UTF8String.fromBytes(page, 2, 5)))
  }

  test("duplicates count once; an empty set holds nothing") {
    val set = new KeySet(Seq("a", "b", "a").map(utf8).asJava)
    assert(set.size == 2)
    val empty = new KeySet(java.util.Collections.emptyList[UTF8String]())
    assert(empty.isEmpty && empty.size == 0 && !empty.contains(utf8("a")))
  }
}
