// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import java.io.File
import java.nio.file.Files
import java.util.concurrent.{Callable, Executors}

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.{PartitionLister, PartitionMetafile}
import io.pyhudi.storage.Storage
import io.pyhudi.testutil.TempDirs

/** `.hoodie_partition_metadata` (hudi-format.md §1.5). */
class PartitionMetafileSuite extends AnyFunSuite {

  private val storage = new Storage(new Configuration())

  test("writes commitTime and partitionDepth in Java properties form") {
    val base = TempDirs.create("pyhudi-pm").toString
    assert(PartitionMetafile.ensure(storage, base, "byteField=10/shortField=300", "20250101000000001"))
    val lines = new String(Files.readAllBytes(new File(s"$base/byteField=10/shortField=300/.hoodie_partition_metadata")
          .toPath), "ISO-8859-1").split('\n').toSeq
    assert(lines.head == "#partition metadata" && lines(1).startsWith("#"))
    assert(lines.drop(2) == Seq("commitTime=20250101000000001", "partitionDepth=2"))
    assert(!PartitionMetafile.ensure(storage, base, "byteField=10/shortField=300", "20250101000000002"))
    assert(PartitionLister.list(storage, base).map(_._1) == Seq("byteField=10/shortField=300"))
    assert(PartitionMetafile.ensure(storage, base, "", "20250101000000001"))
    assert(
      new String(Files.readAllBytes(new File(s"$base/.hoodie_partition_metadata").toPath)).contains("partitionDepth=0"))
    assert(Seq("", "city=a", "2023/04/01/12").map(PartitionMetafile.depth) == Seq(0, 1, 4))
  }

  test("racing tasks create one metafile and leave no temp files") {
    val base = TempDirs.create("pyhudi-pm").toString
    val pool = Executors.newFixedThreadPool(8)
    try {
      val tasks = (1 to 16).map(i =>
        new Callable[Boolean] {
          def call(): Boolean = PartitionMetafile.ensure(storage, base, "city=x", f"202501010000000$i%02d")
        })
      val created = pool.invokeAll(tasks.asJava).asScala.map(_.get)
      assert(created.count(identity) == 1)
    } finally pool.shutdown()
    assert(new File(s"$base/city=x").list().toSeq == Seq(".hoodie_partition_metadata"))
  }
}
