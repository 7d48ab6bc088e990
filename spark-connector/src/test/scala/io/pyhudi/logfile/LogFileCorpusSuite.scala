// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import java.nio.file.Files

import scala.reflect.ClassTag

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.LogFile
import io.pyhudi.storage.Storage
import io.pyhudi.table.HoodieTable
import io.pyhudi.testutil.Corpus

/** Log files written by Apache Hudi 0.14 Spark in the v6 MOR test tables. */
class LogFileCorpusSuite extends AnyFunSuite {

  private val storage = new Storage(new Configuration())

  private def logFiles(table: String): Seq[LogFile] =
    Corpus.filesUnder(Corpus.extract(table), _.contains(".log."))
      .flatMap(f => LogFile.parse(f.getPath, f.length)).sorted

  private def blocks(file: LogFile): Seq[LogBlock] = {
    val it = LogFormatReader.read(storage, file.path)
    try it.toList
    finally it.close()
  }

  private def only[T <: LogBlock: ClassTag](blocks: Seq[LogBlock]): T = blocks match {
    case Seq(b: T) => b
    case other => fail(s"expected one ${implicitly[ClassTag[T]].runtimeClass.getSimpleName}, got $other")
  }

  private val allLogFiles: Seq[(String, LogFile)] =
    Corpus.tables("mor").flatMap(t => logFiles(t).map(t -> _))

  test("the corpus has nine v6 log files") {
    assert(allLogFiles.size == 9)
  }

  test("v6_trips_8i1u: one AVRO_DATA block holding the rider-D update") {
    val block = only[AvroDataBlock](blocks(logFiles("mor/v6_trips_8i1u").head))
    assert(block.instantTime.contains("20250331030645735"))
    assert(block.schema.getFields.get(0).name == "_hoodie_commit_time")
    val records = block.records.toList
    assert(records.size == 1)
    val r = records.head
    assert(r.get("rider").toString == "rider-D")
    assert(r.get("fare") == 25.0)
    assert(r.get("_hoodie_commit_seqno").toString == "20250331030645735_0_1")
    assert(r.get("_hoodie_file_name").toString == "d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0")
    // Records re-encoded under the block's own schema give back the block content.
    assert(LogBlockWriter.avroContent(block.schema, records).sameElements(block.content))
  }

  test("v6_trips_8i3d: one DELETE block with three natural-order deletes") {
    val block = only[DeleteBlock](blocks(logFiles("mor/v6_trips_8i3d").head))
    assert(block.instantTime.contains("20250618054714114"))
    // riders A, C and D of san_francisco, per the table's expected rows
    assert(block.deletes.map(_.recordKey).toSet == Set("334e26e9-8355-45cc-97c6-c31daf0df330",
      "e96c4396-3fad-413a-a942-4cb36106d721", "9909a8b1-2d15-4d3d-8ec9-efc48c536a00"))
    assert(block.deletes.forall(_.partitionPath.contains("city=san_francisco")))
    assert(block.deletes.forall(_.orderingValue.isEmpty))
  }

  test("v6_nonpartitioned_rollback: data, rollback command, data") {
    val files = logFiles("mor/v6_nonpartitioned_rollback")
    assert(files.map(_.version) == Seq(1, 2, 3))
    val (first, command, last) = (blocks(files(0)), blocks(files(1)), blocks(files(2)))
    assert(only[ParquetDataBlock](first).instantTime.contains("20250126040826878"))
    val rollback = only[CommandBlock](command)
    assert(rollback.isRollback)
    assert(rollback.instantTime.contains("20250126040936578"))
    assert(rollback.targetInstant.contains("20250126040826878"))
    assert(only[ParquetDataBlock](last).instantTime.contains("20250126060846931"))
  }

  test("parquet data blocks hold a whole parquet file") {
    val parquet = allLogFiles.filterNot(_._1.contains("trips")).flatMap(f => blocks(f._2)).collect {
      case p: ParquetDataBlock => p
    }
    assert(parquet.size == 6)
    val magic = "PAR1".getBytes("US-ASCII")
    parquet.foreach { p =>
      assert(p.content.take(4).sameElements(magic) && p.content.takeRight(4).sameElements(magic), p.path)
      assert(p.header.contains(HeaderKey.Schema))
    }
  }

  test("every real log file reads without corrupt blocks and re-encodes byte for byte") {
    allLogFiles.foreach { case (table, file) =>
      val bytes = Files.readAllBytes(new java.io.File(file.path).toPath)
      val fromBytes = LogFormatReader.readBytes(file.path, bytes)
      assert(fromBytes.nonEmpty && !fromBytes.exists(_.isInstanceOf[CorruptBlock]), s"$table ${file.name}")
      assert(LogBlockWriter.encodeFile(fromBytes).sameElements(bytes), s"$table ${file.name}")
      assert(blocks(file).map(_.header) == fromBytes.map(_.header))
    }
  }

  test("LogScanner drops the rolled-back block") {
    val files = logFiles("mor/v6_nonpartitioned_rollback")
    // Even if the rolled-back instant were still committed, the command block removes it.
    val all = LogScanner.validBlocks(storage, files, _ => true)
    assert(all.flatMap(_.instantTime) == Seq("20250126060846931"))

    val dir = Corpus.extract("mor/v6_nonpartitioned_rollback")
    val table = HoodieTable.open(dir.getPath, new Configuration())
    val latest = table.timeline.latestCompletedWrite.get.timestamp
    val visible = LogScanner.validBlocks(storage, files, t => table.timeline.isVisible(t, latest))
    assert(visible.flatMap(_.instantTime) == Seq("20250126060846931"))
  }

  test("LogScanner gates blocks on the query instant") {
    val files = logFiles("mor/v6_trips_8i1u")
    val table = HoodieTable.open(Corpus.extract("mor/v6_trips_8i1u").getPath, new Configuration())
    def at(asOf: String) = LogScanner.validBlocks(storage, files, t => table.timeline.isVisible(t, asOf))
    assert(at("20250331030645735").size == 1)
    assert(at("20250331030642808").isEmpty)
  }
}
