// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.archive

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.{ErrorId, InvalidOptionException}
import io.pyhudi.timeline.Timeline

/** Which instants an archival takes, on timelines given by their file names (no table, no Spark). */
class ArchivePlannerSuite extends AnyFunSuite {

  /** Instant time of commit `n` (17 digits, increasing with n). */
  private def t(n: Int): String = at(n, 0)

  /** An instant time between commits `n` and `n + 1`. */
  private def at(n: Int, k: Int): String = f"202611230000$n%03d$k%02d"

  private def commits(ns: Seq[Int]): Seq[String] = ns.flatMap(n =>
    Seq(s"${t(n)}.commit.requested", s"${t(n)}.inflight",
      s"${t(n)}.commit"))

  private val Config = ArchiveConfig(minCommits = 3, maxCommits = 5)

  private def select(files: Seq[String], limits: ArchiveLimits = ArchiveLimits()): Seq[String] =
    ArchivePlanner.select(Timeline.fromFileNames(files), Config, limits).map(_.toString)

  test("nothing while at most max commits are active") {
    assert(select(commits(1 to 5)).isEmpty)
  }

  test("above max: the oldest commits down to min, with the cleans and rollbacks older than the first kept one") {
    val files = commits(1 to 8) ++ Seq(s"${at(2, 50)}.clean.requested", s"${at(2, 50)}.clean",
      s"${at(5, 50)}.rollback", s"${at(6, 50)}.clean")
    assert(select(files) == Seq(s"${t(1)}.commit", s"${t(2)}.commit", s"${at(2, 50)}.clean", s"${t(3)}.commit",
      s"${t(4)}.commit", s"${t(5)}.commit", s"${at(5, 50)}.rollback"))
  }

  test("mixed write actions count alike; a completed compaction counts as the commit it completes as") {
    val files = Seq(s"${t(1)}.deltacommit", s"${t(2)}.replacecommit", s"${t(3)}.compaction.requested",
      s"${t(3)}.compaction.inflight", s"${t(3)}.commit", s"${t(4)}.deltacommit", s"${t(5)}.deltacommit",
      s"${t(6)}.deltacommit")
    assert(select(files) == Seq(s"${t(1)}.deltacommit", s"${t(2)}.replacecommit", s"${t(3)}.commit"))
  }

  test("never at or past the earliest savepoint") {
    val files = commits(1 to 8) :+ s"${t(3)}.savepoint"
    assert(select(files) == Seq(s"${t(1)}.commit", s"${t(2)}.commit"))
  }

  test("never at or past the earliest pending instant, whatever its action") {
    val p = at(2, 50)
    for (pending <- Seq(s"${t(3)}.compaction.requested", s"$p.clean.inflight", s"$p.rollback.requested",
        s"$p.replacecommit.requested", s"$p.inflight", s"$p.deltacommit.requested")) {
      val files = commits((1 to 9).filterNot(n => n == 3 && pending.startsWith(t(3)))) :+ pending
      assert(select(files) == Seq(s"${t(1)}.commit", s"${t(2)}.commit"), pending)
    }
  }

  test("never at or past the earliest commit the last clean retains") {
    assert(select(commits(1 to 8), ArchiveLimits(cleanRetained = Some(t(4)))) ==
      Seq(s"${t(1)}.commit", s"${t(2)}.commit", s"${t(3)}.commit"))
  }

  test("a rolled-back instant with leftover files keeps a commit before it on the active timeline") {
    // Rolled back between t(4) and t(5): the first kept write must sort before it, so t(4) stays.
    val limits = ArchiveLimits(rolledBackLeftovers = Seq(at(4, 50)))
    val picked = select(commits(1 to 8), limits)
    assert(picked == Seq(s"${t(1)}.commit", s"${t(2)}.commit", s"${t(3)}.commit"))
    val boundary = Timeline.fromFileNames(commits(1 to 8)).instants.map(_.timestamp).filterNot(picked.map(
        _.takeWhile(_ != '.')).toSet).head
    assert(boundary < limits.rolledBackLeftovers.head)
    assert(select(commits(1 to 8), ArchiveLimits(rolledBackLeftovers = Seq(t(0)))).isEmpty)
  }

  test("a replacecommit whose replaced file groups still have files stays, with everything after it") {
    val files = commits(1 to 8).map(_.replace(s"${t(3)}.commit", s"${t(3)}.replacecommit"))
    assert(select(files, ArchiveLimits(replacedLeftovers = Set(t(3)))) == Seq(s"${t(1)}.commit", s"${t(2)}.commit"))
    assert(select(files).contains(s"${t(3)}.replacecommit"))
  }

  test("what stays is a suffix of the timeline") {
    val files = commits(1 to 12) ++ Seq(s"${at(4, 10)}.clean", s"${at(9, 10)}.clean")
    val timeline = Timeline.fromFileNames(files)
    val picked = ArchivePlanner.select(timeline, ArchiveConfig(3, 5), ArchiveLimits()).toSet
    val kept = timeline.instants.filterNot(picked)
    assert(timeline.instants.takeWhile(picked) ++ kept == timeline.instants)
    assert(timeline.completedWrites.count(i => !picked(i)) == 3)
  }

  test("options: min must exceed the clean's retained commits and max must exceed min, as Hudi checks") {
    assert(ArchiveConfig.from(Map.empty) == ArchiveConfig(20, 30))
    assert(ArchiveConfig.from(Map(WriteConfig.KeepMinCommits.key -> "4", WriteConfig.KeepMaxCommits.key -> "6",
        WriteConfig.CleanCommitsRetained.key -> "3")) == ArchiveConfig(4, 6))
    val low = intercept[InvalidOptionException](ArchiveConfig.from(Map(WriteConfig.KeepMinCommits.key -> "10")))
    assert(low.errorId == ErrorId.InvalidOptionValue.id)
    assert(low.getMessage.contains(WriteConfig.KeepMinCommits.key) &&
      low.getMessage.contains(WriteConfig.CleanCommitsRetained.key))
    val inverted = intercept[InvalidOptionException](ArchiveConfig.from(Map(WriteConfig.KeepMinCommits.key -> "30")))
    assert(inverted.getMessage.contains(WriteConfig.KeepMaxCommits.key) && inverted.getMessage.contains("(30)"))
    intercept[InvalidOptionException](ArchiveConfig.from(Map(WriteConfig.KeepMaxCommits.key -> "0")))
    // Hudi's older key of the clean option counts too.
    intercept[InvalidOptionException](ArchiveConfig.from(Map("hoodie.cleaner.commits.retained" -> "20")))
  }
}
