# SPDX-License-Identifier: Apache-2.0
"""``HudiTable``: one Hudi table bound to a SparkSession, with its reads, writes, history and services.

>>> import pyhudi
>>> table = pyhudi.HudiTable.for_path(spark, "/data/trips")  # doctest: +SKIP
>>> table.upsert(updates)  # doctest: +SKIP
'20261123101500123'
>>> table.history().select("instant", "operation", "rows_updated").show()  # doctest: +SKIP
>>> table.to_df(as_of="20261123101500123").count()  # doctest: +SKIP
"""

import os
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Union

from pyhudi import services
from pyhudi._args import OptionValue, path_value
from pyhudi.errors import translated
from pyhudi.options import TABLE_NAME, QueryType, WriteOperation
from pyhudi.reader import Instant, read
from pyhudi.services import _java_map
from pyhudi.writer import write

if TYPE_CHECKING:  # pyhudi imports without pyspark
    from pyspark.sql import Column, DataFrame, SparkSession

__all__ = ["HudiTable"]


class HudiTable:
    """A Hudi table at a base path, read and written through a SparkSession.

    Create it with :meth:`for_path` (the table must exist; the first write of a new table goes
    through :func:`pyhudi.write`, which takes the table name, key and partition columns). Every
    method raises the classes of :mod:`pyhudi.errors` for the connector's errors.
    """

    def __init__(self, spark: "SparkSession", path: str, properties: Mapping[str, str]) -> None:
        self._spark = spark
        self._path = path
        self._properties = dict(properties)

    @classmethod
    def for_path(cls, spark: "SparkSession", path: Union[str, "os.PathLike[str]"]) -> "HudiTable":
        """Opens the table at ``path`` (the folder holding ``.hoodie/``).

        :raises pyhudi.errors.TableNotFoundError: when the path does not exist or holds no table.
        :raises pyhudi.errors.InvalidTableError: for a table version or layout pyhudi cannot use.
        """
        p = path_value(path)
        with translated():
            props = _table_info(spark).properties(spark._jsparkSession, p, _java_map(spark, None))
        return cls(spark, p, {str(k): str(v) for k, v in dict(props).items()})

    @property
    def path(self) -> str:
        """The base path the table was opened with."""
        return self._path

    @property
    def name(self) -> str:
        """``hoodie.table.name``."""
        return self._properties.get(TABLE_NAME, "")

    @property
    def table_type(self) -> str:
        """``COPY_ON_WRITE`` or ``MERGE_ON_READ``."""
        return self._properties.get("hoodie.table.type", "COPY_ON_WRITE")

    @property
    def properties(self) -> Dict[str, str]:
        """The table's ``hoodie.properties`` as they were when the table was opened."""
        return dict(self._properties)

    def latest_instant(self) -> Optional[str]:
        """The latest completed commit, deltacommit or replacecommit; None for an empty table."""
        with translated():
            latest = _table_info(self._spark).latestInstant(
                self._spark._jsparkSession, self._path, _java_map(self._spark, None)
            )
        return None if latest is None else str(latest)

    # Reads.

    def to_df(
        self,
        query_type: Optional[Union[QueryType, str]] = None,
        as_of: Optional[Instant] = None,
        begin: Optional[Instant] = None,
        end: Optional[Instant] = None,
        options: Optional[Mapping[str, OptionValue]] = None,
    ) -> "DataFrame":
        """The table as a DataFrame; the arguments are those of :func:`pyhudi.read`.

        ``table.to_df()`` is the latest snapshot, ``table.to_df(as_of=instant)`` time travels,
        ``table.to_df(QueryType.INCREMENTAL, begin=instant)`` returns what changed after it.
        """
        return read(self._spark, self._path, query_type=query_type, as_of=as_of, begin=begin, end=end, options=options)

    def history(self) -> "DataFrame":
        """One row per instant of the active timeline, oldest first.

        Columns: ``instant``, ``action``, ``state`` (requested / inflight / completed),
        ``operation`` (upsert, insert, bulk_insert, delete, insert_overwrite, compact, clean, ...),
        ``rows_inserted``, ``rows_updated``, ``rows_deleted``, ``files_written``,
        ``bytes_written``, ``started_at``, ``completed_at`` and ``duration_ms`` (from the times of
        the instant's timeline files: table version 6 records no completion time), and
        ``index_lookup``: for a pyhudi write that looked keys up, a struct of what the lookup did
        (``index_type``, ``lookup_ms``, ``files_indexed``, ``files_in_range``, ``files_probed``,
        ``files_matched``, ``keys_read``, ``bloom_checks``, ``bloom_positives``, ``records_found``),
        else null.
        """
        with translated():
            jdf = _table_info(self._spark).history(self._spark._jsparkSession, self._path, _java_map(self._spark, None))
        return _dataframe(self._spark, jdf)

    def file_groups(self) -> "DataFrame":
        """One row per file group a snapshot query reads.

        Columns: ``partition``, ``file_id``, ``slices`` (slices still on storage),
        ``latest_instant``, ``base_file``, ``base_size``, ``log_files``, ``log_size``,
        ``total_size``.
        """
        with translated():
            jdf = _table_info(self._spark).fileGroups(
                self._spark._jsparkSession, self._path, _java_map(self._spark, None)
            )
        return _dataframe(self._spark, jdf)

    # Writes.

    def upsert(self, df: "DataFrame", options: Optional[Mapping[str, OptionValue]] = None) -> Optional[str]:
        """Updates the rows whose keys exist and inserts the others; returns the new instant."""
        return self._write(df, WriteOperation.UPSERT, options)

    def insert(self, df: "DataFrame", options: Optional[Mapping[str, OptionValue]] = None) -> Optional[str]:
        """Inserts the rows without looking up existing keys; returns the new instant."""
        return self._write(df, WriteOperation.INSERT, options)

    def delete(
        self,
        rows: Union["DataFrame", "Column", str],
        options: Optional[Mapping[str, OptionValue]] = None,
    ) -> Optional[str]:
        """Deletes rows given as a DataFrame holding their keys, or matching a condition.

        A condition (a SQL string such as ``"fare > 100"`` or a Column) selects the rows of the
        latest snapshot to delete. Returns the new instant, or None when nothing matched.
        """
        from pyspark.sql import DataFrame

        if isinstance(rows, DataFrame):
            doomed = rows
        else:
            doomed = self.to_df().where(rows)
            if doomed.isEmpty():
                return None
        return self._write(doomed, WriteOperation.DELETE, options)

    def _write(
        self, df: "DataFrame", operation: WriteOperation, options: Optional[Mapping[str, OptionValue]]
    ) -> Optional[str]:
        write(df, self._path, operation=operation, options=options)
        return self.latest_instant()

    # Services.

    def compact(self, options: Optional[Mapping[str, str]] = None) -> Optional[str]:
        """Compacts a merge-on-read table now; see :func:`pyhudi.compact`."""
        return services.compact(self._spark, self._path, options)

    def clean(self, options: Optional[Mapping[str, str]] = None) -> List[str]:
        """Deletes the file slices the clean policy no longer needs; see :func:`pyhudi.clean`.
        Returns the completed clean instants (empty when there was nothing to delete)."""
        return services.clean(self._spark, self._path, options)

    def archive(
        self,
        options: Optional[Mapping[str, str]] = None,
        *,
        min_commits: Optional[int] = None,
        max_commits: Optional[int] = None,
    ) -> List[str]:
        """Moves the oldest instants to the archived timeline once more than ``max_commits``
        commits are active, keeping ``min_commits``; see :func:`pyhudi.archive`. Returns the
        archived instants as timeline file names, oldest first.

        >>> trips.archive(min_commits=12, max_commits=15)  # doctest: +SKIP
        ['20251120080000000.commit', '20251120090000000.clean']
        """
        return services.archive(self._spark, self._path, options, min_commits=min_commits, max_commits=max_commits)

    def cluster(
        self,
        sort_columns: Optional[Sequence[str]] = None,
        partitions: Optional[Sequence[str]] = None,
        target_file_max_bytes: Optional[int] = None,
        small_file_limit: Optional[int] = None,
        schedule_only: bool = False,
        options: Optional[Mapping[str, str]] = None,
    ) -> Optional[str]:
        """Rewrites small file slices into fewer, sorted base files; see :func:`pyhudi.cluster`.

        >>> table.cluster(sort_columns=["city", "ts"], partitions=["city=sf"])  # doctest: +SKIP
        '20251121101700789'

        Returns the clustering's instant, or None when there was nothing to cluster.
        """
        return services.cluster(
            self._spark,
            self._path,
            options,
            sort_columns=sort_columns,
            partitions=partitions,
            target_file_max_bytes=target_file_max_bytes,
            small_file_limit=small_file_limit,
            schedule_only=schedule_only,
        )

    def savepoint(
        self,
        instant: Optional[str] = None,
        name: Optional[str] = None,
        retain_days: Optional[int] = None,
        comment: Optional[str] = None,
    ) -> str:
        """Savepoints a completed write (default: the latest), optionally under a ``name`` that
        ``to_df(as_of=name)`` and :meth:`restore` accept; see :func:`pyhudi.savepoint`."""
        return services.savepoint(
            self._spark, self._path, instant=instant, name=name, retain_days=retain_days, comment=comment
        )

    def savepoints(self) -> List[Dict[str, Optional[str]]]:
        """The table's savepoints, oldest first; see :func:`pyhudi.savepoints`."""
        return services.savepoints(self._spark, self._path)

    def delete_savepoint(self, savepoint: str) -> str:
        """Deletes a savepoint by name or instant; returns its instant."""
        return services.delete_savepoint(self._spark, self._path, savepoint)

    def rollback(self, instant: Optional[str] = None) -> str:
        """Rolls back the latest completed write; see :func:`pyhudi.rollback`."""
        return services.rollback(self._spark, self._path, instant)

    def restore(self, savepoint: str) -> str:
        """Restores the table to a savepoint (name or instant); see :func:`pyhudi.restore`."""
        return services.restore(self._spark, self._path, savepoint)

    def __repr__(self) -> str:
        return f"HudiTable({self._path!r}, name={self.name!r}, type={self.table_type})"


def _table_info(spark: "SparkSession") -> Any:
    return spark._jvm.io.pyhudi.spark.api.TableInfo  # type: ignore[union-attr]


def _dataframe(spark: "SparkSession", jdf: Any) -> "DataFrame":
    from pyspark.sql import DataFrame

    return DataFrame(jdf, spark)
