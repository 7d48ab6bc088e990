// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import java.nio.file.{Files, Path}

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.storage.Storage
import io.pyhudi.testutil.TempDirs

/** Which folders of a base path the lister reports as partitions. */
class PartitionListerSuite extends AnyFunSuite {

  private val created = scala.collection.mutable.Buffer[Path]()

  override def withFixture(test: NoArgTest) =
    try super.withFixture(test)
    finally { created.foreach(TempDirs.deleteRecursively); created.clear() }

  private def tempDir(): Path = { val d = TempDirs.create("pyhudi-lister"); created += d; d }

  private val storage = new Storage(new Configuration())

  private def touch(base: Path, rel: String): Unit = {
    val f = base.resolve(rel)
    Files.createDirectories(f.getParent)
    Files.write(f, Array[Byte](1))
  }

  private val metafile = PartitionLister.PartitionMetafile
  private val base1 = "f1-0_0-1-1_20250101000000001.parquet"

  private def partitions(base: Path): Seq[String] = PartitionLister.list(storage, base.toString).map(_._1)

  private def table(paths: String*): Path = {
    val base = tempDir()
    paths.foreach { p =>
      touch(base, s"$p/$metafile")
      touch(base, s"$p/$base1")
    }
    base
  }

  test("__HIVE_DEFAULT_PARTITION__ folders are partitions, plain, hive-style and nested") {
    assert(partitions(table("2024", "__HIVE_DEFAULT_PARTITION__")) == Seq("2024", "__HIVE_DEFAULT_PARTITION__"))
    assert(partitions(table("p=1", "p=__HIVE_DEFAULT_PARTITION__")) == Seq("p=1", "p=__HIVE_DEFAULT_PARTITION__"))
    val nested = Seq("a/1", "a/__HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__/1",
      "__HIVE_DEFAULT_PARTITION__/__HIVE_DEFAULT_PARTITION__")
    assert(partitions(table(nested: _*)) == nested.sorted)
  }

  test("a default partition without its metafile is still found by its data files") {
    val base = tempDir()
    touch(base, s"__HIVE_DEFAULT_PARTITION__/$base1")
    assert(partitions(base) == Seq("__HIVE_DEFAULT_PARTITION__"))
  }

  test("hidden folders are never entered; other underscore folders count only with a metafile") {
    val base = tempDir()
    touch(base, s".hoodie/$base1")
    touch(base, s".hoodie/x/$metafile")
    touch(base, s"_temporary/0/$base1")
    touch(base, s"_other/$base1")
    touch(base, s"x/_temporary/$base1")
    assert(partitions(base) == Nil)
    touch(base, s"_odd/$metafile")
    touch(base, s"x/$metafile")
    assert(partitions(base) == Seq("_odd", "x"))
  }

  test("partitions come in depth-first order of sorted folder names, whatever the level") {
    val layout = Seq("b", "a-b", "a/2", "a/1", "a/10/x", "a/10/y", "c/__HIVE_DEFAULT_PARTITION__")
    assert(partitions(table(layout: _*)) == Seq("a/1", "a/10/x", "a/10/y", "a/2", "a-b", "b",
      "c/__HIVE_DEFAULT_PARTITION__"))
  }

  test("a wide table is listed completely, each partition with its own files") {
    val layout = for (m <- 1 to 12; d <- 1 to 28) yield f"y=2024/m=$m%02d/d=$d%02d"
    val base = table(layout: _*)
    touch(base, s"y=2024/m=03/d=07/f2-0_0-1-1_20250101000000001.parquet")
    val listed = PartitionLister.list(storage, base.toString)
    assert(listed.map(_._1) == layout.sorted)
    assert(PartitionLister.list(storage, base.toString, 1) == listed)
    assert(listed.forall { case (p, files) => files.forall(_.path.contains(s"/$p/")) })
    assert(listed.map(_._2.size).sum == 2 * layout.size + 1)
    assert(PartitionLister.listSome(storage, base.toString, layout.reverse).map(_._1) == layout.sorted)
  }

  test("a failed listing fails the walk with its own error") {
    val boom = intercept[IllegalStateException] {
      PartitionLister.inParallel(1 to 40, 16)(i => if (i == 17) throw new IllegalStateException("no 17") else i)
    }
    assert(boom.getMessage == "no 17")
    for (n <- Seq(1, 3, 16, 99)) assert(PartitionLister.inParallel(1 to 40, n)(_ * 2) == (1 to 40).map(_ * 2))
  }
}
