// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.scalatest.funsuite.AnyFunSuite

class CommitSeqNosSuite extends AnyFunSuite {

  test("the values are <instant>_<task partition>_<n> for n = 0, 1, ..., past every digit count") {
    val seqNos = new CommitSeqNos("20261126051500123", 17)
    (0 until 100001).foreach { n =>
      val v = seqNos.next()
      if (n < 1100 || n % 9973 == 0 || n >= 99990) assert(v.toString == s"20261126051500123_17_$n")
    }
    assert(seqNos.next().toString == "20261126051500123_17_100001")
  }

  test("a log file's values count from 1") {
    val seqNos = new CommitSeqNos("20261126051500123", 0, first = 1)
    assert(Seq.fill(10)(seqNos.next().toString) == (1 to 10).map(n => s"20261126051500123_0_$n"))
  }
}
