// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import org.scalatest.funsuite.AnyFunSuite

class TimelineSuite extends AnyFunSuite {

  test("parses every state file name of table layout 1") {
    assert(Instant.fromFileName("20240418173550988.commit") ==
      Some(Instant("20240418173550988", Action.Commit, State.Completed)))
    assert(Instant.fromFileName("20240418173550988.inflight") ==
      Some(Instant("20240418173550988", Action.Commit, State.Inflight)))
    assert(Instant.fromFileName("20240418173550988.commit.requested") ==
      Some(Instant("20240418173550988", Action.Commit, State.Requested)))
    assert(Instant.fromFileName("20250126040936578.rollback.inflight") ==
      Some(Instant("20250126040936578", Action.Rollback, State.Inflight)))
    assert(Instant.fromFileName("20250126040936578.compaction.requested").map(_.action) ==
      Some(Action.Compaction))
    Seq("hoodie.properties", "archived", ".aux", "2024.commit", "20240418173550988.unknown",
      "20240418173550988.commit.bogus", ".DS_Store").foreach { n =>
      assert(Instant.fromFileName(n).isEmpty, n)
    }
  }

  test("file names round trip, including the commit inflight quirk") {
    Seq("20240418173550988.commit", "20240418173550988.inflight",
      "20240418173550988.commit.requested", "20240418173550988.deltacommit.inflight",
      "20240418173550988.replacecommit").foreach { n =>
      assert(Instant.fromFileName(n).map(_.fileName) == Some(n))
    }
  }

  test("each instant keeps its most advanced state; a completed compaction is a commit") {
    val t = Timeline.fromFileNames(Seq(
        "001000000000000001.deltacommit.requested", "001000000000000001.deltacommit.inflight",
        "001000000000000001.deltacommit",
        "001000000000000002.compaction.requested", "001000000000000002.compaction.inflight",
        "001000000000000002.commit",
        "001000000000000003.deltacommit.requested", "001000000000000003.deltacommit.inflight",
        "001000000000000004.rollback.requested", "001000000000000004.rollback"))
    assert(t.instants.map(_.toString) == Seq("001000000000000001.deltacommit",
      "001000000000000002.commit", "001000000000000003.deltacommit.inflight",
      "001000000000000004.rollback"))
    assert(t.completedWrites.map(_.timestamp) == Seq("001000000000000001", "001000000000000002"))
    assert(t.pendingWrites.map(_.timestamp) == Seq("001000000000000003"))
    assert(t.latestCompletedWrite.map(_.timestamp) == Some("001000000000000002"))
  }

  test("visibility: completed writes up to the query instant, and anything older than the timeline") {
    val t = Timeline.fromFileNames(Seq("20240101000000000.commit.requested",
        "20240101000000000.commit", "20240102000000000.commit.requested",
        "20240102000000000.inflight", "20240103000000000.commit"))
    assert(t.isVisible("20240101000000000", "20240103000000000"))
    assert(!t.isVisible("20240102000000000", "20240103000000000"), "inflight is never visible")
    assert(!t.isVisible("20240103000000000", "20240102000000000"), "after the query instant")
    assert(t.isVisible("20231231000000000", "20240103000000000"), "archived, hence committed")
    assert(!t.isVisible("20240101500000000", "20240103000000000"), "unknown instant inside the timeline")
    assert(t.completedWritesBetween("20240101000000000", "20240103000000000").map(_.timestamp) ==
      Seq("20240103000000000"))
  }
}
