// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import java.nio.file.{Files, Path}

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.storage.Storage

/** Which folders of a base path the lister reports as partitions. */
class PartitionListerSuite extends AnyFunSuite {

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
    val base = Files.createTempDirectory("pyhudi-lister")
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
    val base = Files.createTempDirectory("pyhudi-lister")
    touch(base, s"__HIVE_DEFAULT_PARTITION__/$base1")
    assert(partitions(base) == Seq("__HIVE_DEFAULT_PARTITION__"))
  }

  test("hidden folders are never entered; other underscore folders count only with a metafile") {
    val base = Files.createTempDirectory("pyhudi-lister")
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
}
