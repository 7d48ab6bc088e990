// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import java.io.{ByteArrayInputStream, ByteArrayOutputStream}

import org.apache.spark.SparkConf
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.write.{Location, WriteRecord}

class RecordSerializerSuite extends AnyFunSuite {

  private val schema = StructType(Seq(StructField("id", LongType), StructField("name", StringType),
      StructField("fare", DecimalType(10, 2))))
  private val project = UnsafeProjection.create(schema)
  private def row(id: Long, name: String) =
    project(InternalRow(id, UTF8String.fromString(name), Decimal(BigDecimal(id) / 100, 10, 2))).copy()

  private def roundTrip[T](items: Seq[T], conf: SparkConf = new SparkConf(false)): Seq[T] = {
    val instance = RecordSerializer(conf).newInstance()
    val bytes = new ByteArrayOutputStream()
    val out = instance.serializeStream(bytes)
    items.foreach(i => out.writeObject[Any](i))
    out.close()
    val in = instance.deserializeStream(new ByteArrayInputStream(bytes.toByteArray))
    in.asIterator.map(_.asInstanceOf[T]).toList
  }

  // The shuffles' elements: keyed records (the same partition path object in many records, one
  // record object twice), records routed with their file group, found keys with their location.
  test("the shuffles' elements come back equal, shared objects and all, whatever spark.kryo.* says") {
    val partition = "day=2026-01-01"
    val same = WriteRecord("k2", partition, row(2L, "b"), java.lang.Long.valueOf(7L), isDelete = false)
    val keyed: Seq[((String, String), WriteRecord)] = Seq(
      (partition, "k1") -> WriteRecord("k1", partition, row(1L, "a"), 5L, isDelete = false),
      (partition, "k2") -> same,
      (partition, "k2") -> same,
      (partition, "k3") -> WriteRecord("k3", partition, null, null, isDelete = true))
    val location = Location(partition, "f-1")
    val routed: Seq[(WriteRecord, Option[Location])] =
      Seq(same -> Some(location), keyed.head._2 -> Some(location), keyed(3)._2 -> None)
    val found = Seq("k1" -> location, "k2" -> location)
    val userConf = new SparkConf(false).set("spark.kryo.referenceTracking", "true")
      .set("spark.kryo.registrationRequired", "true")
    Seq(new SparkConf(false), userConf).foreach { conf =>
      val k = roundTrip(keyed, conf)
      assert(k.map(_._1) == keyed.map(_._1))
      assert(k.map(_._2.key) == keyed.map(_._2.key) && k.map(_._2.ordering) == keyed.map(_._2.ordering))
      assert(k.map(_._2.row) == keyed.map(_._2.row)) // UnsafeRows compare by their bytes
      assert(k.map(r => Option(r._2.row).map(_.getUTF8String(1).toString)) == Seq(Some("a"), Some("b"), Some("b"),
        None))
      assert(roundTrip(routed, conf).map { case (r, l) => (r.key, r.isDelete, l) } ==
        routed.map { case (r, l) => (r.key, r.isDelete, l) })
      assert(roundTrip(found, conf) == found)
    }
  }

  // A shuffle's serializer is deserialized with each task; each copy would start an empty pool of
  // Kryo instances, and a map task borrows one per reduce partition.
  test("one serializer per JVM and settings: a deserialized copy is that instance") {
    val conf = new SparkConf(false).set("spark.kryoserializer.buffer", "128k").set("spark.app.name", "a")
    val s = RecordSerializer(conf)
    assert(RecordSerializer(conf.clone().set("spark.app.name", "b")) eq s) // Kryo reads spark.kryo* only
    assert(!(RecordSerializer(conf.clone().set("spark.kryo.referenceTracking", "false")) eq s))
    val bytes = new ByteArrayOutputStream()
    val out = new java.io.ObjectOutputStream(bytes)
    out.writeObject(s)
    out.close()
    val copy = new java.io.ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray)).readObject()
    assert(copy eq s)
  }
}
