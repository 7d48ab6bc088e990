# SPDX-License-Identifier: Apache-2.0
"""Option keys of ``spark.read/write.format("pyhudi")``, their defaults and valid values.

Generated from the option definitions in ``spark-connector/src/main/scala/io/pyhudi/config/``
by ``make docs`` (``io.pyhudi.config.PythonOptions``); do not edit by hand. The key names are
Apache Hudi's. The connector (JVM side) validates values; these constants spare callers from
typing the strings. ``docs/options.md`` lists the same options as a table.
"""

from enum import Enum

__all__ = [
    "QUERY_TYPE",
    "QueryType",
    "BEGIN_INSTANTTIME",
    "END_INSTANTTIME",
    "AS_OF_INSTANT",
    "MISSING_FILES",
    "MissingFiles",
    "PARTITION_VALUES_FROM_FOOTER_MIN_BYTES",
    "TABLE_NAME",
    "DATABASE_NAME",
    "TABLE_TYPE",
    "TableType",
    "OPERATION",
    "WriteOperation",
    "PRECOMBINE_FIELD",
    "PAYLOAD_CLASS",
    "INDEX_TYPE",
    "IndexType",
    "INDEX_BLOOM_NUM_ENTRIES",
    "INDEX_BLOOM_FPP",
    "BLOOM_INDEX_FILTER_TYPE",
    "BloomIndexFilterType",
    "BLOOM_INDEX_FILTER_DYNAMIC_MAX_ENTRIES",
    "BLOOM_INDEX_PRUNE_BY_RANGES",
    "BLOOM_INDEX_UPDATE_PARTITION_PATH",
    "SIMPLE_INDEX_UPDATE_PARTITION_PATH",
    "BUCKET_INDEX_NUM_BUCKETS",
    "BUCKET_INDEX_HASH_FIELD",
    "PARQUET_SMALL_FILE_LIMIT",
    "PARQUET_MAX_FILE_SIZE",
    "COPYONWRITE_RECORD_SIZE_ESTIMATE",
    "PARQUET_COMPRESSION_CODEC",
    "ParquetCompressionCodec",
    "PARQUET_BLOCK_SIZE",
    "PARQUET_PAGE_SIZE",
    "COMBINE_BEFORE_UPSERT",
    "COMBINE_BEFORE_INSERT",
    "COMBINE_BEFORE_DELETE",
    "BULKINSERT_SORT_MODE",
    "BulkinsertSortMode",
    "PARTITIONS_TO_DELETE",
    "LOGFILE_MAX_SIZE",
    "COMPACT_INLINE",
    "COMPACT_INLINE_MAX_DELTA_COMMITS",
    "COMPACT_SCHEDULE_INLINE",
    "COMPACTION_TARGET_IO",
    "METADATA_ENABLE",
    "CLEAN_AUTOMATIC",
    "CLEAN_POLICY",
    "CleanPolicy",
    "CLEAN_COMMITS_RETAINED",
    "CLEAN_FILEVERSIONS_RETAINED",
    "CLEAN_HOURS_RETAINED",
    "ARCHIVE_AUTOMATIC",
    "KEEP_MIN_COMMITS",
    "KEEP_MAX_COMMITS",
    "CLIENT_HEARTBEAT_INTERVAL_IN_MS",
    "CLIENT_HEARTBEAT_TOLERABLE_MISSES",
    "WRITE_LOCK_WAIT_TIME_MS",
    "CLUSTERING_PLAN_STRATEGY_SORT_COLUMNS",
    "CLUSTERING_PLAN_STRATEGY_TARGET_FILE_MAX_BYTES",
    "CLUSTERING_PLAN_STRATEGY_SMALL_FILE_LIMIT",
    "CLUSTERING_PLAN_STRATEGY_MAX_NUM_GROUPS",
    "CLUSTERING_PLAN_STRATEGY_MAX_BYTES_PER_GROUP",
    "CLUSTERING_PLAN_STRATEGY_PARTITION_SELECTED",
    "CLUSTERING_PLAN_STRATEGY_PARTITION_REGEX_PATTERN",
    "CLUSTERING_INLINE",
    "CLUSTERING_INLINE_MAX_COMMITS",
    "WRITE_CONCURRENCY_MODE",
    "WriteConcurrencyMode",
    "CLEANER_POLICY_FAILED_WRITES",
    "CleanerPolicyFailedWrites",
    "WRITE_LOCK_PROVIDER",
    "WRITE_LOCK_FILESYSTEM_PATH",
    "WRITE_LOCK_FILESYSTEM_EXPIRE",
    "WRITE_LOCK_NUM_RETRIES",
    "WRITE_LOCK_ZOOKEEPER_URL",
    "WRITE_LOCK_ZOOKEEPER_PORT",
    "WRITE_LOCK_ZOOKEEPER_LOCK_KEY",
    "WRITE_LOCK_ZOOKEEPER_BASE_PATH",
    "WRITE_LOCK_CONFLICT_RESOLUTION_STRATEGY",
    "WRITE_CONCURRENCY_EARLY_CONFLICT_DETECTION_ENABLE",
    "WRITE_CONCURRENCY_EARLY_CONFLICT_CHECK_COMMIT_CONFLICT",
    "WRITE_CONFLICT_GRANULARITY",
    "WriteConflictGranularity",
    "WRITE_PARTIAL_ORDERING_FIELD",
    "RECORDKEY_FIELD",
    "PARTITIONPATH_FIELD",
    "KEYGENERATOR_CLASS",
    "KEYGENERATOR_TYPE",
    "KeygeneratorType",
    "HIVE_STYLE_PARTITIONING",
    "PARTITIONPATH_URLENCODE",
    "URL_ENCODE_PARTITIONING",
    "KEYGEN_TIMEBASED_TIMESTAMP_TYPE",
    "KeygenTimebasedTimestampType",
    "KEYGEN_TIMEBASED_TIMESTAMP_SCALAR_TIME_UNIT",
    "KeygenTimebasedTimestampScalarTimeUnit",
    "KEYGEN_TIMEBASED_INPUT_DATEFORMAT",
    "KEYGEN_TIMEBASED_OUTPUT_DATEFORMAT",
    "KEYGEN_TIMEBASED_TIMEZONE",
    "EMBED_TIMELINE_SERVER",
    "EMBED_TIMELINE_SERVER_PORT",
    "WRITE_MARKERS_TYPE",
    "WriteMarkersType",
    "MARKERS_TIMELINE_SERVER_BASED_BATCH_NUM_THREADS",
    "MARKERS_TIMELINE_SERVER_BASED_BATCH_INTERVAL_MS",
    "IS_DELETED_COLUMN",
]


class _StrEnum(str, Enum):
    """Members compare equal to their string values and print as them."""

    def __str__(self) -> str:
        # The mixin's __str__ changed in Python 3.11; pin it to the value everywhere.
        return str(self.value)


# --------------------------------------------------------------------------------------------
# Read options

QUERY_TYPE = "hoodie.datasource.query.type"
"""snapshot: latest merged view (base + log files); read_optimized: base files only (merge-on-read
tables skip log files); incremental: records written by commits in (begin, end].

Default: ``snapshot``.

Valid values (:class:`QueryType`): ``snapshot``, ``read_optimized``, ``incremental``.
"""


class QueryType(_StrEnum):
    """Values of :data:`QUERY_TYPE`."""

    SNAPSHOT = "snapshot"
    READ_OPTIMIZED = "read_optimized"
    INCREMENTAL = "incremental"


BEGIN_INSTANTTIME = "hoodie.datasource.read.begin.instanttime"
"""Incremental queries: return records changed after this instant (exclusive). An instant
(yyyyMMddHHmmssSSS, yyyyMMddHHmmss, 'yyyy-MM-dd HH:mm:ss[.SSS]') or a digit string such as 000 for
the beginning of the table.

No default.
"""

END_INSTANTTIME = "hoodie.datasource.read.end.instanttime"
"""Incremental queries: last instant to include (inclusive); defaults to the latest completed
instant. Same formats as the begin instant.

No default.
"""

AS_OF_INSTANT = "as.of.instant"
"""Time travel: read the table as of this instant (inclusive). Accepts yyyyMMddHHmmssSSS,
yyyyMMddHHmmss and 'yyyy-MM-dd HH:mm:ss[.SSS]', or the name of a savepoint (a value starting with a
letter), which reads as of the savepointed instant.

No default.
"""

MISSING_FILES = "hoodie.datasource.read.missing.files"
"""What a read does when a file that a completed instant's commit metadata lists for the file slices
it serves (a latest base file, or a log file written against it) is gone from storage: fail raises
MissingFileException naming the file and the instant that wrote it; skip leaves that file's rows out
(never serving an older slice in its place) and logs a warning per file. Writes that index or merge
into such a slice always fail.

Default: ``fail``.

Valid values (:class:`MissingFiles`): ``fail``, ``skip``.
"""


class MissingFiles(_StrEnum):
    """Values of :data:`MISSING_FILES`."""

    FAIL = "fail"
    SKIP = "skip"


PARTITION_VALUES_FROM_FOOTER_MIN_BYTES = "hoodie.datasource.read.partition.values.from.footer.min.bytes"
"""Columnar scans read the partition columns (and _hoodie_partition_path) of a base file's split at
least this many bytes long as constants, without decoding them, when the file's parquet footer
statistics show one value and no nulls; the values still come from the file. It costs one more
footer read per split (Hudi's bloom filter makes a footer about 1 MB at the defaults), which a small
file's rows do not repay. 0: every split.

Default: ``2097152``.
"""


# --------------------------------------------------------------------------------------------
# Write options

TABLE_NAME = "hoodie.table.name"
"""Table name; required when a write creates the table.

No default.
"""

DATABASE_NAME = "hoodie.database.name"
"""Database name recorded in hoodie.properties (part of the table checksum).

No default.
"""

TABLE_TYPE = "hoodie.datasource.write.table.type"
"""Table type when a write creates the table; must match an existing table's type.

Default: ``COPY_ON_WRITE``.

Valid values (:class:`TableType`): ``COPY_ON_WRITE``, ``MERGE_ON_READ``.
"""


class TableType(_StrEnum):
    """Values of :data:`TABLE_TYPE`."""

    COPY_ON_WRITE = "COPY_ON_WRITE"
    MERGE_ON_READ = "MERGE_ON_READ"


OPERATION = "hoodie.datasource.write.operation"
"""What the write does: upsert (update or insert by key), insert (no key lookup), bulk_insert (no
key lookup, no small-file packing), delete (rows or keys), insert_overwrite (replace the partitions
present in the input), insert_overwrite_table, delete_partition.

Default: ``upsert``.

Valid values (:class:`WriteOperation`): ``upsert``, ``insert``, ``bulk_insert``, ``delete``,
``insert_overwrite``, ``insert_overwrite_table``, ``delete_partition``.
"""


class WriteOperation(_StrEnum):
    """Values of :data:`OPERATION`."""

    UPSERT = "upsert"
    INSERT = "insert"
    BULK_INSERT = "bulk_insert"
    DELETE = "delete"
    INSERT_OVERWRITE = "insert_overwrite"
    INSERT_OVERWRITE_TABLE = "insert_overwrite_table"
    DELETE_PARTITION = "delete_partition"


PRECOMBINE_FIELD = "hoodie.datasource.write.precombine.field"
"""Ordering field: among records with one key the larger value wins. The default `ts` applies only
when the input has such a column.

Default: ``ts``.
"""

PAYLOAD_CLASS = "hoodie.datasource.write.payload.class"
"""Merge semantics recorded in a new table (hoodie.compaction.payload.class):
DefaultHoodieRecordPayload (event-time ordering: of two versions of a key the larger precombine
value wins, in a batch, against the stored record and among log records) or
OverwriteWithLatestAvroPayload (commit-time ordering: the incoming record replaces the stored one).
Default: DefaultHoodieRecordPayload when the table has a precombine field, else
OverwriteWithLatestAvroPayload; these two are the payloads that Apache Hudi 0.14/0.15, Apache Hudi
1.x and hudi-rs merge alike (docs/interop.md). An existing table keeps its own.

No default.
"""

INDEX_TYPE = "hoodie.index.type"
"""How a write finds the file group of each existing key. GLOBAL_* keep keys unique across
partitions; BUCKET derives the file group from the key's hash.

Default: ``BLOOM``.

Valid values (:class:`IndexType`): ``BLOOM``, ``SIMPLE``, ``GLOBAL_BLOOM``, ``GLOBAL_SIMPLE``,
``BUCKET``.
"""


class IndexType(_StrEnum):
    """Values of :data:`INDEX_TYPE`."""

    BLOOM = "BLOOM"
    SIMPLE = "SIMPLE"
    GLOBAL_BLOOM = "GLOBAL_BLOOM"
    GLOBAL_SIMPLE = "GLOBAL_SIMPLE"
    BUCKET = "BUCKET"

    @property
    def is_global(self) -> bool:
        """Whether the index identifies records by key alone, across partitions."""
        return self in (IndexType.GLOBAL_BLOOM, IndexType.GLOBAL_SIMPLE)

    @property
    def is_bucket(self) -> bool:
        """Whether the key's hash picks the file group (no lookup)."""
        return self is IndexType.BUCKET


INDEX_BLOOM_NUM_ENTRIES = "hoodie.index.bloom.num_entries"
"""Keys per bloom filter (per dynamic filter row).

Default: ``60000``.
"""

INDEX_BLOOM_FPP = "hoodie.index.bloom.fpp"
"""Target false-positive probability of the bloom filters.

Default: ``1.0E-9``.
"""

BLOOM_INDEX_FILTER_TYPE = "hoodie.bloom.index.filter.type"
"""Bloom filter layout written to base file footers.

Default: ``DYNAMIC_V0``.

Valid values (:class:`BloomIndexFilterType`): ``DYNAMIC_V0``, ``SIMPLE``.
"""


class BloomIndexFilterType(_StrEnum):
    """Values of :data:`BLOOM_INDEX_FILTER_TYPE`."""

    DYNAMIC_V0 = "DYNAMIC_V0"
    SIMPLE = "SIMPLE"


BLOOM_INDEX_FILTER_DYNAMIC_MAX_ENTRIES = "hoodie.bloom.index.filter.dynamic.max.entries"
"""Key capacity at which a dynamic bloom filter stops growing.

Default: ``100000``.
"""

BLOOM_INDEX_PRUNE_BY_RANGES = "hoodie.bloom.index.prune.by.ranges"
"""Check a key only against files whose min/max record key range contains it.

Default: ``true``.

Valid values: ``true``, ``false``.
"""

BLOOM_INDEX_UPDATE_PARTITION_PATH = "hoodie.bloom.index.update.partition.path"
"""GLOBAL_BLOOM: a record whose partition changed moves (deleted from the old partition, inserted
into the new one); when false it is updated in its old partition.

Default: ``true``.

Valid values: ``true``, ``false``.
"""

SIMPLE_INDEX_UPDATE_PARTITION_PATH = "hoodie.simple.index.update.partition.path"
"""GLOBAL_SIMPLE: like hoodie.bloom.index.update.partition.path.

Default: ``true``.

Valid values: ``true``, ``false``.
"""

BUCKET_INDEX_NUM_BUCKETS = "hoodie.bucket.index.num.buckets"
"""BUCKET index: file groups (buckets) per partition.

Default: ``256``.
"""

BUCKET_INDEX_HASH_FIELD = "hoodie.bucket.index.hash.field"
"""BUCKET index: record key fields hashed into the bucket number (default: all of them).

No default.
"""

PARQUET_SMALL_FILE_LIMIT = "hoodie.parquet.small.file.limit"
"""Base files smaller than this take new inserts before new file groups are opened (0 disables).

Default: ``104857600``.
"""

PARQUET_MAX_FILE_SIZE = "hoodie.parquet.max.file.size"
"""Target maximum size of a base file in bytes.

Default: ``125829120``.
"""

COPYONWRITE_RECORD_SIZE_ESTIMATE = "hoodie.copyonwrite.record.size.estimate"
"""Bytes per record assumed for file sizing until earlier commits give a measured average.

Default: ``1024``.
"""

PARQUET_COMPRESSION_CODEC = "hoodie.parquet.compression.codec"
"""Compression of base files. zstd, as Apache Hudi on Spark 3.5 and later (0.x used gzip): as fast
to write as snappy and smaller (bench/codec_bench.py); Apache Hudi 1.2 and 0.15 and hudi-rs read it.

Default: ``zstd``.

Valid values (:class:`ParquetCompressionCodec`): ``gzip``, ``snappy``, ``zstd``, ``lz4``,
``uncompressed``.
"""


class ParquetCompressionCodec(_StrEnum):
    """Values of :data:`PARQUET_COMPRESSION_CODEC`."""

    GZIP = "gzip"
    SNAPPY = "snappy"
    ZSTD = "zstd"
    LZ4 = "lz4"
    UNCOMPRESSED = "uncompressed"


PARQUET_BLOCK_SIZE = "hoodie.parquet.block.size"
"""Parquet row group size in bytes.

Default: ``125829120``.
"""

PARQUET_PAGE_SIZE = "hoodie.parquet.page.size"
"""Parquet page size in bytes.

Default: ``1048576``.
"""

COMBINE_BEFORE_UPSERT = "hoodie.combine.before.upsert"
"""De-duplicate incoming records by key (precombine field wins) before an upsert.

Default: ``true``.

Valid values: ``true``, ``false``.
"""

COMBINE_BEFORE_INSERT = "hoodie.combine.before.insert"
"""De-duplicate incoming records by key before insert, bulk_insert and insert_overwrite.

Default: ``false``.

Valid values: ``true``, ``false``.
"""

COMBINE_BEFORE_DELETE = "hoodie.combine.before.delete"
"""De-duplicate incoming keys before a delete.

Default: ``true``.

Valid values: ``true``, ``false``.
"""

BULKINSERT_SORT_MODE = "hoodie.bulkinsert.sort.mode"
"""bulk_insert ordering: NONE writes input partitions as they are; GLOBAL_SORT sorts all records by
partition path and key (tight key ranges for later lookups); PARTITION_SORT sorts within each input
partition.

Default: ``NONE``.

Valid values (:class:`BulkinsertSortMode`): ``NONE``, ``GLOBAL_SORT``, ``PARTITION_SORT``.
"""


class BulkinsertSortMode(_StrEnum):
    """Values of :data:`BULKINSERT_SORT_MODE`."""

    NONE = "NONE"
    GLOBAL_SORT = "GLOBAL_SORT"
    PARTITION_SORT = "PARTITION_SORT"


PARTITIONS_TO_DELETE = "hoodie.datasource.write.partitions.to.delete"
"""delete_partition: comma-separated partition paths to delete (as stored, e.g. city=paris).

No default.
"""

LOGFILE_MAX_SIZE = "hoodie.logfile.max.size"
"""Merge-on-read: a write's log file for one file slice rolls over to the next log version at this
size (at most 1 GiB: a log file's data block is built in memory as one array).

Default: ``1073741824``.
"""

COMPACT_INLINE = "hoodie.compact.inline"
"""Merge-on-read: after a delta commit, compact when hoodie.compact.inline.max.delta.commits delta
commits have completed since the last compaction.

Default: ``false``.

Valid values: ``true``, ``false``.
"""

COMPACT_INLINE_MAX_DELTA_COMMITS = "hoodie.compact.inline.max.delta.commits"
"""Merge-on-read: delta commits since the last compaction that trigger an inline compaction.

Default: ``5``.
"""

COMPACT_SCHEDULE_INLINE = "hoodie.compact.schedule.inline"
"""Merge-on-read: when the inline trigger fires, only schedule the compaction (a
compaction.requested plan); a later pyhudi compact() call or write executes it.

Default: ``false``.

Valid values: ``true``, ``false``.
"""

COMPACTION_TARGET_IO = "hoodie.compaction.target.io"
"""Bytes (base plus log files) one compaction reads at most; slices beyond it wait for the next one.

Default: ``536870912000``.
"""

METADATA_ENABLE = "hoodie.metadata.enable"
"""Apache Hudi's metadata table. pyhudi does not maintain it: a table's metadata table is removed
before pyhudi changes the table, and Apache Hudi rebuilds it on its next write (docs/interop.md).
true is accepted, as Apache Hudi jobs often set it, and logs a warning.

Default: ``false``.

Valid values: ``true``, ``false``.
"""

CLEAN_AUTOMATIC = "hoodie.clean.automatic"
"""Clean after every successful write commit and compaction: delete file slices the clean policy no
longer needs (docs/clean.md).

Default: ``true``.

Valid values: ``true``, ``false``.
"""

CLEAN_POLICY = "hoodie.clean.policy"
"""Which older file slices a clean keeps: those serving the last hoodie.clean.commits.retained
commits, the newest hoodie.clean.fileversions.retained slices of each file group, or those serving
the commits of the last hoodie.clean.hours.retained hours.

Default: ``KEEP_LATEST_COMMITS``.

Valid values (:class:`CleanPolicy`): ``KEEP_LATEST_COMMITS``, ``KEEP_LATEST_FILE_VERSIONS``,
``KEEP_LATEST_BY_HOURS``.

Also read as ``hoodie.cleaner.policy``.
"""


class CleanPolicy(_StrEnum):
    """Values of :data:`CLEAN_POLICY`."""

    KEEP_LATEST_COMMITS = "KEEP_LATEST_COMMITS"
    KEEP_LATEST_FILE_VERSIONS = "KEEP_LATEST_FILE_VERSIONS"
    KEEP_LATEST_BY_HOURS = "KEEP_LATEST_BY_HOURS"


CLEAN_COMMITS_RETAINED = "hoodie.clean.commits.retained"
"""KEEP_LATEST_COMMITS: completed commits whose snapshot, time travel and incremental reads stay
exact.

Default: ``10``.

Also read as ``hoodie.cleaner.commits.retained``.
"""

CLEAN_FILEVERSIONS_RETAINED = "hoodie.clean.fileversions.retained"
"""KEEP_LATEST_FILE_VERSIONS: file slices kept per file group, the latest included.

Default: ``3``.

Also read as ``hoodie.cleaner.fileversions.retained``.
"""

CLEAN_HOURS_RETAINED = "hoodie.clean.hours.retained"
"""KEEP_LATEST_BY_HOURS: hours back from now (UTC instant times) whose commits stay readable.

Default: ``24``.

Also read as ``hoodie.cleaner.hours.retained``.
"""

ARCHIVE_AUTOMATIC = "hoodie.archive.automatic"
"""Archive after every successful write commit and compaction (after the automatic clean): move the
oldest instants to the archived timeline once more than hoodie.keep.max.commits commits are active
(docs/archival.md).

Default: ``true``.

Valid values: ``true``, ``false``.
"""

KEEP_MIN_COMMITS = "hoodie.keep.min.commits"
"""Completed commits (commit, deltacommit, replacecommit) an archival leaves on the active timeline.
Must be greater than hoodie.clean.commits.retained.

Default: ``20``.
"""

KEEP_MAX_COMMITS = "hoodie.keep.max.commits"
"""Completed commits on the active timeline above which an archival runs. Must be greater than
hoodie.keep.min.commits.

Default: ``30``.
"""

CLIENT_HEARTBEAT_INTERVAL_IN_MS = "hoodie.client.heartbeat.interval_in_ms"
"""How often a running write or compaction renews its heartbeat (.hoodie/.heartbeat/<instant>). A
pending instant whose heartbeat is older than this times hoodie.client.heartbeat.tolerable.misses
belongs to a dead writer and is rolled back by the next write; a younger one makes the next write
fail with WriteConflictException instead of touching it (EAGER hoodie.cleaner.policy.failed.writes),
or is left to finish (LAZY).

Default: ``60000``.
"""

CLIENT_HEARTBEAT_TOLERABLE_MISSES = "hoodie.client.heartbeat.tolerable.misses"
"""Heartbeat renewals a writer may miss before it counts as dead (see
hoodie.client.heartbeat.interval_in_ms).

Default: ``2``.
"""

WRITE_LOCK_WAIT_TIME_MS = "hoodie.write.lock.wait_time_ms"
"""How long a writer waits for the table's commit lock (.hoodie/.aux/pyhudi.lock), which it holds
only while it checks the timeline and starts, commits or rolls back an instant. Under
OPTIMISTIC_CONCURRENCY_CONTROL: how long one attempt to take the lock provider's lock waits (see
hoodie.write.lock.num_retries).

Default: ``60000``.
"""

CLUSTERING_PLAN_STRATEGY_SORT_COLUMNS = "hoodie.clustering.plan.strategy.sort.columns"
"""Comma-separated data columns by which clustering sorts the records of each clustering group
(lexicographic order of the columns, Hudi's linear sort); unset: records keep their order.

No default.
"""

CLUSTERING_PLAN_STRATEGY_TARGET_FILE_MAX_BYTES = "hoodie.clustering.plan.strategy.target.file.max.bytes"
"""Size a base file written by clustering grows to before the next output file group starts; also
sets how many output file groups a clustering group plans.

Default: ``1073741824``.
"""

CLUSTERING_PLAN_STRATEGY_SMALL_FILE_LIMIT = "hoodie.clustering.plan.strategy.small.file.limit"
"""File slices whose base file (merge-on-read: base plus log files) is smaller than this are
clustered.

Default: ``314572800``.
"""

CLUSTERING_PLAN_STRATEGY_MAX_NUM_GROUPS = "hoodie.clustering.plan.strategy.max.num.groups"
"""Clustering groups one clustering plans at most; further small file slices wait for the next one.

Default: ``30``.
"""

CLUSTERING_PLAN_STRATEGY_MAX_BYTES_PER_GROUP = "hoodie.clustering.plan.strategy.max.bytes.per.group"
"""Bytes of input file slices one clustering group reads at most (one Spark task).

Default: ``2147483648``.
"""

CLUSTERING_PLAN_STRATEGY_PARTITION_SELECTED = "hoodie.clustering.plan.strategy.partition.selected"
"""Comma-separated partition paths clustering considers; unset: every partition.

No default.
"""

CLUSTERING_PLAN_STRATEGY_PARTITION_REGEX_PATTERN = "hoodie.clustering.plan.strategy.partition.regex.pattern"
"""Regular expression a partition path must match entirely to be clustered; unset: every partition.

No default.
"""

CLUSTERING_INLINE = "hoodie.clustering.inline"
"""After a write commit, cluster when hoodie.clustering.inline.max.commits commits have completed
since the last clustering.

Default: ``false``.

Valid values: ``true``, ``false``.
"""

CLUSTERING_INLINE_MAX_COMMITS = "hoodie.clustering.inline.max.commits"
"""Completed write commits since the last clustering that trigger an inline clustering.

Default: ``4``.
"""

WRITE_CONCURRENCY_MODE = "hoodie.write.concurrency.mode"
"""SINGLE_WRITER: one writer at a time, checked (a writer that overlaps another fails with
WriteConflictException). OPTIMISTIC_CONCURRENCY_CONTROL: writers run at once; at commit, under the
lock of hoodie.write.lock.provider, a write that touched a file group another write committed to
since it started, or inserted a key another write inserted, fails.

Default: ``SINGLE_WRITER``.

Valid values (:class:`WriteConcurrencyMode`): ``SINGLE_WRITER``,
``OPTIMISTIC_CONCURRENCY_CONTROL``.
"""


class WriteConcurrencyMode(_StrEnum):
    """Values of :data:`WRITE_CONCURRENCY_MODE`."""

    SINGLE_WRITER = "SINGLE_WRITER"
    OPTIMISTIC_CONCURRENCY_CONTROL = "OPTIMISTIC_CONCURRENCY_CONTROL"


CLEANER_POLICY_FAILED_WRITES = "hoodie.cleaner.policy.failed.writes"
"""EAGER: before a write, pending writes whose heartbeat expired are rolled back and a pending write
with a live heartbeat stops it. LAZY: pending writes are rolled back only once their heartbeat
expired; live ones are left to finish. Unset: EAGER under SINGLE_WRITER, LAZY under
OPTIMISTIC_CONCURRENCY_CONTROL, which does not accept EAGER.

No default.

Valid values (:class:`CleanerPolicyFailedWrites`): ``EAGER``, ``LAZY``.
"""


class CleanerPolicyFailedWrites(_StrEnum):
    """Values of :data:`CLEANER_POLICY_FAILED_WRITES`."""

    EAGER = "EAGER"
    LAZY = "LAZY"


WRITE_LOCK_PROVIDER = "hoodie.write.lock.provider"
"""OPTIMISTIC_CONCURRENCY_CONTROL: the lock writers hold while they check for conflicts and commit,
by Apache Hudi's class name (or its simple name): a lock file (FileSystemBasedLockProvider), a lock
per table path in this JVM (InProcessLockProvider) or an Apache Curator lock in ZooKeeper
(ZookeeperBasedLockProvider). Apache Hudi's default is ZooKeeper; pyhudi's needs no server.

Default: ``org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider``.

Valid values: ``org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider``,
``org.apache.hudi.client.transaction.lock.InProcessLockProvider``,
``org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider``.
"""

WRITE_LOCK_FILESYSTEM_PATH = "hoodie.write.lock.filesystem.path"
"""FileSystemBasedLockProvider: the folder of the lock file `lock`; unset, the table's .hoodie
folder.

No default.
"""

WRITE_LOCK_FILESYSTEM_EXPIRE = "hoodie.write.lock.filesystem.expire"
"""FileSystemBasedLockProvider: minutes after which a held lock file is broken by the next writer; 0
never breaks a lock whose holder renews it (a lock file whose renewals stopped, left by a killed
process, is broken either way).

Default: ``0``.
"""

WRITE_LOCK_NUM_RETRIES = "hoodie.write.lock.num_retries"
"""OPTIMISTIC_CONCURRENCY_CONTROL: attempts to take the lock after the first, each waiting up to
hoodie.write.lock.wait_time_ms; then the write fails with LOCK_TIMEOUT naming the holder.

Default: ``15``.
"""

WRITE_LOCK_ZOOKEEPER_URL = "hoodie.write.lock.zookeeper.url"
"""ZookeeperBasedLockProvider: the ZooKeeper host(s), comma-separated; required.

No default.
"""

WRITE_LOCK_ZOOKEEPER_PORT = "hoodie.write.lock.zookeeper.port"
"""ZookeeperBasedLockProvider: the port of hosts in hoodie.write.lock.zookeeper.url that name none.

Default: ``2181``.
"""

WRITE_LOCK_ZOOKEEPER_LOCK_KEY = "hoodie.write.lock.zookeeper.lock_key"
"""ZookeeperBasedLockProvider: the lock's node under the base path; unset, the table name.

No default.
"""

WRITE_LOCK_ZOOKEEPER_BASE_PATH = "hoodie.write.lock.zookeeper.base_path"
"""ZookeeperBasedLockProvider: the ZooKeeper path under which lock nodes live; required.

No default.
"""

WRITE_LOCK_CONFLICT_RESOLUTION_STRATEGY = "hoodie.write.lock.conflict.resolution.strategy"
"""OPTIMISTIC_CONCURRENCY_CONTROL: Apache Hudi's
SimpleConcurrentFileWritesConflictResolutionStrategy (the only one): two writes conflict when they
wrote to the same file group.

Default:
``org.apache.hudi.client.transaction.SimpleConcurrentFileWritesConflictResolutionStrategy``.

Valid values:
``org.apache.hudi.client.transaction.SimpleConcurrentFileWritesConflictResolutionStrategy``.
"""

WRITE_CONCURRENCY_EARLY_CONFLICT_DETECTION_ENABLE = "hoodie.write.concurrency.early.conflict.detection.enable"
"""OPTIMISTIC_CONCURRENCY_CONTROL: before its tasks write anything, a write that updates existing
file groups fails at once when another pending write's markers name one of them, instead of writing
everything and losing at its commit.

Default: ``false``.

Valid values: ``true``, ``false``.
"""

WRITE_CONCURRENCY_EARLY_CONFLICT_CHECK_COMMIT_CONFLICT = "hoodie.write.concurrency.early.conflict.check.commit.conflict"
"""With early conflict detection: also fail early when an instant that completed (or a compaction or
clustering scheduled) since this write read the timeline touched one of its file groups.

Default: ``false``.

Valid values: ``true``, ``false``.
"""

WRITE_CONFLICT_GRANULARITY = "hoodie.write.conflict.granularity"
"""OPTIMISTIC_CONCURRENCY_CONTROL: FILE_GROUP, two writes conflict when both wrote to one file group
(Apache Hudi's rule). COLUMN (merge-on-read upserts only): an upsert whose input leaves out some of
the table's columns writes only the columns it has (partial-column log blocks), and two such writes
to one file group conflict only when they share a non-key column; readers and compaction merge the
columns by key (docs/concurrency.md).

Default: ``FILE_GROUP``.

Valid values (:class:`WriteConflictGranularity`): ``FILE_GROUP``, ``COLUMN``.
"""


class WriteConflictGranularity(_StrEnum):
    """Values of :data:`WRITE_CONFLICT_GRANULARITY`."""

    FILE_GROUP = "FILE_GROUP"
    COLUMN = "COLUMN"


WRITE_PARTIAL_ORDERING_FIELD = "hoodie.write.partial.ordering.field"
"""hoodie.write.conflict.granularity=COLUMN, a partial-column write: the column of its input that
orders its column group (a record's columns replace the stored ones only when its value is not
smaller than the stored one). Unset: the table's precombine field when the input has it, else none
(the later commit wins).

No default.
"""

RECORDKEY_FIELD = "hoodie.datasource.write.recordkey.field"
"""Comma-separated record key columns; nested fields as a.b. Required: pyhudi does not generate
keys. One field gives keys like 1; the complex key generator gives id:1,name:Alice.

No default.
"""

PARTITIONPATH_FIELD = "hoodie.datasource.write.partitionpath.field"
"""Comma-separated partition columns; nested fields as a.b. Unset for a non-partitioned table.

No default.
"""

KEYGENERATOR_CLASS = "hoodie.datasource.write.keygenerator.class"
"""Hudi key generator class; wins over the type option. When neither is set: no partition field
gives the non-partitioned generator, one key field and one partition field the simple one, anything
else the complex one.

No default.

Valid values: ``org.apache.hudi.keygen.SimpleKeyGenerator``,
``org.apache.hudi.keygen.ComplexKeyGenerator``,
``org.apache.hudi.keygen.NonpartitionedKeyGenerator``,
``org.apache.hudi.keygen.TimestampBasedKeyGenerator``.
"""

KEYGENERATOR_TYPE = "hoodie.datasource.write.keygenerator.type"
"""Key generator by type name (case-insensitive), used when no class is given.

No default.

Valid values (:class:`KeygeneratorType`): ``SIMPLE``, ``COMPLEX``, ``NON_PARTITION``,
``TIMESTAMP``.
"""


class KeygeneratorType(_StrEnum):
    """Values of :data:`KEYGENERATOR_TYPE`."""

    SIMPLE = "SIMPLE"
    COMPLEX = "COMPLEX"
    NON_PARTITION = "NON_PARTITION"
    TIMESTAMP = "TIMESTAMP"


HIVE_STYLE_PARTITIONING = "hoodie.datasource.write.hive_style_partitioning"
"""Name partition folders column=value instead of value.

Default: ``false``.

Valid values: ``true``, ``false``.
"""

PARTITIONPATH_URLENCODE = "hoodie.datasource.write.partitionpath.urlencode"
"""Escape characters such as / : = % in partition values as %XX (Hive escaping).

Default: ``false``.

Valid values: ``true``, ``false``.
"""

URL_ENCODE_PARTITIONING = PARTITIONPATH_URLENCODE
"""Earlier name of :data:`PARTITIONPATH_URLENCODE`."""

KEYGEN_TIMEBASED_TIMESTAMP_TYPE = "hoodie.keygen.timebased.timestamp.type"
"""Timestamp-based key generator: how the partition field is read. UNIX_TIMESTAMP: seconds;
EPOCHMILLISECONDS: milliseconds; SCALAR: numbers in the scalar time unit; DATE_STRING: text in the
input date format. Timestamp and date columns are read as instants.

No default.

Valid values (:class:`KeygenTimebasedTimestampType`): ``UNIX_TIMESTAMP``, ``DATE_STRING``,
``EPOCHMILLISECONDS``, ``SCALAR``.
"""


class KeygenTimebasedTimestampType(_StrEnum):
    """Values of :data:`KEYGEN_TIMEBASED_TIMESTAMP_TYPE`."""

    UNIX_TIMESTAMP = "UNIX_TIMESTAMP"
    DATE_STRING = "DATE_STRING"
    EPOCHMILLISECONDS = "EPOCHMILLISECONDS"
    SCALAR = "SCALAR"


KEYGEN_TIMEBASED_TIMESTAMP_SCALAR_TIME_UNIT = "hoodie.keygen.timebased.timestamp.scalar.time.unit"
"""Timestamp-based key generator, SCALAR type: the unit of the numbers.

Default: ``SECONDS``.

Valid values (:class:`KeygenTimebasedTimestampScalarTimeUnit`): ``NANOSECONDS``,
``MICROSECONDS``, ``MILLISECONDS``, ``SECONDS``, ``MINUTES``, ``HOURS``, ``DAYS``.
"""


class KeygenTimebasedTimestampScalarTimeUnit(_StrEnum):
    """Values of :data:`KEYGEN_TIMEBASED_TIMESTAMP_SCALAR_TIME_UNIT`."""

    NANOSECONDS = "NANOSECONDS"
    MICROSECONDS = "MICROSECONDS"
    MILLISECONDS = "MILLISECONDS"
    SECONDS = "SECONDS"
    MINUTES = "MINUTES"
    HOURS = "HOURS"
    DAYS = "DAYS"


KEYGEN_TIMEBASED_INPUT_DATEFORMAT = "hoodie.keygen.timebased.input.dateformat"
"""Timestamp-based key generator, DATE_STRING type: Joda-Time pattern(s) of the text, comma
separated, e.g. yyyy-MM-dd'T'HH:mm:ss.SSSZ.

No default.
"""

KEYGEN_TIMEBASED_OUTPUT_DATEFORMAT = "hoodie.keygen.timebased.output.dateformat"
"""Timestamp-based key generator: Joda-Time pattern of the partition path, e.g. yyyy/MM/dd/HH.

No default.
"""

KEYGEN_TIMEBASED_TIMEZONE = "hoodie.keygen.timebased.timezone"
"""Timestamp-based key generator: zone in which the partition path is formatted and in which input
text without an offset is read.

Default: ``UTC``.
"""

EMBED_TIMELINE_SERVER = "hoodie.embed.timeline.server"
"""Run the timeline service in the driver (started on the first write of a SparkSession, reused by
later ones, stopped with it); with false, writes use direct markers.

Default: ``true``.

Valid values: ``true``, ``false``.
"""

EMBED_TIMELINE_SERVER_PORT = "hoodie.embed.timeline.server.port"
"""Port of the driver's timeline service; 0 picks a free one. A port that is taken makes writes use
direct markers.

Default: ``0``.
"""

WRITE_MARKERS_TYPE = "hoodie.write.markers.type"
"""How tasks record the data files they are about to write (.hoodie/.temp/<instant>/): one marker
file per data file (DIRECT), or requests to the driver's timeline service, which writes them in
batches into MARKERS<n> files (TIMELINE_SERVER_BASED); a task whose request fails writes a direct
marker instead.

Default: ``TIMELINE_SERVER_BASED``.

Valid values (:class:`WriteMarkersType`): ``DIRECT``, ``TIMELINE_SERVER_BASED``.
"""


class WriteMarkersType(_StrEnum):
    """Values of :data:`WRITE_MARKERS_TYPE`."""

    DIRECT = "DIRECT"
    TIMELINE_SERVER_BASED = "TIMELINE_SERVER_BASED"


MARKERS_TIMELINE_SERVER_BASED_BATCH_NUM_THREADS = "hoodie.markers.timeline_server_based.batch.num_threads"
"""TIMELINE_SERVER_BASED markers: how many MARKERS<n> files a write's markers are spread over.

Default: ``20``.
"""

MARKERS_TIMELINE_SERVER_BASED_BATCH_INTERVAL_MS = "hoodie.markers.timeline_server_based.batch.interval_ms"
"""TIMELINE_SERVER_BASED markers: how often an idle timeline service checks for requests. Unlike
Apache Hudi's, pyhudi's service does not wait for the interval: it writes as soon as a request
arrives, and the requests that arrive while it writes form the next batch.

Default: ``50``.
"""

IS_DELETED_COLUMN = "_hoodie_is_deleted"
"""Not an option: a boolean input column; ``true`` deletes the record's key in an upsert."""
