// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.config.WriteConfig._
import io.pyhudi.errors.InvalidOptionException

class KeyGenConfigSuite extends AnyFunSuite {
  import KeyGenType._

  private val schema = StructType(Seq(StructField("id", IntegerType), StructField("name", StringType),
      StructField("city", StringType), StructField("ts", LongType)))

  private val Keys = RecordKeyField.key
  private val Parts = PartitionPathField.key
  private val Type = KeyGeneratorType.key

  private def config(options: (String, String)*): KeyGenConfig =
    KeyGenConfig.fromOptions(options.toMap, schema)

  private def failure(options: (String, String)*): String =
    intercept[InvalidOptionException](config(options: _*)).getMessage

  test("generator classes and type names, in Hudi's spelling") {
    assert(KeyGenType.All.map(_.className) == Seq("org.apache.hudi.keygen.SimpleKeyGenerator",
      "org.apache.hudi.keygen.ComplexKeyGenerator", "org.apache.hudi.keygen.NonpartitionedKeyGenerator",
      "org.apache.hudi.keygen.TimestampBasedKeyGenerator"))
    KeyGenType.All.foreach { t =>
      assert(KeyGenType.fromClassName("k", t.className) == t)
      assert(KeyGenType.fromClassName("k", t.className.replace("KeyGenerator", "AvroKeyGenerator")) == t)
      assert(KeyGenType.fromTypeName("k", t.name.toLowerCase) == t)
    }
  }

  test("unknown generators list the valid values; custom ones are not supported yet") {
    val cls = failure(Keys -> "id", KeyGeneratorClass.key -> "com.acme.MyKeyGen")
    assert(cls.contains(KeyGeneratorClass.key) && cls.contains("com.acme.MyKeyGen") &&
      cls.contains("org.apache.hudi.keygen.ComplexKeyGenerator"))
    assert(failure(Keys -> "id", Type -> "fancy").contains("SIMPLE, COMPLEX, NON_PARTITION, TIMESTAMP"))
    Seq(KeyGeneratorClass.key -> "org.apache.hudi.keygen.CustomKeyGenerator",
      Type -> "custom", Parts -> "city:simple").foreach { option =>
      assert(failure(Keys -> "id", option).contains("not supported yet"), option)
    }
  }

  test("without class or type, the generator is inferred as Hudi infers it") {
    assert(config(Keys -> "id", Parts -> "city").generator == Simple)
    assert(config(Keys -> "id,name", Parts -> "city").generator == Complex)
    assert(config(Keys -> "id", Parts -> "city,name").generator == Complex)
    assert(config(Keys -> "id").generator == NonPartitioned)
    assert(config(Keys -> " id , name ").recordKeyFields == Seq("id", "name"))
  }

  test("the class wins over the type; booleans default to false") {
    val c = config(Keys -> "id", Parts -> "city", KeyGeneratorClass.key -> Complex.className,
      Type -> "SIMPLE", HiveStylePartitioning.key -> "TRUE")
    assert(c == KeyGenConfig(Complex, Seq("id"), Seq("city"), hiveStyle = true, urlEncode = false, None))
  }

  test("field counts are checked per generator") {
    assert(failure().contains(Keys))
    assert(failure(Keys -> "id,name", Parts -> "city", Type -> "simple")
        .contains("SimpleKeyGenerator takes exactly one record key field(s)"))
    assert(failure(Keys -> "id", Type -> "simple")
        .contains(s"exactly one partition path field(s) (option $Parts); got none"))
    assert(failure(Keys -> "id", Parts -> "city", Type -> "non_partition")
        .contains("takes no partition path field(s)"))
    assert(config(Keys -> "id", Type -> "complex").partitionFields.isEmpty)
  }

  test("columns must exist in the schema") {
    val msg = failure(Keys -> "id", Parts -> "town")
    assert(msg.contains("partition path field 'town'") && msg.contains("id, name, city, ts"))
  }

  test("timestamp-based: options, defaults and their checks") {
    val tsType = TimebasedTimestampType.key
    val base = Seq(Keys -> "id", Parts -> "ts", Type -> "timestamp",
      TimebasedOutputDateFormat.key -> "yyyy/MM/dd")
    def failing(extra: (String, String)*) = failure(base ++ extra: _*)
    assert(failing().contains(tsType))
    assert(config(base :+ (tsType -> "epochmilliseconds"): _*).timestamp.contains(
        TimestampKeyGenConfig("EPOCHMILLISECONDS", None, "yyyy/MM/dd", "UTC", "SECONDS")))
    assert(failing(tsType -> "MIXED").contains("not supported yet"))
    assert(failing(tsType -> "nope").contains("UNIX_TIMESTAMP, DATE_STRING"))
    assert(failing(tsType -> "DATE_STRING").contains(TimebasedInputDateFormat.key))
    assert(failing(tsType -> "SCALAR", TimebasedScalarTimeUnit.key -> "weeks").contains("NANOSECONDS"))
    assert(failing(tsType -> "SCALAR", TimebasedTimezone.key -> "Mars/Base").contains(TimebasedTimezone.key))
    val pattern = failing(tsType -> "SCALAR", TimebasedOutputDateFormat.key -> "yyyy/qq")
    assert(pattern.contains("'q'") && pattern.contains(TimebasedOutputDateFormat.key))
    assert(failing(tsType -> "SCALAR", Keys -> "id,name").contains("exactly one record key"))
    assert(failing(tsType -> "SCALAR", Parts -> "city").contains("'city' has type string"))
  }

  test("the key generation entries are registered under Hudi's names") {
    assert(KeyGenEntries.map(_.key) == Seq("hoodie.datasource.write.recordkey.field",
      "hoodie.datasource.write.partitionpath.field", "hoodie.datasource.write.keygenerator.class",
      "hoodie.datasource.write.keygenerator.type", "hoodie.datasource.write.hive_style_partitioning",
      "hoodie.datasource.write.partitionpath.urlencode", "hoodie.keygen.timebased.timestamp.type",
      "hoodie.keygen.timebased.timestamp.scalar.time.unit", "hoodie.keygen.timebased.input.dateformat",
      "hoodie.keygen.timebased.output.dateformat", "hoodie.keygen.timebased.timezone"))
    assert(KeyGenEntries.forall(entries.contains))
    assert(HiveStylePartitioning.defaultText == "false" && UrlEncodePartitionPath.defaultText == "false")
    assert(TimebasedTimezone.defaultText == "UTC")
  }
}
