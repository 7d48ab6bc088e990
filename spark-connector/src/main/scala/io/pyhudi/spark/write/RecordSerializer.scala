// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import org.apache.spark.SparkConf
import org.apache.spark.serializer.{KryoSerializer, Serializer}

/**
 * The serializer of the shuffles that move every incoming record (de-duplication, routing to
 * file groups). Spark's default, Java serialization, writes a class descriptor and boxes every
 * field of each record; Kryo with the record classes registered writes the key, the partition
 * path and the row's bytes. The session's `spark.serializer` is left as the user set it.
 */
object RecordSerializer {

  def apply(conf: SparkConf): Serializer = {
    val own = conf.clone()
      .set("spark.kryo.registrationRequired", "false")
      .set("spark.kryo.classesToRegister",
        Seq(classOf[io.pyhudi.write.WriteRecord].getName, classOf[io.pyhudi.write.Location].getName)
          .mkString(","))
    new KryoSerializer(own)
  }
}
