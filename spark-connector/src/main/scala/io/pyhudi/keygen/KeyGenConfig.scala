// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import org.apache.spark.sql.types.StructType

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors

/**
 * What a [[KeyGenerator]] needs, built from write options (and, for an existing table, its
 * `hoodie.properties`) by the caller.
 *
 * @param generator       which of Hudi's key generators to reproduce
 * @param recordKeyFields record key columns, dotted for nested fields (`a.b`)
 * @param partitionFields partition columns; empty for a non-partitioned table
 * @param hiveStyle       partition folders `field=value` rather than `value`
 * @param urlEncode       escape partition values ([[PartitionPathEncoding]])
 * @param timestamp       settings of the timestamp-based generator; required by it only
 */
final case class KeyGenConfig(
    generator: KeyGenType,
    recordKeyFields: Seq[String],
    partitionFields: Seq[String],
    hiveStyle: Boolean = false,
    urlEncode: Boolean = false,
    timestamp: Option[TimestampKeyGenConfig] = None)

object KeyGenConfig {
  import KeyGenType._

  private[keygen] val RecordKeyRole = "record key"
  private[keygen] val PartitionRole = "partition path"

  /**
   * Reads the key generation options ([[WriteConfig.KeyGenEntries]]) and checks them against
   * the schema of the rows to write. The generator is the class option, else the type option,
   * else inferred from the field counts as Hudi does ([[KeyGenType.infer]]).
   */
  def fromOptions(options: Map[String, String], schema: StructType): KeyGenConfig = {
    val keys = WriteConfig.RecordKeyField.from(options).filter(_.nonEmpty).getOrElse(
      throw Errors.missingOption(WriteConfig.RecordKeyField.key,
        "to write: pyhudi does not generate record keys"))
    val partitions = WriteConfig.PartitionPathField.from(options).getOrElse(Nil)
    val generator = WriteConfig.KeyGeneratorClass.from(options)
      .orElse(WriteConfig.KeyGeneratorType.from(options))
      .getOrElse(KeyGenType.infer(WriteConfig.PartitionPathField.key, keys, partitions))
    val timestamp =
      if (generator == TimestampBased) Some(TimestampKeyGenConfig.fromOptions(options)) else None
    val config = KeyGenConfig(generator, keys, partitions,
      WriteConfig.HiveStylePartitioning.from(options).getOrElse(false),
      WriteConfig.UrlEncodePartitionPath.from(options).getOrElse(false),
      timestamp)
    validate(config, schema)
    config
  }

  /**
   * Fails with a message naming the option or column at fault when `config` does not fit its
   * generator (field counts as Hudi enforces them) or `schema`.
   */
  def validate(config: KeyGenConfig, schema: StructType): Unit = resolve(config, schema)

  /** Validates and resolves the record key and partition fields, in order. */
  private[keygen] def resolve(config: KeyGenConfig, schema: StructType): (Seq[KeyField], Seq[KeyField]) = {
    val gen = config.generator.className.split('.').last
    val keys = config.recordKeyFields
    val parts = config.partitionFields
    def count(role: String, key: String, fields: Seq[String], expected: String, ok: Int => Boolean): Unit =
      if (!ok(fields.size)) throw Errors.keyFieldCount(gen, role, key, fields, expected)
    val keyKey = WriteConfig.RecordKeyField.key
    val partKey = WriteConfig.PartitionPathField.key
    config.generator match {
      case Simple | TimestampBased =>
        count(RecordKeyRole, keyKey, keys, "exactly one", _ == 1)
        count(PartitionRole, partKey, parts, "exactly one", _ == 1)
      case Complex => count(RecordKeyRole, keyKey, keys, "at least one", _ >= 1)
      case NonPartitioned =>
        count(RecordKeyRole, keyKey, keys, "at least one", _ >= 1)
        count(PartitionRole, partKey, parts, "no", _ == 0)
    }
    if (parts.exists(_.contains(':'))) throw Errors.customPartitionFields(partKey, parts.mkString(","))
    if (config.generator == TimestampBased && config.timestamp.isEmpty)
      throw Errors.missingOption(WriteConfig.TimebasedTimestampType.key, s"by $gen")
    config.timestamp.foreach(TimestampKeyGenConfig.validate)
    val keyFields = keys.map(KeyField.resolve(RecordKeyRole, _, schema))
    val partFields = parts.map(KeyField.resolve(PartitionRole, _, schema))
    if (config.generator == TimestampBased)
      TimestampPartitioner.checkType(partFields.head, config.timestamp.get.timeUnit)
    (keyFields, partFields)
  }
}
