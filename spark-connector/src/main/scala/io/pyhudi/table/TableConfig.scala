// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import java.io.ByteArrayInputStream
import java.util.Properties

import scala.jdk.CollectionConverters._

import io.pyhudi.errors.Errors

/**
 * The persisted table config (`.hoodie/hoodie.properties`) with typed accessors. Key names and
 * defaults are Apache Hudi's.
 */
final case class TableConfig(props: Map[String, String], basePath: String) {
  import TableConfig._

  /**
   * The stored value of `key`. Tables that Apache Hudi 1.x creates at version 6 spell two keys
   * the 1.x way, so those are read as fallbacks: `hoodie.table.ordering.fields` for the
   * precombine field and `hoodie.table.keygenerator.type` for the key generator class.
   */
  def get(key: String): Option[String] = raw(key).orElse(key match {
    case PrecombineField => raw(OrderingFields)
    case KeyGeneratorClass => raw(KeyGeneratorType).map(keyGeneratorClassOfType)
    case _ => None
  })

  private def raw(key: String): Option[String] = props.get(key).map(_.trim).filter(_.nonEmpty)

  def name: String = get(Name).getOrElse(throw Errors.missingTableProperty(basePath, Name))

  def databaseName: Option[String] = get(DatabaseName)

  def version: Int = get(Version).map(v =>
    v.toIntOption.getOrElse(throw Errors.badTableProperty(basePath, Version, v, "not a number")))
    .getOrElse(throw Errors.missingTableProperty(basePath, Version))

  def tableType: TableType = get(Type).map(t =>
    TableType.parse(t).getOrElse(
      throw Errors.badTableProperty(basePath, Type, t,
        s"expected one of ${TableType.All.map(_.name).mkString(", ")}")))
    .getOrElse(TableType.CopyOnWrite)

  def recordKeyFields: Seq[String] = list(RecordKeyFields)

  /** Partition columns; `field:type` entries (custom key generator) keep only the field. */
  def partitionFields: Seq[String] = list(PartitionFields).map(_.split(':').head)

  def precombineField: Option[String] = get(PrecombineField)

  def keyGeneratorClass: Option[String] = get(KeyGeneratorClass)

  def hiveStylePartitioning: Boolean = bool(HiveStylePartitioning, default = false)

  def urlEncodePartitioning: Boolean = bool(UrlEncodePartitioning, default = false)

  def dropPartitionColumns: Boolean = bool(DropPartitionColumns, default = false)

  def populateMetaFields: Boolean = bool(PopulateMetaFields, default = true)

  def createSchema: Option[String] = get(CreateSchema)

  def payloadClass: Option[String] = get(PayloadClass)

  def timelineLayoutVersion: Option[String] = get(TimelineLayoutVersion)

  /** Partition values are derived from a timestamp column, so they do not equal column values. */
  def isTimestampKeyGen: Boolean = keyGeneratorClass.exists(_.endsWith("TimestampBasedKeyGenerator"))

  private def list(key: String): Seq[String] =
    get(key).toSeq.flatMap(_.split(',')).map(_.trim).filter(_.nonEmpty)

  private def bool(key: String, default: Boolean): Boolean = get(key) match {
    case None => default
    case Some(v) if v.equalsIgnoreCase("true") => true
    case Some(v) if v.equalsIgnoreCase("false") => false
    case Some(v) => throw Errors.badTableProperty(basePath, key, v, "expected true or false")
  }
}

object TableConfig {
  val Name = "hoodie.table.name"
  val DatabaseName = "hoodie.database.name"
  val Type = "hoodie.table.type"
  val Version = "hoodie.table.version"
  val TimelineLayoutVersion = "hoodie.timeline.layout.version"
  val RecordKeyFields = "hoodie.table.recordkey.fields"
  val PartitionFields = "hoodie.table.partition.fields"
  val PrecombineField = "hoodie.table.precombine.field"
  val KeyGeneratorClass = "hoodie.table.keygenerator.class"
  val HiveStylePartitioning = "hoodie.datasource.write.hive_style_partitioning"
  val UrlEncodePartitioning = "hoodie.datasource.write.partitionpath.urlencode"
  val DropPartitionColumns = "hoodie.datasource.write.drop.partition.columns"
  val PopulateMetaFields = "hoodie.populate.meta.fields"
  val CreateSchema = "hoodie.table.create.schema"
  val PayloadClass = "hoodie.compaction.payload.class"
  val Checksum = "hoodie.table.checksum"
  val ArchiveLogFolder = "hoodie.archivelog.folder"
  val TimelineTimezone = "hoodie.table.timeline.timezone"

  /** Apache Hudi 1.x's name for the precombine field(s). */
  val OrderingFields = "hoodie.table.ordering.fields"

  /** Apache Hudi 1.x records the key generator's type name instead of its class. */
  val KeyGeneratorType = "hoodie.table.keygenerator.type"

  /** Apache Hudi's record merger strategy id, recorded by new tables. */
  val RecordMergerStrategy = "hoodie.compaction.record.merger.strategy"

  /** The id of Hudi's default strategy (merge by payload class and ordering value). */
  val DefaultRecordMergerStrategy = "eeb8d96f-b1e4-49fd-bbf8-28ac514178e5"

  /** The metadata table partitions that Hudi readers and writers trust (see [[MetadataTable]]). */
  val MetadataPartitions = "hoodie.table.metadata.partitions"
  val MetadataPartitionsInflight = "hoodie.table.metadata.partitions.inflight"

  /** The class Hudi means by a `hoodie.table.keygenerator.type` value (Hudi's own naming rule). */
  private def keyGeneratorClassOfType(t: String): String =
    io.pyhudi.keygen.KeyGenType.All.find(_.name.equalsIgnoreCase(t)).map(_.className).getOrElse {
      val camel = t.toLowerCase(java.util.Locale.ROOT).split('_').map(_.capitalize).mkString
      s"org.apache.hudi.keygen.${camel}KeyGenerator"
    }

  /** Table versions this connector reads. */
  val SupportedVersions: Seq[Int] = Seq(6)

  /** Parses a Java properties file (escapes such as `\:` are undone). */
  def parse(bytes: Array[Byte], basePath: String): TableConfig = {
    val p = new Properties()
    p.load(new ByteArrayInputStream(bytes))
    TableConfig(p.asScala.toMap, basePath)
  }

  /** Fails with a message naming the problem when the table cannot be read. */
  def validate(c: TableConfig): Unit = {
    val v = c.get(Version).getOrElse(throw Errors.missingTableProperty(c.basePath, Version))
    if (!v.toIntOption.exists(SupportedVersions.contains))
      throw Errors.unsupportedTableVersion(c.basePath, v, SupportedVersions)
    c.timelineLayoutVersion.foreach { l =>
      if (l != "1") throw Errors.badTableProperty(c.basePath, TimelineLayoutVersion, l,
        "pyhudi reads timeline layout version 1 (table version 6)")
    }
    if (c.dropPartitionColumns)
      throw Errors.badTableProperty(c.basePath, DropPartitionColumns, "true",
        "tables whose data files omit the partition columns are not supported")
    c.name
    c.tableType
    c.populateMetaFields
  }
}
