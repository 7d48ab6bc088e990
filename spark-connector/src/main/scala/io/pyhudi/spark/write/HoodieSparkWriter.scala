// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import java.util.UUID

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{DataFrame, SaveMode, SparkSession}
import org.apache.spark.sql.types.StructType

import io.pyhudi.avro.SparkToAvro
import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.TableExistsException
import io.pyhudi.filegroup.FileGroupId
import io.pyhudi.index.bucket.BucketIdentifier
import io.pyhudi.merge.MergeMode
import io.pyhudi.schema.TableSchemaResolver
import io.pyhudi.services.archive.ArchiveConfig
import io.pyhudi.services.clustering.{ClusteringPlanner, ClusteringTransaction}
import io.pyhudi.services.compaction.CompactionPlanner
import io.pyhudi.spark.services.{Cleaner, Clusterer, Compactor, EmbeddedTimelineService, TimelineArchiver}
import io.pyhudi.spark.shims.{ParquetReaderShim, ParquetWriterShim}
import io.pyhudi.spark.source.PyhudiSource
import io.pyhudi.storage.{SerializableConfiguration, Storage}
import io.pyhudi.table.{HoodieTable, PausePoint, TableCreator, TableType}
import io.pyhudi.transaction.{ConcurrencyConfig, FailedWritesCleanPolicy}
import io.pyhudi.write.{
  BulkInsertSortMode,
  Location,
  NewTable,
  PartialColumns,
  ReplaceScope,
  WritePath,
  WritePreconditions,
  WriteRecord,
  WriteSpec
}
import io.pyhudi.write.commit.{Commits, WriteStats, WriteTransaction}
import io.pyhudi.write.handle.{HandleContext, HandleResult}
import io.pyhudi.write.plan.{AppendTarget, BucketRouting, TableFiles, Tagging, WritePlan, WritePlanner}

/**
 * `df.write.format("pyhudi").save(path)`: applies the save mode, creates or checks the table,
 * rolls back writes a crashed writer left, runs the operation as Spark jobs and commits. Key
 * generation, de-duplication and index lookup run before the instant starts, so bad input (a
 * null key, say) fails without touching the table.
 */
object HoodieSparkWriter {

  private val log = org.slf4j.LoggerFactory.getLogger(getClass)

  def write(spark: SparkSession, mode: SaveMode, options: Map[String, String], df: DataFrame): Unit =
    try writeOnce(spark, mode, options, df)
    catch {
      // Another writer created the table between this write's look and its create: write again
      // into the table that now exists, as any later writer would.
      case CreatedElsewhere(_) =>
        try writeOnce(spark, mode, options, df)
        catch { case CreatedElsewhere(e) => throw e }
    }

  private final case class CreatedElsewhere(cause: TableExistsException) extends RuntimeException(cause)

  private def writeOnce(spark: SparkSession, mode: SaveMode, options: Map[String, String], df: DataFrame): Unit = {
    val conf = ParquetReaderShim.hadoopConf(spark, options)
    val storage = new Storage(conf)
    val path = PyhudiSource.pathOf(options)
    val basePath = storage.qualify(path).stripSuffix("/")
    val pathExisted = storage.exists(basePath)
    val tableExisted = storage.exists(s"$basePath/${HoodieTable.MetaFolder}/${HoodieTable.PropertiesFile}")
    val effective = saveMode(mode).options(tableExisted, path, options) match {
      case Some(o) => o
      case None => return // Ignore, and the table exists
    }
    val existing = if (tableExisted) Some(HoodieTable.open(basePath, conf)) else None
    val input = IncomingRecords.dataSchema(df)
    val spec = WriteSpec.resolve(effective, existing.map(_.config), input)
    WritePreconditions.metadataTableWarning(effective, path).foreach(w => log.warn(w))
    WritePreconditions.check(effective, existing.map(_.config), path)
    // Bad archival options fail the write before it starts, as in Apache Hudi, not after its commit.
    if (WriteConfig.ArchiveAutomatic.from(effective).get) ArchiveConfig.from(effective)
    val stored = TableSchemas.stored(existing)
    val partial = PartialColumns.resolve(basePath, stored, input, spec, effective)
    val tableData = TableSchemas.resolve(basePath, stored, input, spec, partial.isDefined)
    val created = existing.isEmpty
    val table = existing.getOrElse {
      PausePoint(Option(spark.sparkContext.getLocalProperty(PausePoint.Property)), "before-create")
      try TableCreator.create(storage, basePath, NewTable.properties(spec, tableData, effective))
      catch { case e: TableExistsException => throw CreatedElsewhere(e) }
      HoodieTable.open(basePath, conf)
    }
    val written =
      try {
        val concurrency = ConcurrencyConfig.from(effective)
        val recovered = WriteTransaction.rollbackFailedWrites(table, concurrency) match {
          case Nil => table
          case _ => table.reload()
        }
        // A second writer stops here, before any work, while the first one's heartbeat is live
        // (LAZY failed-write cleaning, as under optimistic concurrency control, lets it run).
        if (concurrency.failedWrites == FailedWritesCleanPolicy.Eager)
          WriteTransaction.requireNoLiveWriters(recovered, concurrency)
        // Logs are always written against a completed slice: finish scheduled compactions first.
        val ready = if (Compactor.runPending(spark, recovered, effective).isEmpty) recovered else recovered.reload()
        run(spark, ready, spec, df, tableData, conf, concurrency,
          EmbeddedTimelineService.forWrite(spark, ready.basePath, effective), partial)
        ready
      } catch {
        case e: Throwable if created && !othersWrote(table, ConcurrencyConfig.from(effective)) =>
          // A first write that fails leaves no table behind.
          if (!pathExisted) storage.delete(basePath, recursive = true)
          else storage.delete(s"$basePath/${HoodieTable.MetaFolder}", recursive = true)
          throw e
      }
    if (spec.tableType == TableType.MergeOnRead) compactInline(spark, written.reload(), effective)
    clusterInline(spark, written.reload(), effective)
    // hoodie.clean.automatic: clean after the commit (and any inline compaction), as Hudi does.
    // The write is committed by now: a clean that fails is left for the next one to finish.
    try Cleaner.afterCommit(spark, written.reload(), effective)
    catch {
      case scala.util.control.NonFatal(e) =>
        log.warn(s"The write to $path committed, but cleaning after it failed; the next write or clean retries", e)
    }
    // hoodie.archive.automatic: archive after the clean, as Hudi does; a failure is finished by the next one.
    try TimelineArchiver.afterCommit(written.reload(), effective)
    catch {
      case scala.util.control.NonFatal(e) =>
        log.warn(s"The write to $path committed, but archiving after it failed; the next write or archival retries", e)
    }
  }

  private def saveMode(mode: SaveMode): io.pyhudi.write.SaveMode = mode match {
    case SaveMode.Append => io.pyhudi.write.SaveMode.Append
    case SaveMode.Overwrite => io.pyhudi.write.SaveMode.Overwrite
    case SaveMode.ErrorIfExists => io.pyhudi.write.SaveMode.ErrorIfExists
    case SaveMode.Ignore => io.pyhudi.write.SaveMode.Ignore
  }

  /** True when another writer committed to (or is writing) the table this write created. */
  private def othersWrote(table: HoodieTable, concurrency: ConcurrencyConfig): Boolean =
    try {
      val now = table.reload().timeline
      now.completedWrites.nonEmpty ||
      io.pyhudi.transaction.ConcurrentChanges.liveWriters(table.storage, table.metaPath, now,
        concurrency.heartbeat).nonEmpty
    } catch { case scala.util.control.NonFatal(_) => true } // unsure: keep the table

  private def run(spark: SparkSession, table: HoodieTable, spec: WriteSpec, df: DataFrame,
      tableData: StructType, hadoopConf: org.apache.hadoop.conf.Configuration, concurrency: ConcurrencyConfig,
      timelineService: Option[String], partial: Option[PartialColumns]): Unit = {
    val sc = spark.sparkContext
    val conf = new SerializableConfiguration(hadoopConf)
    val tableSchema = TableSchemaResolver.withMetaFields(tableData, populateMetaFields = true)
    val op = spec.operation
    val txn = new WriteTransaction(table, op.action(spec.tableType), op.metadataName, concurrency = concurrency)
    val ctx = HandleContext(table.basePath, txn.instantTime, tableSchema,
      MergeMode.fromPayloadClass(Some(spec.payloadClass)),
      spec.precombineField.map(f => tableSchema.fieldNames.indexOf(f)).filter(_ >= 0),
      spec.bloom, spec.sizing.maxFileSize, conf,
      ParquetWriterShim.factory(spark, tableSchema, hadoopConf, spec.codec, spec.blockSize, spec.pageSize),
      TableSchemas.baseReader(spark, tableSchema, hadoopConf), spec.tableName, spec.maxLogFileSize,
      timelineService, partial)
    val schemaJson = SparkToAvro.tableSchema(tableData, spec.tableName).toString

    // A partial-column write's updates must all go to log files: a rewritten base file would
    // take the columns it does not write as null. Its inserts go to new file groups.
    val path = WritePath.of(spec) match {
      case i: WritePath.Indexed if partial.isDefined => i.copy(packsSmallFiles = false)
      case p => p
    }
    val extraMetadata = Map("schema" -> schemaJson) ++ partial.map(_.extraMetadata).getOrElse(Map.empty)
    val route = path match {
      case WritePath.DropPartitions => // no rows to write: retire the named partitions' file groups
        val files = TableFiles.load(table, Some(spec.partitionsToDelete), toReplace = true)
        txn.start(Commits.workload(op, Nil, Map.empty))
        commit(txn, Nil, schemaJson, files.replacedFileIds)
        return
      case r: WritePath.WritesRecords => r
    }

    val cached = scala.collection.mutable.ArrayBuffer[RDD[_]]()
    // A partial-column write orders its records by its column group's column, if any.
    val ordering = partial.map(_.orderingField).getOrElse(spec.precombineField)
    def persisted[T <: AnyRef: scala.reflect.ClassTag](rdd: RDD[T]): RDD[T] = {
      val (records, blocks) = RecordBlock.persist(rdd)
      cached += blocks
      records
    }
    lazy val identified =
      IncomingRecords.keyed(IncomingRecords(df, spec, tableData, ordering), spec.isGlobalIndex)
    lazy val keyed =
      persisted(if (spec.combine) IncomingRecords.deduplicate(identified, ordering.isDefined) else identified)
    lazy val records = keyed.values
    // Optimistic concurrency control: the keys this write inserts, checked at commit against
    // what concurrent commits inserted (two inserts of one new key into different file groups).
    var newKeys: WriteTransaction.NewKeyCheck = WriteTransaction.NoNewKeys
    // What the index lookup did, for the commit's extraMetadata (writes that look keys up only).
    var indexLookup: Option[io.pyhudi.index.IndexLookup] = None
    def checkInserts(inserted: RDD[WriteRecord]): Unit = if (concurrency.optimistic)
      newKeys = NewKeyConflicts(sc, inserted.map(r => IncomingRecords.identity(r, spec.isGlobalIndex)),
        spec.isGlobalIndex, table.basePath,
        ParquetReaderShim.buildReader(spark, tableSchema, SparkIndex.KeySchema, Nil, returningBatch = false,
          hadoopConf))
    try {
      val (results, replacedIds) = route match {
        case WritePath.BulkInsert if spec.bulkInsertInOnePass(concurrency.optimistic) =>
          val rows = IncomingRecords(BulkInsertInput.clustered(df, spec), spec, tableData, None, streamed = true)
          txn.start(Commits.workload(op, Nil, Map.empty))
          (WriteExecution.bulkInsert(rows, ctx, clustered = true), Map.empty[String, Seq[String]])

        case WritePath.BulkInsert =>
          val sorted = spec.sortMode match {
            case BulkInsertSortMode.GlobalSort => records.sortBy(r => (r.partitionPath, r.key))
            case BulkInsertSortMode.PartitionSort =>
              records.mapPartitions(_.toArray.sortBy(r => (r.partitionPath, r.key)).iterator)
            case BulkInsertSortMode.None => records
          }
          records.count() // key generation errors surface before the instant starts
          checkInserts(records.filter(!_.isDelete))
          txn.start(Commits.workload(op, Nil, Map.empty))
          (WriteExecution.bulkInsert(sorted, ctx, clustered = spec.sortMode != BulkInsertSortMode.None),
            Map.empty[String, Seq[String]])

        case WritePath.Overwrite(scope, bucketed) =>
          val old = scope match {
            case ReplaceScope.Table => TableFiles.load(table, None, toReplace = true)
            case _ => TableFiles.load(table, Some(partitionsOf(records)),
                toReplace = true)
          }
          val (tagged, plan, inserts) =
            if (bucketed) {
              val (p, _, locate) = bucketPlan(records, spec, table, fresh = true)
              // every bucketed record has its group: none is an insert
              (records.map(r => (r, Option(locate(r.partitionPath, r.key)))), p, Map.empty[String, Long])
            } else {
              val t = records.map(r => (r, Option.empty[Location]))
              val counts = tagging(t).inserts
              (t, planInserts(counts, Map.empty, Map.empty, spec, table, useSmallFiles = false), counts)
            }
          txn.start(Commits.workload(op, Nil, inserts))
          (WriteExecution.run(tagged, plan, ctx, rollover = true), old.replacedFileIds)

        case WritePath.Buckets(_)
            if spec.bucketLoadInOnePass(concurrency.optimistic, table.timeline.completedWrites.nonEmpty) =>
          txn.start(Commits.workload(op, Nil, Map.empty))
          (WriteExecution.bucketLoad(IncomingRecords(df, spec, tableData, None), bucketOfKey(spec),
              spark.conf.get("spark.sql.shuffle.partitions").toInt, ctx),
            Map.empty[String, Seq[String]])

        case WritePath.Buckets(appendsLogs) =>
          // Records are not de-duplicated ahead: the plan's pass reads them as they come, then
          // one shuffle de-duplicates them and routes them to their buckets.
          val input = persisted(identified)
          val (plan, files, locate) = bucketPlan(input.values, spec, table, fresh = false)
          rejectUnderClustering(table, txn.instantTime, plan)
          // Every bucketed record has its group: the profile lists no unlocated inserts.
          txn.start(Commits.workload(op, plan.buckets.filterNot(_.isNew), Map.empty))
          checkEarly(txn, plan, concurrency, bucketed = true, partial.isDefined)
          val appends =
            if (appendsLogs) AppendTarget.plan(plan, files, everyGroupLogs = true) else Map.empty[Int, AppendTarget]
          val byBucket = WriteExecution.toBuckets(input, plan, locate, spec.combine, ordering.isDefined)
          (WriteExecution.write(byBucket, plan, ctx, rollover = false, appends), Map.empty[String, Seq[String]])

        case WritePath.Indexed(lookup, packsSmallFiles, allPartitions, appendsLogs) =>
          val partitions = partitionsOf(records)
          val files = TableFiles.load(table, if (allPartitions) None else Some(partitions))
          val keyReader = ParquetReaderShim.buildReader(spark, tableSchema, SparkIndex.KeySchema, Nil,
            returningBatch = false, hadoopConf)
          val lookupStarted = System.nanoTime()
          val index = if (lookup) Some(SparkIndex(sc, spec, files, keyReader, conf)) else None
          // Without a lookup (insert) every record is an insert: mapped again from the kept
          // records, not kept a second time, which would double the memory the write caches.
          val tagged = index.fold(records.map(r => (r, Option.empty[Location])))(i => persisted(i.tag(keyed)))
          val found = tagging(tagged)
          indexLookup = index.map(_.lookup((System.nanoTime() - lookupStarted) / 1000000L, found))
          checkInserts(tagged.filter { case (r, l) => l.isEmpty && !r.isDelete }.keys)
          val bases = files.all.map { case (p, b) => Location(p, b.fileId) -> b }.toMap
          // Small-file packing never picks a file group a pending clustering rewrites.
          val clustering = ClusteringTransaction.pendingFileGroups(table)
          val small = (if (appendsLogs) files.logFreeBases else files.byPartition).map { case (p, bs) =>
            p -> bs.filterNot(b => clustering.contains(FileGroupId(p, b.fileId)))
          }
          val plan = planInserts(found.inserts, found.updated.map(l => l -> bases(l)).toMap, small, spec, table,
            useSmallFiles = packsSmallFiles)
          rejectUnderClustering(table, txn.instantTime, plan)
          txn.start(Commits.workload(op, plan.buckets.filterNot(_.isNew), found.inserts))
          checkEarly(txn, plan, concurrency, bucketed = false, partial.isDefined)
          val appends =
            if (appendsLogs) AppendTarget.plan(plan, files, everyGroupLogs = false) else Map.empty[Int, AppendTarget]
          (WriteExecution.run(tagged, plan, ctx, rollover = true, appends), Map.empty[String, Seq[String]])
      }
      PausePoint(Option(sc.getLocalProperty(PausePoint.Property)), "before-commit")
      val lookupMetadata = indexLookup.map(_.toExtraMetadata).getOrElse(Map.empty)
      txn.commit(results.map(WriteStats.written), extraMetadata ++ lookupMetadata, replacedIds, newKeys,
        bucketed = spec.indexType == io.pyhudi.index.IndexType.Bucket)
    } catch {
      case e: Throwable =>
        txn.abort(e)
        throw e
    } finally {
      cached.foreach(_.unpersist(blocking = false))
      timelineService.foreach(_ => EmbeddedTimelineService.instantEnded(txn.markers.folder))
    }
  }

  /** `hoodie.write.concurrency.early.conflict.detection.enable`: the plan's existing file groups against other writers'. */
  private def checkEarly(txn: WriteTransaction, plan: WritePlan, concurrency: ConcurrencyConfig,
      bucketed: Boolean, partial: Boolean): Unit =
    // Markers name file groups, not columns: a partial-column write is checked at its commit only.
    if (concurrency.earlyConflicts && !partial)
      txn.checkEarlyConflicts(plan.buckets.filterNot(_.isNew).map(b => b.partitionPath -> b.fileId).toSet,
        concurrency.earlyCheckCommits, bucketed)

  /** Updates, deletes and log appends to a file group of a pending clustering fail (Hudi's reject-update strategy). */
  private def rejectUnderClustering(table: HoodieTable, instant: String, plan: WritePlan): Unit =
    ClusteringTransaction.rejectUpdates(table, instant,
      plan.buckets.filterNot(_.isNew).map(b => FileGroupId(b.partitionPath, b.fileId)))

  /** `hoodie.compact.inline`: compact (or only schedule) after enough delta commits. */
  private def compactInline(spark: SparkSession, table: HoodieTable, options: Map[String, String]): Unit =
    if (WriteConfig.CompactInline.from(options).get &&
      CompactionPlanner.shouldCompactInline(table, WriteConfig.CompactInlineMaxDeltaCommits.from(options).get)) {
      try Compactor.compact(spark, table, options, scheduleOnly = WriteConfig.CompactScheduleInline.from(options).get)
      catch {
        // Under optimistic concurrency control another writer's compaction running now, or a
        // commit landing while this one planned, is normal: the write is committed, and a later
        // write compacts. With one writer at a time it is an error worth failing the call.
        case e: io.pyhudi.errors.WriteConflictException if ConcurrencyConfig.from(options).optimistic =>
          log.warn(s"The write to ${table.basePath} committed; its inline compaction was skipped: ${e.getMessage}")
      }
    }

  /** `hoodie.clustering.inline`: cluster after enough commits since the last clustering. */
  private def clusterInline(spark: SparkSession, table: HoodieTable, options: Map[String, String]): Unit =
    if (WriteConfig.ClusteringInline.from(options).get &&
      ClusteringPlanner.shouldClusterInline(table, WriteConfig.ClusteringInlineMaxCommits.from(options).get))
      Clusterer.cluster(spark, table, options)

  /** The partition paths of `records`. */
  private def partitionsOf(records: RDD[WriteRecord]): Seq[String] = gathered(records)(_.partitionPath)

  /**
   * The distinct values of `f` over `records`, which are few (partitions, buckets): each task
   * gathers its own set and the driver joins them, where distinct() would shuffle, combining one
   * entry per record in a map Spark sizes as it grows.
   */
  private def gathered[T: scala.reflect.ClassTag](records: RDD[WriteRecord])(f: WriteRecord => T): Seq[T] =
    records.mapPartitions { it =>
      val seen = scala.collection.mutable.HashSet.empty[T]
      it.foreach(r => seen += f(r))
      Iterator.single(seen.toArray)
    }.collect().flatten.distinct.toSeq

  /** Index tagging's figures: each task counts its records, the driver adds them up. */
  private def tagging(tagged: RDD[(WriteRecord, Option[Location])]): Tagging =
    Tagging.combine(tagged.mapPartitions(it => Iterator.single(Tagging.count(it))).collect().toSeq)

  private def planInserts(inserts: Map[String, Long],
      updates: Map[Location, io.pyhudi.filegroup.BaseFile], smallFiles: Map[String, Seq[io.pyhudi.filegroup.BaseFile]],
      spec: WriteSpec, table: HoodieTable, useSmallFiles: Boolean): WritePlan =
    WritePlanner.plan(updates, inserts, smallFiles,
      spec.sizing.copy(avgRecordSize = Commits.averageRecordSize(table, spec.sizing.avgRecordSize)),
      () => s"${UUID.randomUUID()}-0", useSmallFiles)

  /** BUCKET index: the file group follows from the key (write.plan.BucketRouting), no lookup. */
  /** The bucket of a record key under `spec`'s bucket index; a closure that ships only the hash fields and count. */
  private def bucketOfKey(spec: WriteSpec): String => Int = {
    val (n, fields) = (spec.bucketNum, spec.bucketHashFields)
    key => BucketIdentifier.bucketId(key, fields, n)
  }

  private def bucketPlan(records: RDD[WriteRecord], spec: WriteSpec, table: HoodieTable, fresh: Boolean)
      : (WritePlan, TableFiles, (String, String) => Location) = {
    val bucketOf = bucketOfKey(spec)
    def group(partitionPath: String, key: String) = (partitionPath, bucketOf(key))
    // The groups a write touches are few (partitions x buckets).
    val groups = gathered(records)(r => group(r.partitionPath, r.key))
    val files = TableFiles.load(table, Some(groups.map(_._1).distinct))
    val (plan, locations) = BucketRouting.plan(groups, files.all, fresh)
    (plan, files, (partitionPath, key) => locations(group(partitionPath, key)))
  }

  private def commit(txn: WriteTransaction, results: Seq[HandleResult], schemaJson: String,
      replacedIds: Map[String, Seq[String]]): Unit =
    txn.commit(results.map(WriteStats.written), Map("schema" -> schemaJson), replacedIds)
}
