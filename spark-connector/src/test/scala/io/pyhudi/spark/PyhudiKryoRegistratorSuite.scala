// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark

import org.apache.spark.SparkConf
import org.apache.spark.serializer.KryoSerializer
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection
import org.apache.spark.sql.types.{LongType, StringType, StructField, StructType}
import org.apache.spark.unsafe.types.UTF8String
import org.apache.spark.util.sketch.BloomFilter
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, LogFile}
import io.pyhudi.index.bloom.KeyRanges
import io.pyhudi.services.clean.DeleteResult
import io.pyhudi.spark.write.{ExecutorShared, RecordBlock, RecordSerializer}
import io.pyhudi.write.{Location, WriteRecord}
import io.pyhudi.write.handle.HandleResult
import io.pyhudi.write.plan.Tagging

class PyhudiKryoRegistratorSuite extends AnyFunSuite {

  private def kryo(registrator: Option[String]): KryoSerializer = {
    val conf = new SparkConf(false).set("spark.kryo.registrationRequired", "true")
    registrator.foreach(conf.set("spark.kryo.registrator", _))
    new KryoSerializer(conf)
  }

  private def roundTrip[T](value: T, serializer: KryoSerializer): T = {
    val instance = serializer.newInstance()
    instance.deserialize[Any](instance.serialize[Any](value)).asInstanceOf[T]
  }

  private val location = Location("day=2026-01-02", "f-2")
  private val slice = FileSlice(FileGroupId("day=2026-01-02", "f-2"), "20260102000000000",
    Some(BaseFile("day=2026-01-02/f-2_0-1-2_20260102000000000.parquet", "f-2", "0-1-2", "20260102000000000", 10L)),
    Seq(LogFile("day=2026-01-02/.f-2_20260102000000000.log.1_0-1-3", "f-2", "20260102000000000", 1, "0-1-3", 5L)))
  private val written = HandleResult("day=2026-01-02", "f-2", "day=2026-01-02/f-2.parquet", Some("20260101000000000"),
    numWrites = 3, numInserts = 1, numUpdates = 2, numDeletes = 0, fileSize = 100, minKey = "a", maxKey = "c",
    timeMillis = 7, logFiles = Seq("x.log.1"))
  // Sizes on both sides of Scala's small-collection classes (Set1..Set4, then HashSet).
  private val tagging = Tagging((1 to 6).map(i => Location(s"p$i", s"f$i")).toSet, Map("p1" -> 3L), located = 6)

  test("what pyhudi's jobs ship through spark.serializer comes back equal under registrationRequired") {
    val serializer = kryo(Some(classOf[PyhudiKryoRegistrator].getName))
    val results: Seq[Any] = Seq(slice, Array(slice), written, Array(written), tagging, Array(tagging),
      Tagging(Set(location), Map.empty, 1), location, DeleteResult("a/b.parquet", deleted = true),
      Array(DeleteResult("a/b.parquet", deleted = false)))
    results.foreach {
      case a: Array[_] => assert(roundTrip(a, serializer).toSeq == a.toSeq)
      case v => assert(roundTrip(v, serializer) == v)
    }
    val pairs = Array(Array("k1" -> location, "k2" -> location), Array.empty[(String, Location)])
    assert(roundTrip(pairs, serializer).map(_.toSeq).toSeq == pairs.map(_.toSeq).toSeq)

    val ranges = roundTrip(new KeyRanges(Seq((0, "p", Some("b"), Some("d")), (1, "p", None, None)), global = false,
        pruneByRanges = true), serializer)
    assert(ranges.candidates("p", "c") == Seq(0, 1) && ranges.candidates("p", "z") == Seq(1))

    val filter = BloomFilter.create(100, 0.01)
    Seq("k1", "k2").foreach(k => filter.putBinary(k.getBytes))
    val back = roundTrip(Option(filter), serializer).get
    assert(back.mightContainBinary("k1".getBytes) && back == filter)

    val shared = roundTrip(ExecutorShared.of(Map("conf" -> "value")), serializer)
    assert(shared.value == Map("conf" -> "value"))
  }

  // The shuffles' serializer takes the user's spark.kryo.* settings, registrators included: the
  // locations routed with every record keep Kryo's field encoding, not a Java stream each.
  test("the shuffles' locations stay compact with the registrator set") {
    val conf = new SparkConf(false).set("spark.kryo.registrator", classOf[PyhudiKryoRegistrator].getName)
    val instance = RecordSerializer(conf).newInstance()
    val bytes = instance.serialize[Any](location).remaining()
    assert(bytes < 40, s"$bytes bytes")
    assert(instance.deserialize[Any](instance.serialize[Any](location)) == location)
  }

  // A cached block goes through spark.serializer when memory is short and Spark spills it.
  test("a spilled record block comes back with its records") {
    val schema = StructType(Seq(StructField("id", LongType), StructField("name", StringType)))
    val project = UnsafeProjection.create(schema)
    val records = (1 to 5).map { i =>
      WriteRecord(s"k$i", "p", project(InternalRow(i.toLong, UTF8String.fromString(s"n$i"))).copy(), Long.box(i),
        isDelete = false)
    }
    val blocks = RecordBlock.blocks(records.iterator, 10).toSeq
    assert(blocks.size == 1)
    val block = blocks.head
    val back = roundTrip(block, kryo(Some(classOf[PyhudiKryoRegistrator].getName))).iterator.toSeq
    assert(back.map(r => (r.key, r.row, r.ordering)) == records.map(r => (r.key, r.row, r.ordering)))
  }

  // Without the registrator the same settings refuse the first of them: what every write hit.
  test("without the registrator, registrationRequired refuses pyhudi's classes") {
    val e = intercept[IllegalArgumentException](roundTrip(tagging, kryo(None)))
    assert(e.getMessage.contains("Class is not registered: io.pyhudi.write.plan.Tagging"))
  }

  test("every class registered for Java serialization is java.io.Serializable") {
    PyhudiKryoRegistrator.javaSerialized.foreach(c => assert(classOf[java.io.Serializable].isAssignableFrom(c), c))
  }
}
