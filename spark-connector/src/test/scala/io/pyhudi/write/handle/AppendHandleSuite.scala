// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import java.io.File
import java.nio.file.{Files, Path}

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, LogFile}
import io.pyhudi.logfile.{AvroDataBlock, DeleteBlock, DeleteRecord, LogFormatReader}
import io.pyhudi.merge.MergeMode
import io.pyhudi.read.{FileSliceReader, SliceReadContext}
import io.pyhudi.schema.MetaFields
import io.pyhudi.write.commit.WriteStats
import io.pyhudi.storage.{SerializableConfiguration, Storage}
import io.pyhudi.testutil.{Corpus, TempDirs}
import io.pyhudi.timeline.InstantVisibility
import io.pyhudi.write.WriteRecord

class AppendHandleSuite extends AnyFunSuite {

  private val storage = new Storage(new Configuration())
  private val Partition = "city=san_francisco"
  private val FileId = "d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0"
  private val BaseInstant = "20250331030642808"
  private val BaseName = s"${FileId}_0-13-60_$BaseInstant.parquet"
  private val Instant = "20250401000000000"
  private val data = StructType(Seq(StructField("ts", LongType), StructField("uuid", StringType),
      StructField("rider", StringType), StructField("driver", StringType), StructField("fare", DoubleType),
      StructField("city", StringType)))
  private val tableSchema = StructType(MetaFields.Schema.fields ++ data.fields)

  /** A private copy of the corpus table, which the suites share read-only. */
  private def tableCopy(): String = {
    val source = Corpus.extract("mor/v6_trips_8i1u").toPath
    val target = TempDirs.create("pyhudi-append").resolve("t")
    val walk = Files.walk(source)
    try walk.forEach((p: Path) => Files.copy(p, target.resolve(source.relativize(p).toString)))
    finally walk.close()
    target.toString
  }

  private def context(basePath: String): HandleContext = HandleContext(basePath, Instant, tableSchema,
    MergeMode.LatestWins, Some(5), BloomConfig(100, 0.01, io.pyhudi.index.bloom.BloomFilterType.DynamicV0, 1000),
    1L << 27,
    new SerializableConfiguration(new Configuration()), null, _ => Iterator.empty, "v6_trips_8i1u")

  private def row(ts: Long, uuid: String, rider: String, fare: Double): InternalRow =
    InternalRow(ts, UTF8String.fromString(uuid), UTF8String.fromString(rider), UTF8String.fromString("driver-X"),
      fare, UTF8String.fromString("san_francisco"))

  private def logFiles(basePath: String): Seq[LogFile] =
    storage.listFiles(s"$basePath/$Partition").flatMap(f => LogFile.parse(f.path, f.size)).sorted

  private def appendOne(basePath: String): (HandleResult, String) = {
    val version = LogFile.nextVersion(logFiles(basePath), FileId, BaseInstant)
    val handle = new AppendHandle(context(basePath), Partition, FileId, BaseInstant, BaseName, version, "0-7-9", 3)
    handle.add(WriteRecord("key-new", Partition, row(100L, "key-new", "rider-N", 11.5), 100L, isDelete = false))
    handle.add(WriteRecord("key-gone", Partition, null, null, isDelete = true))
    handle.add(WriteRecord("key-upd", Partition, row(101L, "key-upd", "rider-U", -2.0), 101L, isDelete = false))
    (handle.write().head, handle.fileName)
  }

  test("nextVersion continues after the slice's highest log version and ignores other slices") {
    val logs = logFiles(Corpus.extract("mor/v6_trips_8i1u").getPath)
    assert(logs.map(_.version) == Seq(1))
    assert(LogFile.nextVersion(logs, FileId, BaseInstant) == 2)
    assert(LogFile.nextVersion(logs, FileId, "20250101000000000") == 1)
    assert(LogFile.nextVersion(Nil, FileId, BaseInstant) == 1)
  }

  test("an append writes the next log version with a data block and a delete block, marker first") {
    val basePath = tableCopy()
    val (result, name) = appendOne(basePath)
    assert(name == s".${FileId}_$BaseInstant.log.2_0-7-9")
    assert(logFiles(basePath).map(_.version) == Seq(1, 2))
    assert(storage.exists(s"$basePath/.hoodie/.temp/$Instant/$Partition/$name.marker.APPEND"))

    val blocks = LogFormatReader.read(storage, s"$basePath/$Partition/$name").toList
    assert(blocks.size == 2)
    val dataBlock = blocks.head.asInstanceOf[AvroDataBlock]
    assert(dataBlock.instantTime.contains(Instant))
    // The same writer schema as the one Spark's Hudi wrote into log.1.
    val javaLog = logFiles(basePath).head.path
    val javaSchema = LogFormatReader.read(storage, javaLog).toList.head.asInstanceOf[AvroDataBlock].schema
    assert(dataBlock.schema == javaSchema)
    assert(dataBlock.schema.toString == javaSchema.toString)
    val records = dataBlock.records.toList
    def str(r: org.apache.avro.generic.GenericRecord, f: String) = String.valueOf(r.get(f))
    assert(records.map(str(_, "_hoodie_record_key")) == Seq("key-new", "key-upd"))
    assert(records.map(str(_, "_hoodie_commit_seqno")) == Seq(s"${Instant}_3_1", s"${Instant}_3_2"))
    records.foreach { r =>
      assert(str(r, "_hoodie_commit_time") == Instant)
      assert(str(r, "_hoodie_partition_path") == Partition)
      assert(str(r, "_hoodie_file_name") == FileId)
    }
    assert(records.map(r => (r.get("ts"), str(r, "rider"), r.get("fare"))) ==
      Seq((100L, "rider-N", 11.5), (101L, "rider-U", -2.0)))

    val deletes = blocks(1).asInstanceOf[DeleteBlock]
    assert(deletes.instantTime.contains(Instant))
    assert(deletes.deletes == Seq(DeleteRecord("key-gone", Some(Partition), None)))

    assert(result.relativePath == s"$Partition/$name" && result.prevCommit.contains(BaseInstant))
    assert(result.fileSize == new File(s"$basePath/$Partition/$name").length())
    val stat = WriteStats.written(result)
    assert(stat.isLogStat && stat.logVersion.contains(2))
    assert(stat.baseFile.contains(BaseName) && stat.logFiles == Seq(name))
    assert((stat.numWrites, stat.numUpdateWrites, stat.numInserts, stat.numDeletes) == (2L, 2L, 0L, 1L))
    assert(stat.runtimeStats.exists(_.totalCreateTime == 0))
  }

  test("a second append creates the next version and never reuses a name; a taken name rolls over") {
    val basePath = tableCopy()
    appendOne(basePath)
    val handle = new AppendHandle(context(basePath), Partition, FileId, BaseInstant, BaseName,
      LogFile.nextVersion(logFiles(basePath), FileId, BaseInstant), "0-7-9", 0)
    handle.add(WriteRecord("key-x", Partition, null, null, isDelete = true))
    val result = handle.write().head
    assert(result.logVersion.contains(3) && result.numWrites == 0 && result.numDeletes == 1)
    assert(LogFormatReader.read(storage, s"$basePath/${result.relativePath}").toList.map(_.getClass) ==
      Seq(classOf[DeleteBlock]))
    // Another writer (same write token, another Spark application) planned version 3 too.
    val taken = s"$basePath/${result.relativePath}"
    val before = storage.readAll(taken)
    val again = new AppendHandle(context(basePath), Partition, FileId, BaseInstant, BaseName, 3, "0-7-9", 0)
    again.add(WriteRecord("key-y", Partition, null, null, isDelete = true))
    val rolled = again.write().head
    assert(rolled.logVersion.contains(4) && rolled.relativePath.endsWith(".log.4_0-7-9"), rolled)
    assert(storage.readAll(taken).sameElements(before), "the other writer's file is left as it was")
    assert(logFiles(basePath).map(_.version).takeRight(2) == Seq(3, 4))
  }

  test("upserts roll over to the next log version past hoodie.logfile.max.size; deletes go last") {
    val basePath = tableCopy()
    val ctx = context(basePath).copy(maxLogFileSize = 1L)
    val handle = new AppendHandle(ctx, Partition, FileId, BaseInstant, BaseName, 2, "0-7-9", 1)
    handle.add(WriteRecord("key-a", Partition, row(1L, "key-a", "rider-A", 1.0), 1L, isDelete = false))
    handle.add(WriteRecord("key-b", Partition, row(2L, "key-b", "rider-B", 2.0), 2L, isDelete = false))
    handle.add(WriteRecord("key-gone", Partition, null, null, isDelete = true))
    val results = handle.write()
    assert(results.map(_.logVersion.get) == Seq(2, 3))
    assert(results.map(r => (r.numWrites, r.numDeletes)) == Seq((1L, 0L), (1L, 1L)))
    assert(LogFormatReader.read(storage, s"$basePath/${results(1).relativePath}").toList.map(_.getClass) ==
      Seq(classOf[AvroDataBlock], classOf[DeleteBlock]))
    assert(logFiles(basePath).map(_.version) == Seq(1, 2, 3))
  }

  test("FileSliceReader merges the appended records and deletes over the slice") {
    val basePath = tableCopy()
    appendOne(basePath)
    val logs = logFiles(basePath)
    val slice = FileSlice(FileGroupId(Partition, FileId), BaseInstant,
      Some(BaseFile(s"$basePath/$Partition/$BaseName", FileId, "0-13-60", BaseInstant, 0L)), logs)
    val ctx = SliceReadContext(tableSchema, Seq(2), Seq("uuid"), useMetaKey = true, Some(5),
      MergeMode.LatestWins, Some(0), None,
      InstantVisibility(Set(BaseInstant, "20250331030645735", Instant), None, "99999999999999999"))
    // Stand-ins for base rows: one the append deletes, one it leaves alone, one it updates.
    def baseRow(key: String): InternalRow = InternalRow.fromSeq(
      Seq(BaseInstant, s"${BaseInstant}_0_0", key, Partition, BaseName).map(UTF8String.fromString) ++
        row(1L, key, "rider-base", 1.0).toSeq(data))
    val reader = new FileSliceReader(storage, ctx,
      _ => Iterator(baseRow("key-gone"), baseRow("key-kept"), baseRow("key-upd")), _ => Iterator.empty)
    val out = reader.read(slice).map(r => r.getUTF8String(2).toString -> r.getUTF8String(7).toString).toMap
    assert(out("key-kept") == "rider-base")
    assert(out("key-upd") == "rider-U" && out("key-new") == "rider-N")
    assert(!out.contains("key-gone"))
    assert(out.size == 4) // plus rider-D's update from the Java-written log.1
  }
}
