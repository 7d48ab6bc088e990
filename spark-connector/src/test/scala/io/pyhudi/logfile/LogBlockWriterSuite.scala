// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import java.math.{BigDecimal => JBigDecimal}

import scala.collection.immutable.ListMap

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.CorruptFileException

/** Blocks encoded by [[LogBlockWriter]] read back as written. */
class LogBlockWriterSuite extends AnyFunSuite {
  import LogTestData._

  private def readOne[T <: LogBlock](block: LogBlock): T =
    LogFormatReader.readBytes("f", LogBlockWriter.encode(block)) match {
      case Seq(b) => b.asInstanceOf[T]
      case other => fail(s"expected one block, got $other")
    }

  /** The 105-byte rollback block of v6_nonpartitioned_rollback (hudi-format.md §6.7). */
  private val rollbackBytes = hex("""
    23 48 55 44 49 23  00 00 00 00 00 00 00 5b  00 00 00 01  00 00 00 00  00 00 00 03
    00 00 00 00 00 00 00 11 32 30 32 35 30 31 32 36 30 34 30 39 33 36 35 37 38
    00 00 00 03 00 00 00 01 30
    00 00 00 01 00 00 00 11 32 30 32 35 30 31 32 36 30 34 30 38 32 36 38 37 38
    00 00 00 00 00 00 00 00  00 00 00 00  00 00 00 00 00 00 00 61""")

  test("the rollback block encodes to the 105 bytes Hudi wrote") {
    val block = LogBlockWriter.rollbackBlock("20250126040936578", "20250126040826878")
    assert(rollbackBytes.length == 105)
    assert(LogBlockWriter.encode(block).sameElements(rollbackBytes))
    val read = LogFormatReader.readBytes("rb", rollbackBytes).head.asInstanceOf[CommandBlock]
    assert(read == block && read.isRollback && read.targetInstant.contains("20250126040826878"))
  }

  test("an AVRO_DATA block round-trips its header and records") {
    val records = Seq(record("k1", 10L, "a"), record("k2", 20L, null))
    val block = LogBlockWriter.avroDataBlock("20250101000000000", schema, records)
    val read = readOne[AvroDataBlock](block)
    assert(read.header == block.header)
    assert(read.header.keys.toSeq == Seq(HeaderKey.InstantTime, HeaderKey.Schema))
    assert(read.schema == schema)
    assert(read.records.toList == records)
    assert(read.path == "f")
  }

  test("an AVRO_DATA block without SCHEMA fails naming the file") {
    val block = AvroDataBlock(Map(HeaderKey.InstantTime -> "1"), Array.emptyByteArray, "/t/.f_1.log.1_0-1-1")
    val e = intercept[CorruptFileException](block.records)
    assert(e.getMessage.contains("/t/.f_1.log.1_0-1-1") && e.getMessage.contains("SCHEMA"))
  }

  test("a truncated AVRO_DATA content fails naming the file") {
    val block = data("1", "k1", "k2")
    val cut = block.copy(content = block.content.dropRight(3), path = "/t/x.log")
    val e = intercept[CorruptFileException](cut.records.toList)
    assert(e.getMessage.contains("/t/x.log") && e.getMessage.contains("record 1"))
  }

  test("data blocks read from a file carry their offset, named when the content does not decode") {
    val first = LogBlockWriter.encode(data("1", "k1"))
    val second = data("2", "k2", "k3")
    val parquet = ParquetDataBlock(ListMap(HeaderKey.InstantTime -> "3"), "PAR1 body PAR1".getBytes("US-ASCII"))
    val cut = second.copy(content = second.content.dropRight(3))
    val bytes = first ++ LogBlockWriter.encode(cut) ++ LogBlockWriter.encode(parquet)
    val blocks = LogFormatReader.readBytes("/t/x.log", bytes)
    val avro = blocks.collect { case b: AvroDataBlock => b }
    assert(avro.map(_.offset) == Seq(0L, first.length.toLong))
    assert(blocks.collect { case b: ParquetDataBlock => b.offset } ==
      Seq((first.length + LogBlockWriter.encode(cut).length).toLong))
    val e = intercept[CorruptFileException](avro(1).records.toList)
    assert(e.getMessage.contains("/t/x.log") && e.getMessage.contains(s"AVRO_DATA block at offset ${first.length}"))
  }

  test("a PARQUET_DATA block keeps its content") {
    val block = ParquetDataBlock(ListMap(HeaderKey.InstantTime -> "1"), "PAR1 body PAR1".getBytes("US-ASCII"))
    val read = readOne[ParquetDataBlock](block)
    assert(read.content.sameElements(block.content) && read.header == block.header)
  }

  test("DELETE blocks round-trip every ordering-value wrapper") {
    val values: Seq[(Option[Any], Option[Any])] = Seq(
      None -> None,
      Some(Int.box(0)) -> None, // IntWrapper 0 is Java's natural order
      Some(Int.box(7)) -> Some(7),
      Some(Long.box(0L)) -> Some(0L), // a LongWrapper 0 is an ordinary value
      Some(Long.box(1700000000123L)) -> Some(1700000000123L),
      Some(java.lang.Boolean.TRUE) -> Some(true),
      Some(Float.box(1.5f)) -> Some(1.5f),
      Some(Double.box(2.25)) -> Some(2.25),
      Some("abc") -> Some("abc"),
      Some(java.time.LocalDate.of(2025, 1, 2)) -> Some(java.time.LocalDate.of(2025, 1, 2).toEpochDay.toInt),
      Some(java.time.Instant.ofEpochSecond(10, 5000)) -> Some(10000005L),
      Some(new JBigDecimal("12.5")) -> Some(new JBigDecimal("12.500000000000000")))
    val deletes = values.zipWithIndex.map { case ((v, _), i) => DeleteRecord(s"k$i", Some("p"), v) } :+
      DeleteRecord("nopart", None, None)
    val block = DeleteBlock(ListMap(HeaderKey.InstantTime -> "9"), deletes)
    val read = readOne[DeleteBlock](block)
    assert(read.deletes.map(_.recordKey) == deletes.map(_.recordKey))
    assert(read.deletes.map(_.partitionPath) == deletes.map(_.partitionPath))
    read.deletes.zip(values.map(_._2)).foreach { case (d, expected) =>
      assert(d.orderingValue == expected, d.recordKey)
    }
    val bytesValue = DeleteRecord("b", None, Some(Array[Byte](1, 2, 3)))
    val withBytes = readOne[DeleteBlock](DeleteBlock(Map.empty, Seq(bytesValue)))
    val value = withBytes.deletes.head.orderingValue.get.asInstanceOf[Array[Byte]]
    assert(value.sameElements(Array[Byte](1, 2, 3)))
  }

  test("a natural-order delete is written as IntWrapper 0") {
    val content = LogBlockWriter.deleteContent(Seq(DeleteRecord("k", Some("p"), None)))
    // version 3, list length, array block of 1, key, partition, branch 2 (IntWrapper) value 0, end
    assert(content.sameElements(hex("00000003 0000000a 02 02 02 6b 02 02 70 04 00 00")))
  }
}
