// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark

import scala.util.Try

import com.esotericsoftware.kryo.Kryo
import com.esotericsoftware.kryo.serializers.JavaSerializer
import org.apache.spark.serializer.KryoRegistrator

/**
 * Registers with Kryo the classes that pyhudi's jobs ship through `spark.serializer`: task
 * results (file slices, written files, tagging counts, deleted files, found locations),
 * broadcast values (key ranges, the Bloom filter of the incoming keys, a write's shared context)
 * and cached record blocks spilled to disk. Under `spark.kryo.registrationRequired=true` Kryo
 * refuses every class not registered, and each write failed on the first of these.
 *
 * `pyhudi.configure_spark` adds it to `spark.kryo.registrator`; from `spark-submit`, pass
 * `--conf spark.kryo.registrator=io.pyhudi.spark.PyhudiKryoRegistrator`. Spark instantiates it
 * on the driver and in each executor, in the same order, so every side assigns the same ids.
 */
class PyhudiKryoRegistrator extends KryoRegistrator {
  override def registerClasses(kryo: Kryo): Unit = {
    PyhudiKryoRegistrator.javaSerialized.foreach(c => kryo.register(c, new JavaSerializer()))
    PyhudiKryoRegistrator.kryoSerialized.foreach(c => kryo.register(c))
  }
}

object PyhudiKryoRegistrator {

  /**
   * Written with Java serialization inside Kryo's stream. These are small metadata objects whose
   * fields hold Scala collections and options, whose concrete classes change with their size
   * (`Set1` ... `HashSet`), and Java serialization is how they travel under Spark's default
   * serializer: the same bytes as every other run, and nothing under them to register.
   */
  val javaSerialized: Seq[Class[_]] = Seq(
    classOf[io.pyhudi.filegroup.BaseFile],
    classOf[io.pyhudi.filegroup.FileGroupId],
    classOf[io.pyhudi.filegroup.FileSlice],
    classOf[io.pyhudi.filegroup.LogFile],
    classOf[io.pyhudi.index.bloom.KeyRanges],
    classOf[io.pyhudi.services.clean.DeleteResult],
    classOf[io.pyhudi.spark.write.ExecutorShared[_]],
    classOf[io.pyhudi.write.handle.HandleResult],
    classOf[io.pyhudi.write.plan.Tagging]) ++
    // Spark's Bloom filter of the incoming keys, which writes itself compactly: package-private,
    // and its class depends on the version (V2 from Spark 4.1).
    Seq("org.apache.spark.util.sketch.BloomFilterImpl", "org.apache.spark.util.sketch.BloomFilterImplV2")
      .flatMap(name => Try(Class.forName(name, false, getClass.getClassLoader)).toOption)

  /**
   * Written by Kryo: arrays of the above (collected results), blocks that serialize themselves,
   * and the found keys' locations, two strings that also cross the write's shuffles with every
   * routed record ([[io.pyhudi.spark.write.RecordSerializer]] runs this registrator too).
   */
  val kryoSerialized: Seq[Class[_]] = Seq(
    classOf[io.pyhudi.write.Location],
    classOf[Array[io.pyhudi.filegroup.FileSlice]],
    classOf[Array[io.pyhudi.services.clean.DeleteResult]],
    classOf[Array[io.pyhudi.write.handle.HandleResult]],
    classOf[Array[io.pyhudi.write.plan.Tagging]],
    classOf[Array[Array[(Any, Any)]]], // the partitions of a collected pair RDD
    classOf[io.pyhudi.spark.write.RecordBlock[_]])
}
