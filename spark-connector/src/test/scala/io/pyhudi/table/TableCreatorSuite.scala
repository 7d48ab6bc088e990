// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import java.io.File
import java.nio.file.Files

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{InvalidTableException, TableExistsException}
import io.pyhudi.storage.Storage
import io.pyhudi.testutil.{Corpus, TempDirs}

class TableCreatorSuite extends AnyFunSuite {

  private val conf = new Configuration()
  private val storage = new Storage(conf)

  private val props = Map(
    TableConfig.Name -> "t1",
    TableConfig.DatabaseName -> "default",
    TableConfig.Type -> "MERGE_ON_READ",
    TableConfig.RecordKeyFields -> "id",
    TableConfig.PartitionFields -> "city",
    TableConfig.PrecombineField -> "ts",
    TableConfig.KeyGeneratorClass -> "org.apache.hudi.keygen.SimpleKeyGenerator",
    TableConfig.HiveStylePartitioning -> "true",
    TableConfig.UrlEncodePartitioning -> "false",
    TableConfig.DropPartitionColumns -> "false",
    TableConfig.PayloadClass -> "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload",
    TableConfig.CreateSchema -> """{"type":"record","name":"t1_record","fields":[{"name":"id","type":"int"}]}""",
    "hoodie.comment" -> "caf\u00e9 = #1")

  test("checksum equals the stored one in all 16 corpus tables") {
    val tables = Corpus.tables("cow") ++ Corpus.tables("mor")
    assert(tables.size == 16)
    tables.foreach { t =>
      val file = new File(Corpus.extract(t), ".hoodie/hoodie.properties")
      val config = TableConfig.parse(Files.readAllBytes(file.toPath), t)
      assert(TableCreator.checksum(config.props).toString == config.get(TableConfig.Checksum).get, t)
    }
    assert(TableCreator.checksum(Map(TableConfig.Name -> "v6_trips_8i1u", TableConfig.DatabaseName -> "default")) ==
      3843273058L)
  }

  test("creates the folders and a properties file that opens as a table") {
    val base = TempDirs.create("pyhudi-create").resolve("t1").toString
    TableCreator.create(storage, base, props)
    TableCreator.MetaFolders.foreach(f => assert(new File(s"$base/.hoodie/$f").isDirectory, f))
    val bytes = Files.readAllBytes(new File(s"$base/.hoodie/hoodie.properties").toPath)
    val text = new String(bytes, "ISO-8859-1")
    val lines = text.split('\n')
    assert(lines(0).startsWith("#Properties saved on ") && lines(1).startsWith("#"))
    assert(lines.contains("hoodie.table.version=6") && lines.contains("hoodie.timeline.layout.version=1"))
    assert(lines.contains("hoodie.archivelog.folder=archived"))
    assert(lines.contains("hoodie.table.create.schema={\"type\"\\:\"record\",\"name\"\\:\"t1_record\"," +
        "\"fields\"\\:[{\"name\"\\:\"id\",\"type\"\\:\"int\"}]}"))
    assert(lines.contains("hoodie.comment=caf\\u00E9 \\= \\#1"))
    val config = TableConfig.parse(bytes, base)
    TableConfig.validate(config)
    assert(config.props - TableConfig.Checksum == props ++ TableCreator.FixedProperties)
    assert(config.get(TableConfig.Checksum).contains(TableCreator.checksum(props).toString))
    val table = HoodieTable.open(base, conf)
    assert(table.tableType == TableType.MergeOnRead && table.timeline.isEmpty)
    assert(!new File(s"$base/.hoodie").list().exists(_.endsWith(".tmp")))
  }

  test("refuses to create over an existing table or with unsupported fixed keys") {
    val base = TempDirs.create("pyhudi-create").toString
    TableCreator.create(storage, base, props)
    val before = Files.readAllBytes(new File(s"$base/.hoodie/hoodie.properties").toPath)
    val e = intercept[TableExistsException](TableCreator.create(storage, base, props + (TableConfig.Name -> "x")))
    assert(e.getMessage.contains(base))
    assert(Files.readAllBytes(new File(s"$base/.hoodie/hoodie.properties").toPath).sameElements(before))
    val other = TempDirs.create("pyhudi-create").toString
    Seq(TableConfig.Version -> "5", TableConfig.TimelineTimezone -> "LOCAL").foreach { kv =>
      val err = intercept[InvalidTableException](TableCreator.create(storage, other, props + kv))
      assert(err.getMessage.contains(kv._1))
    }
    intercept[InvalidTableException](TableCreator.create(storage, other, props - TableConfig.Name))
    assert(!new File(s"$other/.hoodie/hoodie.properties").exists())
  }
}
