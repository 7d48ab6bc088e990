// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import java.nio.file.Files

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.InstantConflictException
import io.pyhudi.storage.Storage
import io.pyhudi.testutil.TempDirs

class TimelineWriterSuite extends AnyFunSuite {

  private val storage = new Storage(new Configuration())

  private def withMeta(f: (TimelineWriter, String) => Unit): Unit = {
    val dir = TempDirs.create("pyhudi-timeline").resolve(".hoodie")
    Files.createDirectories(dir)
    f(new TimelineWriter(storage, dir.toString), dir.toString)
  }

  private def names(meta: String): Seq[String] = storage.listFiles(meta).map(_.name).sorted

  test("state files are named as in table layout 1, commit inflight without its action") {
    withMeta { (w, meta) =>
      w.requested("20250101000000001", Action.Commit)
      w.inflight("20250101000000001", Action.Commit, "{}".getBytes)
      w.complete("20250101000000001", Action.Commit, "{\"a\":1}".getBytes)
      w.requested("20250101000000002", Action.DeltaCommit)
      w.inflight("20250101000000002", Action.DeltaCommit, "{}".getBytes)
      w.requested("20250101000000003", Action.ReplaceCommit, Array[Byte](1, 2))
      assert(names(meta) == Seq("20250101000000001.commit", "20250101000000001.commit.requested",
        "20250101000000001.inflight", "20250101000000002.deltacommit.inflight",
        "20250101000000002.deltacommit.requested", "20250101000000003.replacecommit.requested"))
      assert(storage.fileSize(s"$meta/20250101000000001.commit.requested") == 0)
      assert(new String(w.read(Instant("20250101000000001", Action.Commit, State.Completed))) == "{\"a\":1}")
      assert(w.timeline().instants.map(_.toString) == Seq("20250101000000001.commit",
        "20250101000000002.deltacommit.inflight", "20250101000000003.replacecommit.requested"))
    }
  }

  test("completing never overwrites, fails clearly and leaves no temp file") {
    withMeta { (w, meta) =>
      w.complete("20250101000000001", Action.DeltaCommit, "first".getBytes)
      val e =
        intercept[InstantConflictException](w.complete("20250101000000001", Action.DeltaCommit, "second".getBytes))
      assert(e.getMessage.contains("20250101000000001.deltacommit") && e.getMessage.contains("already exists"))
      assert(new String(storage.readAll(s"$meta/20250101000000001.deltacommit")) == "first")
      intercept[InstantConflictException](w.requested("20250101000000002", Action.Commit)
          .pipe(_ => w.requested("20250101000000002", Action.Commit)))
      assert(names(meta) == Seq("20250101000000001.deltacommit", "20250101000000002.commit.requested"))
    }
  }

  test("temp file names are never read as instants") {
    val temp = ".20250101000000001.commit.0f8fad5b-d9cb-469f-a165-70867728950e.tmp"
    assert(Instant.fromFileName(temp).isEmpty)
  }

  test("deleteInstantFiles removes every state file of one instant only") {
    withMeta { (w, meta) =>
      w.requested("20250101000000001", Action.Commit)
      w.inflight("20250101000000001", Action.Commit)
      w.complete("20250101000000001", Action.Commit, "{}".getBytes)
      w.requested("20250101000000002", Action.Commit)
      assert(w.deleteInstantFiles("20250101000000001") ==
        Seq("20250101000000001.commit", "20250101000000001.inflight", "20250101000000001.commit.requested"))
      assert(names(meta) == Seq("20250101000000002.commit.requested"))
      assert(w.deleteInstantFiles("20250101000000009").isEmpty)
    }
  }

  private implicit class Pipe[A](a: A) { def pipe[B](f: A => B): B = f(a) }
}
