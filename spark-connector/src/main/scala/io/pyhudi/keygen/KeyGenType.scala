// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import java.util.Locale

import io.pyhudi.errors.Errors

/**
 * One of Hudi's built-in key generators. `name` is its `hoodie.datasource.write.keygenerator.type`
 * value and `className` what Hudi records as `hoodie.table.keygenerator.class`.
 */
sealed abstract class KeyGenType(val name: String, val className: String) extends Serializable {
  override def toString: String = name
}

// Class names are spelled out: a case object must not read its companion's fields while the
// companion's own initialisation (which lists the case objects) may be running.
object KeyGenType {

  /** Value is the record-key field; partition path is one field's value. */
  case object Simple extends KeyGenType("SIMPLE", "org.apache.hudi.keygen.SimpleKeyGenerator")

  /** `f1:v1,f2:v2` record keys; partition path is one or more field values joined by `/`. */
  case object Complex extends KeyGenType("COMPLEX", "org.apache.hudi.keygen.ComplexKeyGenerator")

  /** Every record in the single partition `""`. */
  case object NonPartitioned
      extends KeyGenType("NON_PARTITION", "org.apache.hudi.keygen.NonpartitionedKeyGenerator")

  /** Partition path formatted from one timestamp-like field (`hoodie.keygen.timebased.*`). */
  case object TimestampBased
      extends KeyGenType("TIMESTAMP", "org.apache.hudi.keygen.TimestampBasedKeyGenerator")

  val All: Seq[KeyGenType] = Seq(Simple, Complex, NonPartitioned, TimestampBased)

  /** Hudi generators this connector recognises but cannot write with yet. */
  private val UnsupportedTypes = Seq("CUSTOM", "GLOBAL_DELETE")
  private val UnsupportedClasses = Seq("CustomKeyGenerator", "CustomAvroKeyGenerator",
    "GlobalDeleteKeyGenerator", "GlobalAvroDeleteKeyGenerator").map("org.apache.hudi.keygen." + _)

  /** Parses a key generator class name; Hudi's Avro variants map to the same generator. */
  def fromClassName(key: String, value: String): KeyGenType = {
    val v = value.trim
    All.find(t => t.className == v || avroClassName(t) == v).getOrElse {
      if (UnsupportedClasses.contains(v))
        throw Errors.unsupportedKeyGenerator(key, value, All.map(_.className))
      throw Errors.invalidEnumOption(key, value, All.map(_.className))
    }
  }

  /** Parses a `hoodie.datasource.write.keygenerator.type` value, case-insensitively. */
  def fromTypeName(key: String, value: String): KeyGenType = {
    val v = value.trim.toUpperCase(Locale.ROOT)
    All.find(_.name == v).getOrElse {
      if (UnsupportedTypes.contains(v)) throw Errors.unsupportedKeyGenerator(key, value, All.map(_.name))
      throw Errors.invalidEnumOption(key, value, All.map(_.name))
    }
  }

  /**
   * Hudi's choice when neither class nor type is set: no partition field → non-partitioned, one
   * record-key field and one partition field → simple, otherwise complex. Partition fields in
   * the custom generator's `field:type` form are refused.
   */
  def infer(key: String, recordKeyFields: Seq[String], partitionFields: Seq[String]): KeyGenType =
    if (partitionFields.exists(_.contains(':')))
      throw Errors.customPartitionFields(key, partitionFields.mkString(","))
    else if (partitionFields.isEmpty) NonPartitioned
    else if (partitionFields.size == 1 && recordKeyFields.size <= 1) Simple
    else Complex

  /**
   * Whether `t`, with `keyFields` record key fields, writes the one field's value as the record
   * key (`_hoodie_record_key`), as Hudi's simple key generator and its subclasses do; the complex
   * generator writes `field:value` even for one field.
   */
  def keyIsFieldValue(t: KeyGenType, keyFields: Int): Boolean = keyFields == 1 && (t match {
    case Simple | TimestampBased | NonPartitioned => true
    case Complex => false
  })

  /** Hudi's engine-neutral twin, e.g. `SimpleAvroKeyGenerator`, which writes the same keys. */
  private def avroClassName(t: KeyGenType): String =
    t.className.replace("KeyGenerator", "AvroKeyGenerator")
}
