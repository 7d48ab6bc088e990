// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.apache.avro.Schema
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.StructType

import io.pyhudi.avro.SparkToAvro
import io.pyhudi.index.bloom.{BloomFilter, BloomFilterType}
import io.pyhudi.merge.MergeMode
import io.pyhudi.schema.MetaFields
import io.pyhudi.storage.{SerializableConfiguration, Storage}
import io.pyhudi.timelineservice.TimelineServerMarkers
import io.pyhudi.write.commit.MarkerWriter

/** Bloom filter settings for base file footers. */
final case class BloomConfig(numEntries: Int, fpp: Double, filterType: BloomFilterType, maxEntries: Int) {
  def newFilter(): BloomFilter =
    if (filterType == BloomFilterType.Simple) BloomFilter.simple(numEntries, fpp)
    else BloomFilter.dynamic(numEntries, fpp, maxEntries)
}

/**
 * What every handle of one write needs, built on the driver.
 *
 * @param tableSchema     meta columns followed by the data columns
 * @param orderingOrdinal the precombine field's ordinal in `tableSchema`
 * @param readBase        reads a base file's rows in `tableSchema` (Spark's parquet reader)
 * @param tableName       `hoodie.table.name`, which names the Avro record of log blocks
 * @param maxLogFileSize  size at which a merge-on-read append rolls over to the next log file
 * @param timelineService host:port of the driver's timeline service that takes the markers, or
 *                        None for direct markers
 * @param partial         a partial-column write: its log blocks hold only these columns
 */
final case class HandleContext(
    basePath: String,
    instantTime: String,
    tableSchema: StructType,
    mergeMode: MergeMode,
    orderingOrdinal: Option[Int],
    bloom: BloomConfig,
    maxFileSize: Long,
    conf: SerializableConfiguration,
    writers: BaseFileWriterFactory,
    readBase: io.pyhudi.filegroup.BaseFile => Iterator[InternalRow],
    tableName: String,
    maxLogFileSize: Long = 1073741824L,
    timelineService: Option[String] = None,
    partial: Option[io.pyhudi.write.PartialColumns] = None) {

  /** Where this write's tasks record their markers. */
  def markers(storage: Storage): MarkerWriter =
    TimelineServerMarkers.writer(storage, basePath, instantTime, timelineService)

  def dataWidth: Int = tableSchema.size - 5

  /** The Avro writer schema of log data blocks: meta fields, then the data columns (§6.4). */
  @transient lazy val logSchema: Schema =
    SparkToAvro.withMetaFields(StructType(tableSchema.fields.drop(MetaFields.Names.size)), tableName)

  /**
   * The writer schema of this write's log data blocks: [[logSchema]], or a partial-column
   * write's columns only, naming its ordering column in the property [[io.pyhudi.logfile.PartialBlock.OrderingFieldProp]].
   */
  @transient lazy val dataBlockSchema: Schema = partial match {
    case None => logSchema
    case Some(p) =>
      val s = SparkToAvro.withMetaFields(
        StructType(logOrdinals.drop(MetaFields.Names.size).map(tableSchema(_))), tableName)
      p.orderingField.foreach(f => s.addProp(io.pyhudi.logfile.PartialBlock.OrderingFieldProp, f))
      s
  }

  /**
   * Ordinals of `tableSchema` that log data blocks hold: all, or for a partial-column write the
   * meta columns, the key and partition fields and the written columns.
   */
  def logOrdinals: IndexedSeq[Int] = partial match {
    case None => tableSchema.indices
    case Some(p) =>
      val kept = p.logColumns
      tableSchema.indices.filter(i => i < MetaFields.Names.size || kept(tableSchema(i).name))
  }

  def absolutePath(partitionPath: String, fileName: String): String =
    if (partitionPath.isEmpty) s"$basePath/$fileName" else s"$basePath/$partitionPath/$fileName"

  def relativePath(partitionPath: String, fileName: String): String =
    if (partitionPath.isEmpty) fileName else s"$partitionPath/$fileName"
}
