// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import java.time.{LocalDateTime, ZoneOffset}

import org.scalatest.funsuite.AnyFunSuite

class InstantTimeGeneratorSuite extends AnyFunSuite {

  private def millis(y: Int, mo: Int, d: Int, h: Int, mi: Int, s: Int, ms: Int): Long =
    LocalDateTime.of(y, mo, d, h, mi, s, ms * 1000000).toInstant(ZoneOffset.UTC).toEpochMilli

  test("now in UTC as 17 digits") {
    val g = new InstantTimeGenerator(() => millis(2025, 1, 26, 4, 8, 23, 628))
    assert(g.next(Nil) == "20250126040823628")
  }

  test("monotonic under a frozen clock: each call adds one millisecond") {
    var now = millis(2025, 1, 26, 4, 8, 59, 998)
    val g = new InstantTimeGenerator(() => now)
    val times = (1 to 4).map(_ => g.next(Nil))
    assert(times == Seq("20250126040859998", "20250126040859999", "20250126040900000", "20250126040900001"))
    now += 10
    assert(g.next(Nil) == "20250126040900008")
  }

  test("strictly after every instant on the timeline, whatever its state or action") {
    val g = new InstantTimeGenerator(() => millis(2025, 1, 1, 0, 0, 0, 0))
    val timeline = Timeline.fromFileNames(Seq("20250101000000000.commit", "20250301101010999.rollback.requested"))
    assert(g.next(timeline) == "20250301101011000")
    assert(g.next(Seq("20991231235959999")) == "21000101000000000")
  }

  test("old 14-digit and long suffixed instants are passed too") {
    val g = new InstantTimeGenerator(() => 0L)
    assert(g.next(Seq("20250101000000")) == "20250101000000001")
    assert(g.next(Seq("20250101000000000001")) > "20250101000000000001")
    assert(InstantTimeGenerator.plusOneMilli("00100000000000001") == "00100000000000002")
  }

  test("the shared generator never repeats") {
    val g = InstantTimeGenerator.Default
    val times = (1 to 50).map(_ => g.next(Nil))
    assert(times.distinct.size == 50 && times == times.sorted && times.forall(_.length == 17))
  }
}
