// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import java.util.concurrent.ConcurrentHashMap

import org.apache.spark.SparkConf
import org.apache.spark.serializer.{KryoSerializer, Serializer}

/**
 * The serializer of the shuffles that move every incoming record (de-duplication, routing to
 * file groups). Spark's default, Java serialization, writes a class descriptor and boxes every
 * field of each record; Kryo with the record classes registered writes the key, the partition
 * path and the row's bytes. The session's `spark.serializer` is left as the user set it.
 *
 * One instance per JVM and settings: a shuffle's serializer travels with each task, and a
 * serializer deserialized per task starts with an empty pool of Kryo instances. A map task of
 * the bypass-merge shuffle opens a stream per reduce partition, each borrowing a Kryo, so every
 * task built one per partition (2% of the CPU of a 10% upsert into 5M rows, in the profile).
 */
object RecordSerializer {

  def apply(conf: SparkConf): Serializer = shared(settings(conf))

  /** The settings Kryo reads, with the record classes registered and registration optional. */
  private def settings(conf: SparkConf): Seq[(String, String)] =
    (conf.getAll.filter(_._1.startsWith("spark.kryo")).toMap ++ Map(
      "spark.kryo.registrationRequired" -> "false",
      "spark.kryo.classesToRegister" ->
        Seq(classOf[io.pyhudi.write.WriteRecord].getName, classOf[io.pyhudi.write.Location].getName)
          .mkString(","))).toSeq.sorted

  private val instances = new ConcurrentHashMap[Seq[(String, String)], Shared]()

  private def shared(settings: Seq[(String, String)]): Shared =
    instances.computeIfAbsent(settings, s => new Shared(s))

  /** A Kryo serializer that deserializes as this JVM's instance of its settings, pool and all. */
  final class Shared private[RecordSerializer] (val settings: Seq[(String, String)])
      extends KryoSerializer(new SparkConf(false).setAll(settings)) {
    private def readResolve(): AnyRef = shared(settings)
  }
}
