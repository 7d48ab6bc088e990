// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.write.Location

class LocationJoinSuite extends AnyFunSuite {

  private val f1 = Location("p", "f1")
  private val f2 = Location("p", "f2")

  test("a record whose key was found gets its location, the others None, in the records' order") {
    val records = Iterator(("p", "k3") -> "r3", ("p", "k1") -> "r1", ("p", "k2") -> "r2")
    val found = Iterator(("p", "k1") -> f1, ("p", "k3") -> f2)
    assert(LocationJoin.leftOuter(records, found).toList ==
      List("r3" -> Some(f2), "r1" -> Some(f1), "r2" -> None))
  }

  test("the lookup key decides: the same key in another partition is not a match") {
    val records = Iterator(("p", "k") -> "r", ("q", "k") -> "s")
    assert(LocationJoin.leftOuter(records, Iterator(("q", "k") -> f1)).toList == List("r" -> None, "s" -> Some(f1)))
  }

  test("a key found in two file groups gives its record once per location, as a join does") {
    val out = LocationJoin.leftOuter(Iterator(("", "k") -> "r"), Iterator(("", "k") -> f1, ("", "k") -> f2)).toList
    assert(out == List("r" -> Some(f1), "r" -> Some(f2)))
  }

  test("records repeated (no de-duplication) each get the location; nothing found, nothing empty") {
    val records = Iterator(("p", "k") -> "a", ("p", "k") -> "b")
    assert(LocationJoin.leftOuter(records, Iterator(("p", "k") -> f1)).toList == List("a" -> Some(f1), "b" -> Some(f1)))
    assert(LocationJoin.leftOuter(Iterator.empty[((String, String), String)], Iterator(("p", "k") -> f1)).isEmpty)
    assert(LocationJoin.leftOuter(Iterator(("p", "k") -> "a"), Iterator.empty[((String, String), Location)]).toList ==
      List("a" -> None))
  }
}
