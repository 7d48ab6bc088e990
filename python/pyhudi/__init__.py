# SPDX-License-Identifier: Apache-2.0
"""pyhudi: read and write Apache Hudi tables (table version 6) with Spark 4.

>>> from pyspark.sql import SparkSession
>>> import pyhudi
>>> spark = pyhudi.configure_spark(SparkSession.builder).getOrCreate()  # doctest: +SKIP
>>> df = pyhudi.read(spark, "/data/trips", as_of="20250331030642808")  # doctest: +SKIP
>>> pyhudi.write(df, "/data/trips_copy", table_name="trips_copy", record_key="uuid",
...              partition_by="city")  # doctest: +SKIP
"""

from pyhudi import errors
from pyhudi.options import IndexType, QueryType, TableType, WriteOperation
from pyhudi.reader import read
from pyhudi.services import (
    archive,
    clean,
    cluster,
    compact,
    delete_savepoint,
    restore,
    rollback,
    run_pending_compactions,
    savepoint,
    savepoints,
    schedule_compaction,
)
from pyhudi.session import configure_spark, jar_path
from pyhudi.table import HudiTable
from pyhudi.version import __version__
from pyhudi.writer import write

# The DataFrame API (format("pyhudi")) raises pyhudi.errors' classes, as pyhudi's helpers do.
errors.install()

__all__ = [
    "__version__",
    "errors",
    "HudiTable",
    "jar_path",
    "configure_spark",
    "read",
    "write",
    "QueryType",
    "WriteOperation",
    "IndexType",
    "TableType",
    "compact",
    "schedule_compaction",
    "run_pending_compactions",
    "savepoint",
    "savepoints",
    "delete_savepoint",
    "rollback",
    "restore",
    "clean",
    "archive",
    "cluster",
]
