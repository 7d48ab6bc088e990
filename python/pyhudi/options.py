"""Option keys of ``spark.read/write.format("pyhudi")`` and their typed values.

The key names are Apache Hudi's. The connector (JVM side) owns their validation; these
constants only spare callers from typing the strings. ``docs/options.md`` lists every option
with its default and meaning.
"""

from enum import Enum

__all__ = [
    "QueryType",
    "QUERY_TYPE",
    "BEGIN_INSTANTTIME",
    "END_INSTANTTIME",
    "AS_OF_INSTANT",
    "MissingFiles",
    "MISSING_FILES",
    "WriteOperation",
    "IndexType",
    "TableType",
    "TABLE_NAME",
    "TABLE_TYPE",
    "OPERATION",
    "RECORDKEY_FIELD",
    "PARTITIONPATH_FIELD",
    "PRECOMBINE_FIELD",
    "KEYGENERATOR_CLASS",
    "KEYGENERATOR_TYPE",
    "HIVE_STYLE_PARTITIONING",
    "URL_ENCODE_PARTITIONING",
    "PARTITIONS_TO_DELETE",
    "INDEX_TYPE",
    "BUCKET_INDEX_NUM_BUCKETS",
    "BLOOM_INDEX_UPDATE_PARTITION_PATH",
    "SIMPLE_INDEX_UPDATE_PARTITION_PATH",
    "COMBINE_BEFORE_UPSERT",
    "COMBINE_BEFORE_INSERT",
    "BULKINSERT_SORT_MODE",
    "PARQUET_SMALL_FILE_LIMIT",
    "PARQUET_MAX_FILE_SIZE",
    "PARQUET_COMPRESSION_CODEC",
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
"""Which view of the table to read; values are :class:`QueryType`. Default ``snapshot``."""

BEGIN_INSTANTTIME = "hoodie.datasource.read.begin.instanttime"
"""Incremental queries: return records changed *after* this instant (exclusive)."""

END_INSTANTTIME = "hoodie.datasource.read.end.instanttime"
"""Incremental queries: last instant to include (inclusive); default the latest one."""

AS_OF_INSTANT = "as.of.instant"
"""Time travel: read the table as it was at this instant (inclusive)."""


class QueryType(_StrEnum):
    """Value of :data:`QUERY_TYPE`.

    Members compare equal to their string values, so ``QueryType.SNAPSHOT == "snapshot"``.

    >>> QueryType("read_optimized") is QueryType.READ_OPTIMIZED
    True
    >>> str(QueryType.INCREMENTAL)
    'incremental'
    """

    SNAPSHOT = "snapshot"
    """Latest merged view: base files plus log files (merge-on-read)."""

    READ_OPTIMIZED = "read_optimized"
    """Base files only; merge-on-read tables skip their log files."""

    INCREMENTAL = "incremental"
    """Records written by the commits in ``(begin, end]``."""


MISSING_FILES = "hoodie.datasource.read.missing.files"
"""What a read does when a file that commit metadata lists for the slices it serves is gone;
values are :class:`MissingFiles`. Default ``fail``."""


class MissingFiles(_StrEnum):
    """Value of :data:`MISSING_FILES`."""

    FAIL = "fail"
    """Raise :class:`pyhudi.errors.MissingFileError` naming the file and the instant that wrote it."""

    SKIP = "skip"
    """Leave the missing file's rows out (never fall back to an older slice) and log a warning."""


# --------------------------------------------------------------------------------------------
# Write options

TABLE_NAME = "hoodie.table.name"
"""Name of the table; required when a write creates the table."""

TABLE_TYPE = "hoodie.datasource.write.table.type"
"""Storage type of a new table; values are :class:`TableType`. Default ``COPY_ON_WRITE``."""

OPERATION = "hoodie.datasource.write.operation"
"""What a write does; values are :class:`WriteOperation`. Default ``upsert``."""

RECORDKEY_FIELD = "hoodie.datasource.write.recordkey.field"
"""Comma-separated record key columns; more than one gives complex keys ``f1:v1,f2:v2``."""

PARTITIONPATH_FIELD = "hoodie.datasource.write.partitionpath.field"
"""Comma-separated partition columns; empty or absent for a non-partitioned table."""

PRECOMBINE_FIELD = "hoodie.datasource.write.precombine.field"
"""Ordering column: of two records with one key in a batch, the larger value wins.
Default ``ts`` when the input has such a column."""

KEYGENERATOR_CLASS = "hoodie.datasource.write.keygenerator.class"
"""Key generator class, e.g. ``org.apache.hudi.keygen.ComplexKeyGenerator``."""

KEYGENERATOR_TYPE = "hoodie.datasource.write.keygenerator.type"
"""Key generator by type name (``SIMPLE``, ``COMPLEX``, ``NON_PARTITION``, ``TIMESTAMP``...)."""

HIVE_STYLE_PARTITIONING = "hoodie.datasource.write.hive_style_partitioning"
"""``true``: partition folders are named ``col=value``. Default ``false``."""

URL_ENCODE_PARTITIONING = "hoodie.datasource.write.partitionpath.urlencode"
"""``true``: URL-encode partition values in partition paths. Default ``false``."""

PARTITIONS_TO_DELETE = "hoodie.datasource.write.partitions.to.delete"
"""``delete_partition``: comma-separated partition paths to delete."""

INDEX_TYPE = "hoodie.index.type"
"""How upserts and deletes find stored records; values are :class:`IndexType`. Default
``BLOOM``."""

BUCKET_INDEX_NUM_BUCKETS = "hoodie.bucket.index.num.buckets"
"""Bucket index: number of buckets (file groups) per partition. Default 256."""

BLOOM_INDEX_UPDATE_PARTITION_PATH = "hoodie.bloom.index.update.partition.path"
"""GLOBAL_BLOOM: a record whose partition changes moves to the new partition. Default ``true``."""

SIMPLE_INDEX_UPDATE_PARTITION_PATH = "hoodie.simple.index.update.partition.path"
"""GLOBAL_SIMPLE: a record whose partition changes moves to the new partition. Default ``true``."""

COMBINE_BEFORE_UPSERT = "hoodie.combine.before.upsert"
"""Collapse records of one key within an upsert batch (larger precombine wins). Default
``true``."""

COMBINE_BEFORE_INSERT = "hoodie.combine.before.insert"
"""Collapse records of one key within an insert batch. Default ``false``."""

BULKINSERT_SORT_MODE = "hoodie.bulkinsert.sort.mode"
"""bulk_insert ordering: ``NONE``, ``GLOBAL_SORT`` or ``PARTITION_SORT``."""

PARQUET_SMALL_FILE_LIMIT = "hoodie.parquet.small.file.limit"
"""Base files smaller than this many bytes receive inserts of later writes."""

PARQUET_MAX_FILE_SIZE = "hoodie.parquet.max.file.size"
"""Target maximum size of a base file in bytes."""

PARQUET_COMPRESSION_CODEC = "hoodie.parquet.compression.codec"
"""Compression codec of base files (``gzip``, ``snappy``, ``zstd``, ...)."""

IS_DELETED_COLUMN = "_hoodie_is_deleted"
"""Not an option: a boolean input column; ``true`` deletes the record's key in an upsert."""


class WriteOperation(_StrEnum):
    """Value of :data:`OPERATION`.

    >>> WriteOperation("bulk_insert") is WriteOperation.BULK_INSERT
    True
    """

    UPSERT = "upsert"
    """Insert new keys, replace the stored record of existing keys."""

    INSERT = "insert"
    """Insert without looking up keys: an existing key gets a duplicate."""

    BULK_INSERT = "bulk_insert"
    """Like insert, for large loads: no small-file packing, optional sorting."""

    DELETE = "delete"
    """Delete the keys of the input rows; unknown keys are ignored."""

    INSERT_OVERWRITE = "insert_overwrite"
    """Replace every record of the partitions present in the input."""

    INSERT_OVERWRITE_TABLE = "insert_overwrite_table"
    """Replace every record of the table."""

    DELETE_PARTITION = "delete_partition"
    """Delete the partitions named by :data:`PARTITIONS_TO_DELETE`."""


class IndexType(_StrEnum):
    """Value of :data:`INDEX_TYPE`.

    Non-global indexes identify a record by (partition path, record key); global ones by the
    record key alone.
    """

    BLOOM = "BLOOM"
    SIMPLE = "SIMPLE"
    GLOBAL_BLOOM = "GLOBAL_BLOOM"
    GLOBAL_SIMPLE = "GLOBAL_SIMPLE"
    BUCKET = "BUCKET"

    @property
    def is_global(self) -> bool:
        """Whether the index identifies records by key alone, across partitions."""
        return self in (IndexType.GLOBAL_BLOOM, IndexType.GLOBAL_SIMPLE)


class TableType(_StrEnum):
    """Value of :data:`TABLE_TYPE`."""

    COPY_ON_WRITE = "COPY_ON_WRITE"
    """Every write rewrites the touched file groups as new base files (``commit``)."""

    MERGE_ON_READ = "MERGE_ON_READ"
    """Updates and deletes go to log files merged on read (``deltacommit``); compaction folds
    them into base files."""
