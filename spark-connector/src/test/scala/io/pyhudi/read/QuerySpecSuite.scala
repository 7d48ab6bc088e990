// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.InvalidOptionException

class QuerySpecSuite extends AnyFunSuite {

  private val begin = "hoodie.datasource.read.begin.instanttime"
  private val end = "hoodie.datasource.read.end.instanttime"
  private val qt = "hoodie.datasource.query.type"

  test("defaults to a snapshot of the latest instant") {
    assert(QuerySpec.fromOptions(Map.empty) == QuerySpec(QueryType.Snapshot, None, None, None))
  }

  test("incremental needs a begin instant and a begin not after the end") {
    val e = intercept[InvalidOptionException](QuerySpec.fromOptions(Map(qt -> "incremental")))
    assert(e.getMessage.contains(begin))
    val e2 = intercept[InvalidOptionException](QuerySpec.fromOptions(Map(qt -> "incremental",
          begin -> "20240102000000000", end -> "20240101000000000")))
    assert(e2.getMessage.contains("after the end instant"))
    val ok = QuerySpec.fromOptions(Map(qt -> "incremental", begin -> "000", end -> "2024-01-01 00:00:00"))
    assert(ok.begin == Some("000") && ok.end == Some("20240101000000000"))
  }

  test("time travel cannot be combined with incremental") {
    intercept[InvalidOptionException](QuerySpec.fromOptions(Map(qt -> "incremental",
          begin -> "000", "as.of.instant" -> "20240101000000000")))
  }
}
