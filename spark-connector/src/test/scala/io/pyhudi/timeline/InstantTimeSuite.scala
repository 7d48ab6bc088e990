// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.InvalidOptionException

class InstantTimeSuite extends AnyFunSuite {

  test("accepts the three query formats and normalises to 17 digits") {
    assert(InstantTime.parseQueryInstant("k", "20240418173550988") == "20240418173550988")
    assert(InstantTime.parseQueryInstant("k", "20240418173550") == "20240418173550000")
    assert(InstantTime.parseQueryInstant("k", "2024-04-18 17:35:50") == "20240418173550000")
    assert(InstantTime.parseQueryInstant("k", "2024-04-18 17:35:50.988") == "20240418173550988")
    assert(InstantTime.parseQueryInstant("k", " 2024-04-18 17:35:50.988 ") == "20240418173550988")
  }

  test("rejects malformed instants, naming the option and the formats") {
    Seq("2024", "20241318173550988", "2024-02-30 00:00:00", "yesterday", "2024-04-18T17:35:50",
      "202404181735509881").foreach { v =>
      val e = intercept[InvalidOptionException](InstantTime.parseQueryInstant("as.of.instant", v))
      assert(e.getMessage.contains("as.of.instant") && e.getMessage.contains("yyyyMMddHHmmssSSS"), v)
    }
  }

  test("range bounds also take short digit strings such as 000") {
    assert(InstantTime.parseBound("b", "000") == "000")
    assert("000" < "20240418173550988")
    assert(InstantTime.parseBound("b", "20240418173550988") == "20240418173550988")
    intercept[InvalidOptionException](InstantTime.parseBound("b", "abc"))
  }
}
