// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, ObjectInputStream, ObjectOutputStream}

import org.apache.hadoop.conf.Configuration
import org.apache.spark.SparkConf
import org.apache.spark.serializer.{JavaSerializer, KryoSerializer}
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.storage.SerializableConfiguration

/** The holder survives both of Spark's serializers and deserializes its value once. */
class ExecutorSharedSuite extends AnyFunSuite {

  /** What a write shares with its tasks: a Hadoop configuration among plain fields. */
  private def value: (String, SerializableConfiguration, Seq[Int]) = {
    val conf = new Configuration(false)
    conf.set("pyhudi.test.key", "shared")
    ("ctx", new SerializableConfiguration(conf), Seq(1, 2, 3))
  }

  private def check(shipped: ExecutorShared[(String, SerializableConfiguration, Seq[Int])]): Unit = {
    val first = shipped.value
    assert(first._1 == "ctx")
    assert(first._2.value.get("pyhudi.test.key") == "shared")
    assert(first._3 == Seq(1, 2, 3))
    assert(shipped.value eq first, "a second read deserialized the value again")
  }

  private def roundTrip[T](serializer: org.apache.spark.serializer.Serializer, v: T)(
      implicit tag: scala.reflect.ClassTag[T]): T = {
    val instance = serializer.newInstance()
    instance.deserialize[T](instance.serialize(v))
  }

  test(
    "the value comes back whole through Kryo, which ships a SerializableConfiguration as is without its configuration") {
    check(roundTrip(new KryoSerializer(new SparkConf()), ExecutorShared.of(value)))
  }

  test("the value comes back whole through Java serialization") {
    check(roundTrip(new JavaSerializer(new SparkConf()), ExecutorShared.of(value)))
    val bytes = new ByteArrayOutputStream()
    val out = new ObjectOutputStream(bytes)
    out.writeObject(ExecutorShared.of(value))
    out.close()
    val back = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray)).readObject()
    check(back.asInstanceOf[ExecutorShared[(String, SerializableConfiguration, Seq[Int])]])
  }

  test("the value is a copy: changes to the original after sharing do not reach the tasks") {
    val original = value
    val shared = ExecutorShared.of(original)
    original._2.value.set("pyhudi.test.key", "changed")
    assert(shared.value._2.value.get("pyhudi.test.key") == "shared")
  }
}
