// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, Externalizable, ObjectInput, ObjectOutput}

import scala.reflect.ClassTag

import com.esotericsoftware.kryo.{Kryo, KryoSerializable}
import com.esotericsoftware.kryo.io.{Input, Output}
import org.apache.spark.{SparkConf, SparkEnv}
import org.apache.spark.rdd.RDD
import org.apache.spark.storage.StorageLevel

import io.pyhudi.errors.Errors

/**
 * Up to [[RecordBlock.Size]] records of a write, cached as one element.
 *
 * A write keeps its records between the jobs that read them (the de-duplicated input, the
 * tagged records). Spark's memory store sizes what it caches as it goes: each time a partition
 * has grown by a tenth, it walks a sample of the cached objects by reflection, and a record is a
 * dozen objects (tuple, key, partition path, row and its bytes, ordering value). Cached one by
 * one, those walks took a fifth of the CPU of a 10% upsert into a 5M-row table; as blocks, a
 * partition of that upsert is one or two elements, sized a few times from a sample of records.
 *
 * When memory is short Spark writes cached elements to disk with `spark.serializer`. Java
 * serialization, the default, remembers every object it wrote until it is reset every 100
 * elements: 100 blocks of records. A block therefore serializes itself as one byte array,
 * written with the records' own serializer ([[RecordSerializer]]), under either serializer.
 */
final class RecordBlock[T <: AnyRef] private (private var records: Array[AnyRef])
    extends Externalizable with KryoSerializable {

  /** For deserialization only. */
  def this() = this(null)

  def size: Int = records.length

  def iterator: Iterator[T] = records.iterator.asInstanceOf[Iterator[T]]

  override def writeExternal(out: ObjectOutput): Unit = {
    val bytes = RecordBlock.encode(records)
    out.writeInt(bytes.length)
    out.write(bytes)
  }

  override def readExternal(in: ObjectInput): Unit = {
    val bytes = new Array[Byte](in.readInt())
    in.readFully(bytes)
    records = RecordBlock.decode(bytes)
  }

  override def write(kryo: Kryo, out: Output): Unit = {
    val bytes = RecordBlock.encode(records)
    out.writeInt(bytes.length)
    out.writeBytes(bytes)
  }

  override def read(kryo: Kryo, in: Input): Unit =
    records = RecordBlock.decode(in.readBytes(in.readInt()))
}

object RecordBlock {

  /** Records per block: a few MB of typical rows. */
  val Size: Int = 1 << 15

  /**
   * `rdd`'s records, computed once when first read and kept in memory, then on disk, as blocks;
   * the partitioner is kept. The second value is the RDD to unpersist when the write is done.
   */
  def persist[T <: AnyRef: ClassTag](rdd: RDD[T]): (RDD[T], RDD[RecordBlock[T]]) = {
    val blocks = rdd.mapPartitions(it => RecordBlock.blocks(it, Size), preservesPartitioning = true)
      .persist(StorageLevel.MEMORY_AND_DISK) // rows are UnsafeRows: compact without serializing
    (blocks.mapPartitions(_.flatMap(_.iterator), preservesPartitioning = true), blocks)
  }

  /** `it` in order, in blocks of `perBlock` records (the last one smaller); none when `it` is empty. */
  def blocks[T <: AnyRef](it: Iterator[T], perBlock: Int): Iterator[RecordBlock[T]] = {
    if (perBlock <= 0) throw Errors.internal(s"a record block of $perBlock records")
    new Iterator[RecordBlock[T]] {
      def hasNext: Boolean = it.hasNext
      def next(): RecordBlock[T] = {
        if (!it.hasNext) throw new NoSuchElementException("no more records")
        val block = Array.newBuilder[AnyRef]
        var n = 0
        while (n < perBlock && it.hasNext) {
          block += it.next()
          n += 1
        }
        new RecordBlock[T](block.result())
      }
    }
  }

  // One per JVM: the executor's configuration (a test's default without Spark).
  private lazy val serializer = RecordSerializer(Option(SparkEnv.get).map(_.conf).getOrElse(new SparkConf(false)))

  private def encode(records: Array[AnyRef]): Array[Byte] = {
    val bytes = new ByteArrayOutputStream()
    val out = serializer.newInstance().serializeStream(bytes)
    out.writeObject[Any](records.length)
    records.foreach(r => out.writeObject[Any](r))
    out.close()
    bytes.toByteArray
  }

  private def decode(bytes: Array[Byte]): Array[AnyRef] = {
    val in = serializer.newInstance().deserializeStream(new ByteArrayInputStream(bytes))
    try Array.fill(in.readObject[Int]())(in.readObject[AnyRef]())
    finally in.close()
  }
}
