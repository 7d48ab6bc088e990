// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors
import io.pyhudi.index.IndexType
import io.pyhudi.keygen.KeyGenConfig
import io.pyhudi.merge.MergeMode
import io.pyhudi.table.{TableConfig, TableType}
import io.pyhudi.write.handle.BloomConfig
import io.pyhudi.write.plan.FileSizing

/** A write's options, resolved against the table's stored config and checked for conflicts. */
final case class WriteSpec(
    tableName: String,
    databaseName: Option[String],
    tableType: TableType,
    operation: WriteOperation,
    keyGen: KeyGenConfig,
    precombineField: Option[String],
    payloadClass: String,
    indexType: IndexType,
    bloom: BloomConfig,
    pruneByRanges: Boolean,
    updatePartitionPath: Boolean,
    bucketNum: Int,
    bucketHashFields: Seq[String],
    sizing: FileSizing,
    codec: CompressionCodec,
    blockSize: Long,
    pageSize: Int,
    combine: Boolean,
    sortMode: BulkInsertSortMode,
    partitionsToDelete: Seq[String],
    maxLogFileSize: Long) {

  def isGlobalIndex: Boolean = indexType.isGlobal
  def isBucketIndex: Boolean = indexType.isBucket
  def isBloomIndex: Boolean = indexType.usesBloomFilters

  /**
   * bulk_insert in one pass over the input, as `df.write.parquet` does: rows are clustered by
   * their partition fields within each task, so a task keeps one file open at a time, and key
   * generation runs in the writing tasks (a bad key fails the write, which is rolled back).
   * Not when records are de-duplicated first, sorted by key, or (under optimistic concurrency
   * control) their new keys are collected for the commit's check.
   */
  def bulkInsertInOnePass(optimistic: Boolean): Boolean =
    !combine && sortMode == BulkInsertSortMode.None && !optimistic

  /**
   * bulk_insert under the bucket index into a table that holds no data yet (a first load), in
   * one pass: there is no bucket to merge into, so no pass over the input plans the buckets
   * ahead; each record's bucket follows from its key as the records stream, and one shuffle
   * sends each (partition, bucket) to the task that writes it. Same conditions as
   * [[bulkInsertInOnePass]]; a table with data takes the planned route, which finds its buckets.
   */
  def bucketLoadInOnePass(optimistic: Boolean, tableHasData: Boolean): Boolean =
    isBucketIndex && operation.onlyCreatesFileGroups && !tableHasData && bulkInsertInOnePass(optimistic)

  /** The input columns that decide a row's partition path: what a one-pass bulk_insert clusters by. */
  def partitionColumns: Seq[String] = keyGen.partitionFields
}

object WriteSpec {

  /** Table-config keys whose stored values a write takes when the options do not set them. */
  private val Inherited: Seq[(String, String)] = Seq(
    WriteConfig.RecordKeyField.key -> TableConfig.RecordKeyFields,
    WriteConfig.PartitionPathField.key -> TableConfig.PartitionFields,
    WriteConfig.KeyGeneratorClass.key -> TableConfig.KeyGeneratorClass,
    WriteConfig.HiveStylePartitioning.key -> TableConfig.HiveStylePartitioning,
    WriteConfig.UrlEncodePartitionPath.key -> TableConfig.UrlEncodePartitioning,
    WriteConfig.PrecombineField.key -> TableConfig.PrecombineField,
    WriteConfig.PayloadClass.key -> TableConfig.PayloadClass,
    WriteConfig.TableType.key -> TableConfig.Type,
    WriteConfig.TableName.key -> TableConfig.Name)

  /**
   * @param existing the table's config when the table exists
   * @param schema   the input's schema (the default precombine field applies only if present)
   */
  def resolve(options: Map[String, String], existing: Option[TableConfig],
      schema: org.apache.spark.sql.types.StructType): WriteSpec = {
    existing.foreach(c => checkConflicts(options, c))
    // Stored values fill the options a write leaves out (conflicts were rejected above).
    val inherited = existing.toSeq.flatMap { c =>
      Inherited.flatMap { case (opt, prop) => c.get(prop).map(opt -> _) } ++
        c.props.filter(_._1.startsWith(WriteConfig.TimebasedKeyGenPrefix))
    }
    val provided = options.keySet.map(_.toLowerCase(java.util.Locale.ROOT))
    val opts = inherited.filterNot { case (k, _) => provided(k.toLowerCase(java.util.Locale.ROOT)) }.toMap ++ options
    val operation = WriteConfig.Operation.from(opts).get
    val tableName = WriteConfig.TableName.from(opts)
      .getOrElse(throw Errors.missingOption(WriteConfig.TableName.key, "when a write creates a table"))
    val precombine = existing.flatMap(_.precombineField).orElse {
      WriteConfig.PrecombineField.lookup(options).orElse(
        WriteConfig.PrecombineField.default.filter(schema.fieldNames.contains))
    }
    // A partial-column write (COLUMN granularity) may leave the precombine field out: PartialColumns decides.
    val partialAllowed = existing.isDefined &&
      WriteConfig.ConflictGranularity.from(opts).get == io.pyhudi.transaction.ConflictGranularity.Column
    precombine.foreach { f =>
      if (!schema.fieldNames.contains(f) && operation != WriteOperation.Delete &&
        operation != WriteOperation.DeletePartition && !partialAllowed)
        throw Errors.missingColumn(WriteConfig.PrecombineField.key, f, schema.fieldNames.toSeq)
    }
    val keyGen = KeyGenConfig.fromOptions(opts, schema)
    val isInsertLike = Set[WriteOperation](WriteOperation.Insert, WriteOperation.BulkInsert,
      WriteOperation.InsertOverwrite, WriteOperation.InsertOverwriteTable)
    WriteSpec(
      tableName = tableName,
      databaseName = WriteConfig.DatabaseName.from(opts),
      tableType = WriteConfig.TableType.from(opts).get,
      operation = operation,
      keyGen = keyGen,
      precombineField = precombine,
      // A new table gets the payload every engine merges alike; a table that records none keeps
      // Apache Hudi 0.x's default, which is how its earlier writers merged it.
      payloadClass = WriteConfig.PayloadClass.from(opts).getOrElse(
        if (existing.isDefined) MergeMode.LatestWinsPayload else MergeMode.defaultPayloadClass(precombine.isDefined)),
      indexType = WriteConfig.IndexType.from(opts).get,
      bloom = BloomConfig(WriteConfig.BloomNumEntries.from(opts).get, WriteConfig.BloomFpp.from(opts).get,
        WriteConfig.BloomFilterType.from(opts).get, WriteConfig.BloomMaxEntries.from(opts).get),
      pruneByRanges = WriteConfig.BloomPruneByRanges.from(opts).get,
      updatePartitionPath =
        if (WriteConfig.IndexType.from(opts).get == IndexType.GlobalSimple)
          WriteConfig.SimpleUpdatePartitionPath.from(opts).get
        else WriteConfig.BloomUpdatePartitionPath.from(opts).get,
      bucketNum = WriteConfig.BucketNum.from(opts).get,
      bucketHashFields = WriteConfig.BucketHashField.from(opts).map(_.split(',').map(_.trim).toSeq)
        .getOrElse(keyGen.recordKeyFields),
      sizing = FileSizing(WriteConfig.SmallFileLimit.from(opts).get, WriteConfig.MaxFileSize.from(opts).get,
        WriteConfig.RecordSizeEstimate.from(opts).get),
      codec = WriteConfig.CompressionCodec.from(opts).get,
      blockSize = WriteConfig.ParquetBlockSize.from(opts).get,
      pageSize = WriteConfig.ParquetPageSize.from(opts).get,
      combine =
        if (operation == WriteOperation.Upsert) WriteConfig.CombineBeforeUpsert.from(opts).get
        else if (operation == WriteOperation.Delete) WriteConfig.CombineBeforeDelete.from(opts).get
        else if (isInsertLike(operation)) WriteConfig.CombineBeforeInsert.from(opts).get
        else false,
      sortMode = WriteConfig.BulkInsertSortMode.from(opts).get,
      partitionsToDelete = WriteConfig.PartitionsToDelete.from(opts).toSeq
        .flatMap(_.split(',')).map(_.trim).filter(_.nonEmpty),
      maxLogFileSize = WriteConfig.LogFileMaxSize.from(opts).get)
  }

  private def lookup(options: Map[String, String], key: String): Option[String] =
    options.collectFirst { case (k, v) if k.equalsIgnoreCase(key) && v.trim.nonEmpty => v.trim }

  /** A write may not change what identifies records or where they live. */
  private def checkConflicts(options: Map[String, String], c: TableConfig): Unit = {
    def check(opt: String, stored: Option[String], normalise: String => String = identity): Unit =
      for (value <- lookup(options, opt); have <- stored if normalise(value) != normalise(have))
        throw Errors.conflictingTableConfig(c.basePath, opt, value, have)
    val list: String => String = _.split(',').map(_.trim).mkString(",")
    check(WriteConfig.RecordKeyField.key, c.get(TableConfig.RecordKeyFields), list)
    check(WriteConfig.PartitionPathField.key, Some(c.partitionFields.mkString(",")), list)
    check(WriteConfig.TableType.key, Some(c.tableType.name), _.toUpperCase(java.util.Locale.ROOT))
    check(WriteConfig.TableName.key, c.get(TableConfig.Name))
    check(WriteConfig.KeyGeneratorClass.key, c.keyGeneratorClass)
    check(WriteConfig.HiveStylePartitioning.key, Some(c.hiveStylePartitioning.toString), _.toLowerCase)
    check(WriteConfig.UrlEncodePartitionPath.key, Some(c.urlEncodePartitioning.toString), _.toLowerCase)
    check(WriteConfig.PrecombineField.key, c.precombineField)
  }
}
