// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import java.io.{ByteArrayInputStream, ByteArrayOutputStream}

import org.apache.spark.SparkConf
import org.apache.spark.serializer.{JavaSerializer, KryoSerializer, Serializer}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.write.{Location, WriteRecord}

class RecordBlockSuite extends AnyFunSuite {

  private def ints(n: Int): Iterator[Integer] = Iterator.range(0, n).map(Integer.valueOf)

  test("records are cut into blocks of the block size, in order, the last one smaller") {
    val blocks = RecordBlock.blocks(ints(10), 4).toList
    assert(blocks.map(_.iterator.map(_.intValue).toList) === List(List(0, 1, 2, 3), List(4, 5, 6, 7), List(8, 9)))
    assert(RecordBlock.blocks(ints(8), 4).map(_.size).toList === List(4, 4))
    assert(RecordBlock.blocks(Iterator.single("only"), RecordBlock.Size).map(_.iterator.toList).toList ===
      List(List("only")))
  }

  test("an empty partition has no block, and no block is read past the end") {
    assert(RecordBlock.blocks(Iterator.empty[String], 4).isEmpty)
    val it = RecordBlock.blocks(ints(2), 2)
    assert(it.next().size === 2)
    assert(!it.hasNext)
    assertThrows[NoSuchElementException](it.next())
    assertThrows[io.pyhudi.errors.PyhudiException](RecordBlock.blocks(ints(1), 0))
  }

  test("records are not copied: a block holds the objects the partition yielded") {
    val records = Seq(new StringBuilder("a"), new StringBuilder("b"), new StringBuilder("c"))
    val held = RecordBlock.blocks(records.iterator, 2).flatMap(_.iterator).toList
    assert(held.zip(records).forall { case (h, r) => h eq r })
  }

  private val schema = StructType(Seq(StructField("id", LongType), StructField("name", StringType)))
  private val project = UnsafeProjection.create(schema)
  private def row(id: Long, name: String) = project(InternalRow(id, UTF8String.fromString(name))).copy()

  private def roundTrip[T](block: T, serializer: Serializer): T = {
    val instance = serializer.newInstance()
    val bytes = new ByteArrayOutputStream()
    val out = instance.serializeStream(bytes)
    out.writeObject[Any](block)
    out.close()
    val in = instance.deserializeStream(new ByteArrayInputStream(bytes.toByteArray))
    in.readObject[Any]().asInstanceOf[T]
  }

  // What Spark does with a cached block when memory is short: write it to disk with
  // spark.serializer and read it back.
  test("a block of tagged records comes back equal through Java and Kryo serialization") {
    val partition = "day=2026-01-01"
    val tagged: Seq[(WriteRecord, Option[Location])] = Seq(
      WriteRecord("k1", partition, row(1L, "a"), java.lang.Long.valueOf(5L), isDelete = false) ->
        Some(Location(partition, "f-1")),
      WriteRecord("k2", partition, row(2L, "b"), null, isDelete = false) -> None,
      WriteRecord("k3", partition, null, null, isDelete = true) -> Some(Location(partition, "f-2")))
    val block = RecordBlock.blocks(tagged.iterator, RecordBlock.Size).next()
    Seq(new JavaSerializer(new SparkConf(false)), new KryoSerializer(new SparkConf(false))).foreach { s =>
      val back = roundTrip(block, s).iterator.toList
      assert(back.map { case (r, l) => (r.key, r.partitionPath, r.ordering, r.isDelete, l) } ===
          tagged.map { case (r, l) => (r.key, r.partitionPath, r.ordering, r.isDelete, l) }, s.getClass.getSimpleName)
      assert(back.map(_._1.row).take(2).map(r => (r.getLong(0), r.getUTF8String(1).toString)) === Seq(1L -> "a",
        2L -> "b"))
      assert(back(2)._1.row === null)
    }
  }
}
