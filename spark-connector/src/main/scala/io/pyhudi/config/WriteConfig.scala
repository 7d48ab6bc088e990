// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import io.pyhudi.errors.Errors
import io.pyhudi.keygen.{KeyGenType, TimestampKeyGenConfig}
import io.pyhudi.write.WriteOperation

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

  // Stored in hoodie.properties under the option's own key, so the key is the table property's.
  val HiveStylePartitioning: ConfigEntry[Boolean] = ConfigEntry.boolean(
    io.pyhudi.table.TableConfig.HiveStylePartitioning,
    default = false,
    "Name partition folders column=value instead of value.")

  val UrlEncodePartitionPath: ConfigEntry[Boolean] = ConfigEntry.boolean(
    io.pyhudi.table.TableConfig.UrlEncodePartitioning,
    default = false,
    "Escape characters such as / : = % in partition values as %XX (Hive escaping).")

  /** The timestamp-based key generator's settings share this prefix and are persisted in the table config. */
  val TimebasedKeyGenPrefix = "hoodie.keygen.timebased."

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
  /** Every write option, in documentation order. */
  lazy val entries: Seq[ConfigEntry[_]] =
    OperationEntries ++ ConcurrencyEntries ++ KeyGenEntries ++ TimelineServiceEntries

  private def list(key: String, doc: String): ConfigEntry[Seq[String]] =
    ConfigEntry[Seq[String]](key, None, doc,
      (_, v) => v.split(',').toSeq.map(_.trim).filter(_.nonEmpty), render = _.mkString(","))

  private def long(key: String, default: Long, doc: String): ConfigEntry[Long] =
    ConfigEntry.nonNegativeLong(key, default, doc)

  private def positiveLong(key: String, default: Long, doc: String): ConfigEntry[Long] =
    ConfigEntry[Long](key, Some(default), doc,
      (k, v) =>
        v.trim.toLongOption.filter(_ > 0).getOrElse(throw Errors.invalidOption(k, v, "expected a positive integer")))

  private def int(key: String, default: Int, doc: String): ConfigEntry[Int] =
    ConfigEntry[Int](key, Some(default), doc,
      (k, v) =>
        v.trim.toIntOption.filter(_ > 0).getOrElse(throw Errors.invalidOption(k, v, "expected a positive integer")))

  private def upperChoice(key: String, default: String, values: Seq[String], doc: String): ConfigEntry[String] =
    ConfigEntry[String](key, Some(default), doc,
      (k, v) => {
        val norm = v.trim.toUpperCase(java.util.Locale.ROOT)
        if (values.contains(norm)) norm else throw Errors.invalidEnumOption(k, v, values)
      }, values)

  val TableName: ConfigEntry[String] = ConfigEntry.string("hoodie.table.name", None,
    "Table name; required when a write creates the table.")

  val DatabaseName: ConfigEntry[String] = ConfigEntry.string("hoodie.database.name", None,
    "Database name recorded in hoodie.properties (part of the table checksum).")

  val TableType: ConfigEntry[io.pyhudi.table.TableType] = ConfigEntry.enumeration("hoodie.datasource.write.table.type",
    io.pyhudi.table.TableType.CopyOnWrite, io.pyhudi.table.TableType.All, (t: io.pyhudi.table.TableType) => t.name,
    "Table type when a write creates the table; must match an existing table's type.")

  val Operation: ConfigEntry[WriteOperation] = ConfigEntry[WriteOperation](
    "hoodie.datasource.write.operation", Some(WriteOperation.Upsert),
    "What the write does: upsert (update or insert by key), insert (no key lookup), bulk_insert " +
      "(no key lookup, no small-file packing), delete (rows or keys), insert_overwrite (replace " +
      "the partitions present in the input), insert_overwrite_table, delete_partition.",
    (k, v) => WriteOperation.parse(v).getOrElse(throw Errors.invalidEnumOption(k, v, WriteOperation.All.map(_.value))),
    WriteOperation.All.map(_.value), _.value)

  val PrecombineField: ConfigEntry[String] = ConfigEntry.string(
    "hoodie.datasource.write.precombine.field", Some("ts"),
    "Ordering field: among records with one key the larger value wins. The default `ts` applies " +
      "only when the input has such a column.")

  val PayloadClass: ConfigEntry[String] = ConfigEntry.string("hoodie.datasource.write.payload.class",
    None,
    "Merge semantics recorded in a new table (hoodie.compaction.payload.class): " +
      "DefaultHoodieRecordPayload (event-time ordering: of two versions of a key the larger " +
      "precombine value wins, in a batch, against the stored record and among log records) or " +
      "OverwriteWithLatestAvroPayload (commit-time ordering: the incoming record replaces the " +
      "stored one). Default: DefaultHoodieRecordPayload when the table has a precombine field, " +
      "else OverwriteWithLatestAvroPayload; these two are the payloads that Apache Hudi 0.14/0.15, " +
      "Apache Hudi 1.x and hudi-rs merge alike (docs/interop.md). An existing table keeps its own.")

  val IndexType: ConfigEntry[io.pyhudi.index.IndexType] = ConfigEntry[io.pyhudi.index.IndexType](
    "hoodie.index.type", Some(io.pyhudi.index.IndexType.Bloom),
    "How a write finds the file group of each existing key. GLOBAL_* keep keys unique across " +
      "partitions; BUCKET derives the file group from the key's hash.",
    io.pyhudi.index.IndexType.parse, io.pyhudi.index.IndexType.All.map(_.name), _.name)

  val BloomNumEntries: ConfigEntry[Int] = int("hoodie.index.bloom.num_entries", 60000,
    "Keys per bloom filter (per dynamic filter row).")

  val BloomFpp: ConfigEntry[Double] = ConfigEntry[Double]("hoodie.index.bloom.fpp", Some(1e-9),
    "Target false-positive probability of the bloom filters.",
    (k, v) =>
      v.trim.toDoubleOption.filter(d => d > 0 && d < 1)
        .getOrElse(throw Errors.invalidOption(k, v, "expected a probability between 0 and 1")))

  val BloomFilterType: ConfigEntry[io.pyhudi.index.bloom.BloomFilterType] = ConfigEntry.enumeration(
    "hoodie.bloom.index.filter.type", io.pyhudi.index.bloom.BloomFilterType.DynamicV0,
    io.pyhudi.index.bloom.BloomFilterType.All, (t: io.pyhudi.index.bloom.BloomFilterType) => t.name,
    "Bloom filter layout written to base file footers.")

  val BloomMaxEntries: ConfigEntry[Int] = int("hoodie.bloom.index.filter.dynamic.max.entries", 100000,
    "Key capacity at which a dynamic bloom filter stops growing.")

  val BloomPruneByRanges: ConfigEntry[Boolean] = ConfigEntry.boolean(
    "hoodie.bloom.index.prune.by.ranges", default = true,
    "Check a key only against files whose min/max record key range contains it.")

  val BloomUpdatePartitionPath: ConfigEntry[Boolean] = ConfigEntry.boolean(
    "hoodie.bloom.index.update.partition.path", default = true,
    "GLOBAL_BLOOM: a record whose partition changed moves (deleted from the old partition, " +
      "inserted into the new one); when false it is updated in its old partition.")

  val SimpleUpdatePartitionPath: ConfigEntry[Boolean] = ConfigEntry.boolean(
    "hoodie.simple.index.update.partition.path", default = true,
    "GLOBAL_SIMPLE: like hoodie.bloom.index.update.partition.path.")

  val BucketNum: ConfigEntry[Int] = int("hoodie.bucket.index.num.buckets", 256,
    "BUCKET index: file groups (buckets) per partition.")

  val BucketHashField: ConfigEntry[String] = ConfigEntry.string("hoodie.bucket.index.hash.field", None,
    "BUCKET index: record key fields hashed into the bucket number (default: all of them).")

  val SmallFileLimit: ConfigEntry[Long] = long("hoodie.parquet.small.file.limit", 104857600L,
    "Base files smaller than this take new inserts before new file groups are opened (0 disables).")

  val MaxFileSize: ConfigEntry[Long] = long("hoodie.parquet.max.file.size", 125829120L,
    "Target maximum size of a base file in bytes.")

  val RecordSizeEstimate: ConfigEntry[Long] = long("hoodie.copyonwrite.record.size.estimate", 1024L,
    "Bytes per record assumed for file sizing until earlier commits give a measured average.")

  val CompressionCodec: ConfigEntry[io.pyhudi.write.CompressionCodec] = ConfigEntry.enumeration(
    "hoodie.parquet.compression.codec", io.pyhudi.write.CompressionCodec.Zstd, io.pyhudi.write.CompressionCodec.All,
    (c: io.pyhudi.write.CompressionCodec) => c.name,
    "Compression of base files. zstd, as Apache Hudi on Spark 3.5 and later (0.x used gzip): as fast to write as " +
      "snappy and smaller (bench/codec_bench.py); Apache Hudi 1.2 and 0.15 and hudi-rs read it.")

  val ParquetBlockSize: ConfigEntry[Long] = long("hoodie.parquet.block.size", 125829120L,
    "Parquet row group size in bytes.")

  val ParquetPageSize: ConfigEntry[Int] = int("hoodie.parquet.page.size", 1048576,
    "Parquet page size in bytes.")

  val CombineBeforeUpsert: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.combine.before.upsert",
    default = true, "De-duplicate incoming records by key (precombine field wins) before an upsert.")

  val CombineBeforeInsert: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.combine.before.insert",
    default = false, "De-duplicate incoming records by key before insert, bulk_insert and insert_overwrite.")

  val CombineBeforeDelete: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.combine.before.delete",
    default = true, "De-duplicate incoming keys before a delete.")

  val BulkInsertSortMode: ConfigEntry[io.pyhudi.write.BulkInsertSortMode] =
    ConfigEntry[io.pyhudi.write.BulkInsertSortMode]("hoodie.bulkinsert.sort.mode",
      Some(io.pyhudi.write.BulkInsertSortMode.None),
      "bulk_insert ordering: NONE writes input partitions as they are; GLOBAL_SORT sorts all records " +
        "by partition path and key (tight key ranges for later lookups); PARTITION_SORT sorts within " +
        "each input partition.", io.pyhudi.write.BulkInsertSortMode.parse,
      io.pyhudi.write.BulkInsertSortMode.All.map(_.name), _.name)

  val PartitionsToDelete: ConfigEntry[String] = ConfigEntry.string(
    "hoodie.datasource.write.partitions.to.delete", None,
    "delete_partition: comma-separated partition paths to delete (as stored, e.g. city=paris).")

  val LogFileMaxSize: ConfigEntry[Long] = long("hoodie.logfile.max.size", 1073741824L,
    "Merge-on-read: a write's log file for one file slice rolls over to the next log version at this size " +
      "(at most 1 GiB: a log file's data block is built in memory as one array).")

  val CompactInline: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.compact.inline", default = false,
    "Merge-on-read: after a delta commit, compact when hoodie.compact.inline.max.delta.commits " +
      "delta commits have completed since the last compaction.")

  val CompactInlineMaxDeltaCommits: ConfigEntry[Int] = int("hoodie.compact.inline.max.delta.commits", 5,
    "Merge-on-read: delta commits since the last compaction that trigger an inline compaction.")

  val CompactScheduleInline: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.compact.schedule.inline",
    default = false,
    "Merge-on-read: when the inline trigger fires, only schedule the compaction " +
      "(a compaction.requested plan); a later pyhudi compact() call or write executes it.")

  val CompactionTargetIo: ConfigEntry[Long] = long("hoodie.compaction.target.io", 512000L * 1024 * 1024,
    "Bytes (base plus log files) one compaction reads at most; slices beyond it wait for the next one.")

  val MetadataEnable: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.metadata.enable", default = false,
    "Apache Hudi's metadata table. pyhudi does not maintain it: a table's metadata table is removed " +
      "before pyhudi changes the table, and Apache Hudi rebuilds it on its next write (docs/interop.md). " +
      "true is accepted, as Apache Hudi jobs often set it, and logs a warning.")

  val HeartbeatInterval: ConfigEntry[Long] = long("hoodie.client.heartbeat.interval_in_ms", 60000L,
    "How often a running write or compaction renews its heartbeat (.hoodie/.heartbeat/<instant>). A " +
      "pending instant whose heartbeat is older than this times hoodie.client.heartbeat.tolerable.misses " +
      "belongs to a dead writer and is rolled back by the next write; a younger one makes the next write " +
      "fail with WriteConflictException instead of touching it (EAGER hoodie.cleaner.policy.failed.writes), " +
      "or is left to finish (LAZY).")

  val HeartbeatTolerableMisses: ConfigEntry[Int] = int("hoodie.client.heartbeat.tolerable.misses", 2,
    "Heartbeat renewals a writer may miss before it counts as dead (see hoodie.client.heartbeat.interval_in_ms).")

  val LockWaitTime: ConfigEntry[Long] = long("hoodie.write.lock.wait_time_ms", 60000L,
    "How long a writer waits for the table's commit lock (.hoodie/.aux/pyhudi.lock), which it holds only " +
      "while it checks the timeline and starts, commits or rolls back an instant. Under " +
      "OPTIMISTIC_CONCURRENCY_CONTROL: how long one attempt to take the lock provider's lock waits " +
      "(see hoodie.write.lock.num_retries).")

  // Concurrency control (docs/concurrency.md): Apache Hudi's keys and class names.

  val ConcurrencyMode: ConfigEntry[io.pyhudi.transaction.ConcurrencyMode] = ConfigEntry.enumeration(
    "hoodie.write.concurrency.mode", io.pyhudi.transaction.ConcurrencyMode.SingleWriter,
    io.pyhudi.transaction.ConcurrencyMode.All, (m: io.pyhudi.transaction.ConcurrencyMode) => m.name,
    "SINGLE_WRITER: one writer at a time, checked (a writer that overlaps another fails with " +
      "WriteConflictException). OPTIMISTIC_CONCURRENCY_CONTROL: writers run at once; at commit, under " +
      "the lock of hoodie.write.lock.provider, a write that touched a file group another write " +
      "committed to since it started, or inserted a key another write inserted, fails.")

  val FailedWritesCleanPolicy: ConfigEntry[io.pyhudi.transaction.FailedWritesCleanPolicy] =
    ConfigEntry[io.pyhudi.transaction.FailedWritesCleanPolicy]("hoodie.cleaner.policy.failed.writes", None,
      "EAGER: before a write, pending writes whose heartbeat expired are rolled back and a pending " +
        "write with a live heartbeat stops it. LAZY: pending writes are rolled back only once their " +
        "heartbeat expired; live ones are left to finish. Unset: EAGER under SINGLE_WRITER, LAZY under " +
        "OPTIMISTIC_CONCURRENCY_CONTROL, which does not accept EAGER.",
      (k, v) =>
        io.pyhudi.transaction.FailedWritesCleanPolicy.All.find(_.name.equalsIgnoreCase(v.trim))
          .getOrElse(throw Errors.invalidEnumOption(k, v,
              io.pyhudi.transaction.FailedWritesCleanPolicy.All.map(_.name))),
      io.pyhudi.transaction.FailedWritesCleanPolicy.All.map(_.name),
      (p: io.pyhudi.transaction.FailedWritesCleanPolicy) => p.name)

  val LockProvider: ConfigEntry[io.pyhudi.transaction.LockProviderType] =
    ConfigEntry[io.pyhudi.transaction.LockProviderType]("hoodie.write.lock.provider",
      Some(io.pyhudi.transaction.LockProviderType.FileSystem),
      "OPTIMISTIC_CONCURRENCY_CONTROL: the lock writers hold while they check for conflicts and commit, " +
        "by Apache Hudi's class name (or its simple name): a lock file (FileSystemBasedLockProvider), a " +
        "lock per table path in this JVM (InProcessLockProvider) or an Apache Curator lock in ZooKeeper " +
        "(ZookeeperBasedLockProvider). Apache Hudi's default is ZooKeeper; pyhudi's needs no server.",
      (k, v) =>
        io.pyhudi.transaction.LockProviderType.parse(v)
          .getOrElse(throw Errors.invalidEnumOption(k, v, io.pyhudi.transaction.LockProviderType.All.map(_.className))),
      io.pyhudi.transaction.LockProviderType.All.map(_.className),
      (p: io.pyhudi.transaction.LockProviderType) => p.className)

  val LockFilesystemPath: ConfigEntry[String] = ConfigEntry.string("hoodie.write.lock.filesystem.path", None,
    "FileSystemBasedLockProvider: the folder of the lock file `lock`; unset, the table's .hoodie folder.")

  val LockFilesystemExpire: ConfigEntry[Long] = long("hoodie.write.lock.filesystem.expire", 0L,
    "FileSystemBasedLockProvider: minutes after which a held lock file is broken by the next writer; 0 " +
      "never breaks a lock whose holder renews it (a lock file whose renewals stopped, left by a killed " +
      "process, is broken either way).")

  val LockNumRetries: ConfigEntry[Long] = long("hoodie.write.lock.num_retries", 15L,
    "OPTIMISTIC_CONCURRENCY_CONTROL: attempts to take the lock after the first, each waiting up to " +
      "hoodie.write.lock.wait_time_ms; then the write fails with LOCK_TIMEOUT naming the holder.")

  val ZookeeperUrl: ConfigEntry[String] = ConfigEntry.string("hoodie.write.lock.zookeeper.url", None,
    "ZookeeperBasedLockProvider: the ZooKeeper host(s), comma-separated; required.")

  val ZookeeperPort: ConfigEntry[Int] = int("hoodie.write.lock.zookeeper.port", 2181,
    "ZookeeperBasedLockProvider: the port of hosts in hoodie.write.lock.zookeeper.url that name none.")

  val ZookeeperLockKey: ConfigEntry[String] = ConfigEntry.string("hoodie.write.lock.zookeeper.lock_key", None,
    "ZookeeperBasedLockProvider: the lock's node under the base path; unset, the table name.")

  val ZookeeperBasePath: ConfigEntry[String] = ConfigEntry.string("hoodie.write.lock.zookeeper.base_path", None,
    "ZookeeperBasedLockProvider: the ZooKeeper path under which lock nodes live; required.")

  val ConflictResolutionStrategy: ConfigEntry[io.pyhudi.transaction.ConflictResolutionStrategy] =
    ConfigEntry.enumeration("hoodie.write.lock.conflict.resolution.strategy",
      io.pyhudi.transaction.ConflictResolutionStrategy.SimpleFileWrites,
      io.pyhudi.transaction.ConflictResolutionStrategy.All,
      (s: io.pyhudi.transaction.ConflictResolutionStrategy) => s.className,
      "OPTIMISTIC_CONCURRENCY_CONTROL: Apache Hudi's SimpleConcurrentFileWritesConflictResolutionStrategy " +
        "(the only one): two writes conflict when they wrote to the same file group.")

  val EarlyConflictDetection: ConfigEntry[Boolean] = ConfigEntry.boolean(
    "hoodie.write.concurrency.early.conflict.detection.enable", default = false,
    "OPTIMISTIC_CONCURRENCY_CONTROL: before its tasks write anything, a write that updates existing " +
      "file groups fails at once when another pending write's markers name one of them, instead of " +
      "writing everything and losing at its commit.")

  val EarlyConflictCheckCommits: ConfigEntry[Boolean] = ConfigEntry.boolean(
    "hoodie.write.concurrency.early.conflict.check.commit.conflict", default = false,
    "With early conflict detection: also fail early when an instant that completed (or a compaction " +
      "or clustering scheduled) since this write read the timeline touched one of its file groups.")

  val ConflictGranularity: ConfigEntry[io.pyhudi.transaction.ConflictGranularity] = ConfigEntry.enumeration(
    "hoodie.write.conflict.granularity", io.pyhudi.transaction.ConflictGranularity.FileGroup,
    io.pyhudi.transaction.ConflictGranularity.All, (g: io.pyhudi.transaction.ConflictGranularity) => g.name,
    "OPTIMISTIC_CONCURRENCY_CONTROL: FILE_GROUP, two writes conflict when both wrote to one file group " +
      "(Apache Hudi's rule). COLUMN (merge-on-read upserts only): an upsert whose input leaves out some of the " +
      "table's columns writes only the columns it has (partial-column log blocks), and two such writes " +
      "to one file group conflict only when they share a non-key column; readers and compaction merge " +
      "the columns by key (docs/concurrency.md).")

  val PartialOrderingField: ConfigEntry[String] = ConfigEntry.string("hoodie.write.partial.ordering.field", None,
    "hoodie.write.conflict.granularity=COLUMN, a partial-column write: the column of its input that orders " +
      "its column group (a record's columns replace the stored ones only when its value is not smaller " +
      "than the stored one). Unset: the table's precombine field when the input has it, else none (the " +
      "later commit wins).")

  val ConcurrencyEntries: Seq[ConfigEntry[_]] = Seq(ConcurrencyMode, FailedWritesCleanPolicy, LockProvider,
    LockFilesystemPath, LockFilesystemExpire, LockNumRetries, ZookeeperUrl, ZookeeperPort, ZookeeperLockKey,
    ZookeeperBasePath, ConflictResolutionStrategy, EarlyConflictDetection, EarlyConflictCheckCommits,
    ConflictGranularity, PartialOrderingField)

  // Clean (docs/clean.md): Apache Hudi's current keys, each also read under its older hoodie.cleaner.* name.

  val CleanAutomatic: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.clean.automatic", default = true,
    "Clean after every successful write commit and compaction: delete file slices the clean policy " +
      "no longer needs (docs/clean.md).")

  val CleanPolicy: ConfigEntry[io.pyhudi.services.clean.CleanPolicy] = ConfigEntry.enumeration(
    "hoodie.clean.policy", io.pyhudi.services.clean.CleanPolicy.KeepLatestCommits,
    io.pyhudi.services.clean.CleanPolicy.All, (p: io.pyhudi.services.clean.CleanPolicy) => p.name,
    "Which older file slices a clean keeps: those serving the last hoodie.clean.commits.retained " +
      "commits, the newest hoodie.clean.fileversions.retained slices of each file group, or those " +
      "serving the commits of the last hoodie.clean.hours.retained hours.")
    .withAlternatives("hoodie.cleaner.policy")

  val CleanCommitsRetained: ConfigEntry[Int] = int("hoodie.clean.commits.retained", 10,
    "KEEP_LATEST_COMMITS: completed commits whose snapshot, time travel and incremental reads stay exact.")
    .withAlternatives("hoodie.cleaner.commits.retained")

  val CleanFileVersionsRetained: ConfigEntry[Int] = int("hoodie.clean.fileversions.retained", 3,
    "KEEP_LATEST_FILE_VERSIONS: file slices kept per file group, the latest included.")
    .withAlternatives("hoodie.cleaner.fileversions.retained")

  val CleanHoursRetained: ConfigEntry[Int] = int("hoodie.clean.hours.retained", 24,
    "KEEP_LATEST_BY_HOURS: hours back from now (UTC instant times) whose commits stay readable.")
    .withAlternatives("hoodie.cleaner.hours.retained")

  // Timeline service (docs/timeline-service.md).

  val EmbedTimelineServer: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.embed.timeline.server", default = true,
    "Run the timeline service in the driver (started on the first write of a SparkSession, reused by later " +
      "ones, stopped with it); with false, writes use direct markers.")

  val EmbedTimelineServerPort: ConfigEntry[Int] = ConfigEntry[Int]("hoodie.embed.timeline.server.port", Some(0),
    "Port of the driver's timeline service; 0 picks a free one. A port that is taken makes writes use direct markers.",
    (k, v) =>
      v.trim.toIntOption.filter(p => p >= 0 && p <= 65535).getOrElse(
        throw Errors.invalidOption(k, v, "expected a port number from 0 to 65535")))

  val MarkersType: ConfigEntry[io.pyhudi.write.commit.MarkerType] = ConfigEntry.enumeration(
    "hoodie.write.markers.type", io.pyhudi.write.commit.MarkerType.TimelineServerBased,
    io.pyhudi.write.commit.MarkerType.All, (m: io.pyhudi.write.commit.MarkerType) => m.name,
    "How tasks record the data files they are about to write (.hoodie/.temp/<instant>/): one marker file per " +
      "data file (DIRECT), or requests to the driver's timeline service, which writes them in batches into " +
      "MARKERS<n> files (TIMELINE_SERVER_BASED); a task whose request fails writes a direct marker instead.")

  val MarkersBatchNumThreads: ConfigEntry[Int] = int("hoodie.markers.timeline_server_based.batch.num_threads", 20,
    "TIMELINE_SERVER_BASED markers: how many MARKERS<n> files a write's markers are spread over.")

  val MarkersBatchIntervalMs: ConfigEntry[Long] = long("hoodie.markers.timeline_server_based.batch.interval_ms", 50L,
    "TIMELINE_SERVER_BASED markers: how often an idle timeline service checks for requests. Unlike Apache " +
      "Hudi's, pyhudi's service does not wait for the interval: it writes as soon as a request arrives, and the " +
      "requests that arrive while it writes form the next batch.")

  val TimelineServiceEntries: Seq[ConfigEntry[_]] = Seq(EmbedTimelineServer, EmbedTimelineServerPort, MarkersType,
    MarkersBatchNumThreads, MarkersBatchIntervalMs)
  // Archival (docs/archival.md): Apache Hudi's keys; ArchiveConfig checks them against each other.

  val ArchiveAutomatic: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.archive.automatic", default = true,
    "Archive after every successful write commit and compaction (after the automatic clean): move the " +
      "oldest instants to the archived timeline once more than hoodie.keep.max.commits commits are active " +
      "(docs/archival.md).")

  val KeepMinCommits: ConfigEntry[Int] = int("hoodie.keep.min.commits", 20,
    "Completed commits (commit, deltacommit, replacecommit) an archival leaves on the active timeline. " +
      "Must be greater than hoodie.clean.commits.retained.")

  val KeepMaxCommits: ConfigEntry[Int] = int("hoodie.keep.max.commits", 30,
    "Completed commits on the active timeline above which an archival runs. Must be greater than " +
      "hoodie.keep.min.commits.")
  // Clustering (docs/clustering.md): Apache Hudi's keys and defaults (SparkSizeBasedClusteringPlanStrategy).

  val ClusteringSortColumns: ConfigEntry[Seq[String]] = list("hoodie.clustering.plan.strategy.sort.columns",
    "Comma-separated data columns by which clustering sorts the records of each clustering group " +
      "(lexicographic order of the columns, Hudi's linear sort); unset: records keep their order.")

  val ClusteringTargetFileMaxBytes: ConfigEntry[Long] = positiveLong(
    "hoodie.clustering.plan.strategy.target.file.max.bytes", 1073741824L,
    "Size a base file written by clustering grows to before the next output file group starts; also " +
      "sets how many output file groups a clustering group plans.")

  val ClusteringSmallFileLimit: ConfigEntry[Long] = positiveLong(
    "hoodie.clustering.plan.strategy.small.file.limit", 314572800L,
    "File slices whose base file (merge-on-read: base plus log files) is smaller than this are clustered.")

  val ClusteringMaxNumGroups: ConfigEntry[Int] = int("hoodie.clustering.plan.strategy.max.num.groups", 30,
    "Clustering groups one clustering plans at most; further small file slices wait for the next one.")

  val ClusteringMaxBytesPerGroup: ConfigEntry[Long] = positiveLong(
    "hoodie.clustering.plan.strategy.max.bytes.per.group", 2147483648L,
    "Bytes of input file slices one clustering group reads at most (one Spark task).")

  val ClusteringPartitionSelected: ConfigEntry[Seq[String]] = list(
    "hoodie.clustering.plan.strategy.partition.selected",
    "Comma-separated partition paths clustering considers; unset: every partition.")

  val ClusteringPartitionRegex: ConfigEntry[java.util.regex.Pattern] = ConfigEntry[java.util.regex.Pattern](
    "hoodie.clustering.plan.strategy.partition.regex.pattern", None,
    "Regular expression a partition path must match entirely to be clustered; unset: every partition.",
    (k, v) =>
      try java.util.regex.Pattern.compile(v.trim)
      catch {
        case e: java.util.regex.PatternSyntaxException =>
          throw Errors.invalidOption(k, v, s"not a regular expression (${e.getDescription})")
      },
    render = _.pattern)

  val ClusteringInline: ConfigEntry[Boolean] = ConfigEntry.boolean("hoodie.clustering.inline", default = false,
    "After a write commit, cluster when hoodie.clustering.inline.max.commits commits have completed " +
      "since the last clustering.")

  val ClusteringInlineMaxCommits: ConfigEntry[Int] = int("hoodie.clustering.inline.max.commits", 4,
    "Completed write commits since the last clustering that trigger an inline clustering.")

  val ClusteringEntries: Seq[ConfigEntry[_]] = Seq(ClusteringSortColumns, ClusteringTargetFileMaxBytes,
    ClusteringSmallFileLimit, ClusteringMaxNumGroups, ClusteringMaxBytesPerGroup, ClusteringPartitionSelected,
    ClusteringPartitionRegex, ClusteringInline, ClusteringInlineMaxCommits)

  val OperationEntries: Seq[ConfigEntry[_]] = Seq(TableName, DatabaseName, TableType, Operation,
    PrecombineField, PayloadClass, IndexType, BloomNumEntries, BloomFpp, BloomFilterType,
    BloomMaxEntries, BloomPruneByRanges, BloomUpdatePartitionPath, SimpleUpdatePartitionPath,
    BucketNum, BucketHashField, SmallFileLimit, MaxFileSize, RecordSizeEstimate, CompressionCodec,
    ParquetBlockSize, ParquetPageSize, CombineBeforeUpsert, CombineBeforeInsert,
    CombineBeforeDelete, BulkInsertSortMode, PartitionsToDelete, LogFileMaxSize, CompactInline,
    CompactInlineMaxDeltaCommits, CompactScheduleInline, CompactionTargetIo, MetadataEnable,
    CleanAutomatic, CleanPolicy, CleanCommitsRetained, CleanFileVersionsRetained, CleanHoursRetained,
    ArchiveAutomatic, KeepMinCommits, KeepMaxCommits,
    HeartbeatInterval, HeartbeatTolerableMisses, LockWaitTime) ++ ClusteringEntries
}
