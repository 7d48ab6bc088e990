package io.pyhudi.config

import io.pyhudi.keygen.{KeyGenType, TimestampKeyGenConfig}

/**
 * Options of `df.write.format("pyhudi")`, with Apache Hudi's key names. Entries are grouped by
 * concern; each group is listed in its own `...Entries` sequence and in [[entries]].
 */
object WriteConfig {

  // Key generation: record keys and partition paths (hudi-format.md §1.6).

  val RecordKeyField: ConfigEntry[Seq[String]] = list(
    "hoodie.datasource.write.recordkey.field",
    "Comma-separated record key columns; nested fields as a.b. Required: pyhudi does not " +
      "generate keys. One field gives keys like 1; the complex key generator gives id:1,name:Alice.")

  val PartitionPathField: ConfigEntry[Seq[String]] = list(
    "hoodie.datasource.write.partitionpath.field",
    "Comma-separated partition columns; nested fields as a.b. Unset for a non-partitioned table.")

  val KeyGeneratorClass: ConfigEntry[KeyGenType] = ConfigEntry[KeyGenType](
    "hoodie.datasource.write.keygenerator.class",
    None,
    "Hudi key generator class; wins over the type option. When neither is set: no partition " +
      "field gives the non-partitioned generator, one key field and one partition field the " +
      "simple one, anything else the complex one.",
    KeyGenType.fromClassName,
    KeyGenType.All.map(_.className),
    _.className)

  val KeyGeneratorType: ConfigEntry[KeyGenType] = ConfigEntry[KeyGenType](
    "hoodie.datasource.write.keygenerator.type",
    None,
    "Key generator by type name (case-insensitive), used when no class is given.",
    KeyGenType.fromTypeName,
    KeyGenType.All.map(_.name),
    _.name)

  val HiveStylePartitioning: ConfigEntry[Boolean] = ConfigEntry.boolean(
    "hoodie.datasource.write.hive_style_partitioning",
    default = false,
    "Name partition folders column=value instead of value.")

  val UrlEncodePartitionPath: ConfigEntry[Boolean] = ConfigEntry.boolean(
    "hoodie.datasource.write.partitionpath.urlencode",
    default = false,
    "Escape characters such as / : = % in partition values as %XX (Hive escaping).")

  val TimebasedTimestampType: ConfigEntry[String] = ConfigEntry[String](
    "hoodie.keygen.timebased.timestamp.type",
    None,
    "Timestamp-based key generator: how the partition field is read. UNIX_TIMESTAMP: seconds; " +
      "EPOCHMILLISECONDS: milliseconds; SCALAR: numbers in the scalar time unit; DATE_STRING: " +
      "text in the input date format. Timestamp and date columns are read as instants.",
    TimestampKeyGenConfig.parseType,
    TimestampKeyGenConfig.TimestampTypes)

  val TimebasedScalarTimeUnit: ConfigEntry[String] = ConfigEntry[String](
    "hoodie.keygen.timebased.timestamp.scalar.time.unit",
    Some(TimestampKeyGenConfig.DefaultScalarTimeUnit),
    "Timestamp-based key generator, SCALAR type: the unit of the numbers.",
    TimestampKeyGenConfig.parseTimeUnit,
    TimestampKeyGenConfig.TimeUnits)

  val TimebasedInputDateFormat: ConfigEntry[String] = ConfigEntry[String](
    "hoodie.keygen.timebased.input.dateformat",
    None,
    "Timestamp-based key generator, DATE_STRING type: Joda-Time pattern(s) of the text, comma " +
      "separated, e.g. yyyy-MM-dd'T'HH:mm:ss.SSSZ.",
    (k, v) => { TimestampKeyGenConfig.parsePatterns(k, v); v.trim })

  val TimebasedOutputDateFormat: ConfigEntry[String] = ConfigEntry[String](
    "hoodie.keygen.timebased.output.dateformat",
    None,
    "Timestamp-based key generator: Joda-Time pattern of the partition path, e.g. yyyy/MM/dd/HH.",
    (k, v) => { TimestampKeyGenConfig.parsePattern(k, v); v })

  val TimebasedTimezone: ConfigEntry[String] = ConfigEntry[String](
    "hoodie.keygen.timebased.timezone",
    Some(TimestampKeyGenConfig.DefaultTimezone),
    "Timestamp-based key generator: zone in which the partition path is formatted and in " +
      "which input text without an offset is read.",
    (k, v) => { TimestampKeyGenConfig.parseZone(k, v); v.trim })

  val KeyGenEntries: Seq[ConfigEntry[_]] = Seq(RecordKeyField, PartitionPathField,
    KeyGeneratorClass, KeyGeneratorType, HiveStylePartitioning, UrlEncodePartitionPath,
    TimebasedTimestampType, TimebasedScalarTimeUnit, TimebasedInputDateFormat, TimebasedOutputDateFormat,
    TimebasedTimezone)

  /** Every write option. */
  val entries: Seq[ConfigEntry[_]] = KeyGenEntries

  private def list(key: String, doc: String): ConfigEntry[Seq[String]] =
    ConfigEntry[Seq[String]](key, None, doc,
      (_, v) => v.split(',').toSeq.map(_.trim).filter(_.nonEmpty), render = _.mkString(","))
}
