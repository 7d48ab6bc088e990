// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import java.io.File
import java.nio.file.{Files, Path}

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.storage.Storage
import io.pyhudi.testutil.TempDirs
import io.pyhudi.timeline.TimelineWriter

class MetadataTableSuite extends AnyFunSuite {

  private val storage = new Storage(new Configuration())

  private val props = Map(
    TableConfig.Name -> "t1",
    TableConfig.DatabaseName -> "default",
    TableConfig.Type -> "COPY_ON_WRITE",
    TableConfig.RecordKeyFields -> "id",
    TableConfig.KeyGeneratorClass -> "org.apache.hudi.keygen.NonpartitionedKeyGenerator",
    TableConfig.CreateSchema -> """{"type":"record","name":"t1_record","fields":[{"name":"id","type":"int"}]}""")

  /** A table whose properties advertise a metadata table that exists on disk, as Hudi leaves it. */
  private def tableWithMetadata(): String = {
    val base = TempDirs.create("pyhudi-mdt").resolve("t1").toString
    TableCreator.create(storage, base, props)
    TablePropertiesWriter.update(storage, base)(_ ++ Map(
        TableConfig.MetadataPartitions -> "column_stats,files",
        TableConfig.MetadataPartitionsInflight -> ""))
    storage.create(s"$base/.hoodie/metadata/.hoodie/hoodie.properties", "hoodie.table.name=t1_metadata\n".getBytes)
    storage.create(s"$base/.hoodie/metadata/files/.files-0000-0_00000000000000010.log.1_0-0-0", Array[Byte](1, 2))
    // Hadoop's checksum layer (Apache Hudi's writers go through it) leaves a side file.
    storage.create(s"$base/.hoodie/.hoodie.properties.crc", Array[Byte](0, 1, 2, 3))
    base
  }

  private def stored(base: String): Map[String, String] = HoodieTable.readProperties(storage, base)

  test("removal clears the advertised partitions, keeps every other key, fixes the checksum and deletes the folder") {
    val base = tableWithMetadata()
    val before = stored(base)
    assert(MetadataTable.isPresent(storage, base))
    assert(MetadataTable.removeIfPresent(storage, base, "a test"))
    val after = stored(base)
    assert(!after.contains(TableConfig.MetadataPartitions))
    assert(!after.contains(TableConfig.MetadataPartitionsInflight))
    assert(after - TableConfig.Checksum == before -- Seq(TableConfig.MetadataPartitions,
      TableConfig.MetadataPartitionsInflight, TableConfig.Checksum))
    assert(after(TableConfig.Checksum) == TableCreator.checksum(after).toString)
    assert(!new File(s"$base/.hoodie/metadata").exists())
    assert(!new File(s"$base/.hoodie/${TablePropertiesWriter.BackupFile}").exists())
    assert(!new File(s"$base/.hoodie/.hoodie.properties.crc").exists(), "a stale checksum would fail Hudi's reads")
    assert(!MetadataTable.isPresent(storage, base))
    assert(!MetadataTable.removeIfPresent(storage, base, "a test"), "a second call has nothing to do")
    HoodieTable.open(base, storage)
  }

  test("a folder left by an interrupted removal (properties already cleared) is deleted") {
    val base = tableWithMetadata()
    TablePropertiesWriter.update(storage, base)(_ -- Seq(TableConfig.MetadataPartitions,
        TableConfig.MetadataPartitionsInflight))
    assert(MetadataTable.isPresent(storage, base))
    assert(MetadataTable.removeIfPresent(storage, base, "a test"))
    assert(!new File(s"$base/.hoodie/metadata").exists())
  }

  test("a crash between backup and rewrite leaves the backup, which opens the table") {
    val base = tableWithMetadata()
    val meta = Path.of(base, ".hoodie")
    Files.copy(meta.resolve("hoodie.properties"), meta.resolve(TablePropertiesWriter.BackupFile))
    Files.delete(meta.resolve("hoodie.properties"))
    assert(HoodieTable.open(base, storage).config.name == "t1")
    assert(MetadataTable.removeIfPresent(storage, base, "a test"))
    assert(Files.exists(meta.resolve("hoodie.properties")))
    assert(!stored(base).contains(TableConfig.MetadataPartitions))
  }

  test("every timeline change removes the metadata table before its state file appears") {
    val base = tableWithMetadata()
    new TimelineWriter(storage, s"$base/.hoodie").requested("20260101000000000", "commit")
    assert(!MetadataTable.isPresent(storage, base))
    assert(new File(s"$base/.hoodie/20260101000000000.commit.requested").exists())
  }
}
