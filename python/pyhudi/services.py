# SPDX-License-Identifier: Apache-2.0
"""Table services, run on the JVM side of a SparkSession: compaction of merge-on-read tables,
clean (docs/clean.md), archival (docs/archival.md), clustering (docs/clustering.md), savepoints,
rollback of the latest write and restore to a savepoint (docs/savepoints.md).

>>> import pyhudi
>>> pyhudi.compact(spark, "/data/trips")  # doctest: +SKIP
'20251121101500123'
>>> pyhudi.savepoint(spark, "/data/trips", name="before-backfill", retain_days=30)  # doctest: +SKIP
'20251121101500123'
>>> pyhudi.clean(spark, "/data/trips", {"hoodie.clean.commits.retained": "5"})  # doctest: +SKIP
['20251121101600456']
>>> pyhudi.archive(spark, "/data/trips", min_commits=12, max_commits=15)  # doctest: +SKIP
['20251120080000000.commit', '20251120090000000.clean', '20251120100000000.commit']
>>> pyhudi.cluster(spark, "/data/trips", sort_columns=["city", "ts"])  # doctest: +SKIP
'20251121101700789'
"""

from typing import TYPE_CHECKING, Dict, List, Mapping, Optional, Sequence

from pyhudi.errors import translated
from pyhudi.options import KEEP_MAX_COMMITS, KEEP_MIN_COMMITS

if TYPE_CHECKING:  # pyhudi imports without pyspark (e.g. to print jar_path())
    from pyspark.sql import SparkSession


def _services(spark: "SparkSession"):  # type: ignore[no-untyped-def]
    return spark._jvm.io.pyhudi.spark.api.TableServices  # type: ignore[union-attr]


def _java_map(spark: "SparkSession", options: Optional[Mapping[str, str]]):  # type: ignore[no-untyped-def]
    jmap = spark._jvm.java.util.HashMap()  # type: ignore[union-attr]
    for key, value in (options or {}).items():
        jmap.put(str(key), str(value))
    return jmap


def compact(spark: "SparkSession", path: str, options: Optional[Mapping[str, str]] = None) -> Optional[str]:
    """Compacts a merge-on-read table: every file slice with log files gets a new base file.

    Pending compactions (scheduled earlier, or interrupted) run first. Returns the instant of the
    new compaction, else of the last pending one it executed, or None when there was nothing
    to compact. ``options`` take the write options that shape
    base files (``hoodie.parquet.compression.codec``, ``hoodie.compaction.target.io``, ...).
    """
    with translated():
        instant = _services(spark).compact(spark._jsparkSession, path, _java_map(spark, options))
    return None if instant is None else str(instant)


def cluster(
    spark: "SparkSession",
    path: str,
    options: Optional[Mapping[str, str]] = None,
    *,
    sort_columns: Optional[Sequence[str]] = None,
    partitions: Optional[Sequence[str]] = None,
    target_file_max_bytes: Optional[int] = None,
    small_file_limit: Optional[int] = None,
    schedule_only: bool = False,
) -> Optional[str]:
    """Clusters the table now: rewrites small file slices into fewer base files of new file
    groups, sorted by ``sort_columns``, as one replacecommit (docs/clustering.md).

    Clusterings left pending (scheduled, or interrupted) run first. The keyword arguments set
    ``hoodie.clustering.plan.strategy.sort.columns``, ``...partition.selected``,
    ``...target.file.max.bytes`` and ``...small.file.limit`` over ``options``. With
    ``schedule_only`` only the plan (``<instant>.replacecommit.requested``) is written. Returns
    the new clustering's instant, else the last pending one executed, or None when no partition
    had small files to cluster.
    """
    opts: Dict[str, str] = {str(k): str(v) for k, v in (options or {}).items()}
    if sort_columns is not None:
        opts[_CLUSTERING + "sort.columns"] = ",".join(_names("sort_columns", sort_columns))
    if partitions is not None:
        opts[_CLUSTERING + "partition.selected"] = ",".join(_names("partitions", partitions))
    for name, key, value in (
        ("target_file_max_bytes", "target.file.max.bytes", target_file_max_bytes),
        ("small_file_limit", "small.file.limit", small_file_limit),
    ):
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"{name} must be a positive int, not {value!r}")
            opts[_CLUSTERING + key] = str(value)
    with translated():
        instant = _services(spark).cluster(spark._jsparkSession, path, _java_map(spark, opts), bool(schedule_only))
    return None if instant is None else str(instant)


_CLUSTERING = "hoodie.clustering.plan.strategy."


def _names(arg: str, values: Sequence[str]) -> List[str]:
    if isinstance(values, str):
        values = [values]
    names = [str(v).strip() for v in values]
    if not names or any(not n or "," in n for n in names):
        raise ValueError(f"{arg} must be non-empty names without commas, not {values!r}")
    return names


def schedule_compaction(spark: "SparkSession", path: str, options: Optional[Mapping[str, str]] = None) -> Optional[str]:
    """Writes a compaction plan (``<instant>.compaction.requested``) without executing it.

    A later :func:`compact`, :func:`run_pending_compactions` or write executes it.
    """
    with translated():
        instant = _services(spark).scheduleCompaction(spark._jsparkSession, path, _java_map(spark, options))
    return None if instant is None else str(instant)


def run_pending_compactions(spark: "SparkSession", path: str, options: Optional[Mapping[str, str]] = None) -> List[str]:
    """Executes every scheduled or interrupted compaction; returns their instants."""
    with translated():
        done = _services(spark).runPendingCompactions(spark._jsparkSession, path, _java_map(spark, options))
    return [str(i) for i in done]


def savepoint(
    spark: "SparkSession",
    path: str,
    instant: Optional[str] = None,
    name: Optional[str] = None,
    retain_days: Optional[int] = None,
    comment: Optional[str] = None,
    options: Optional[Mapping[str, str]] = None,
) -> str:
    """Savepoints a completed commit, deltacommit or replacecommit (default: the latest).

    ``name`` (a letter, then letters, digits, ``.``, ``_``, ``:`` or ``-``; unique per table)
    can then be given wherever an instant is read (``as_of=``, :func:`restore`);
    ``retain_days`` sets an expiry: the first clean after it drops the savepoint. Returns the savepointed instant.
    """
    if retain_days is not None and (not isinstance(retain_days, int) or isinstance(retain_days, bool)):
        raise TypeError(f"retain_days must be an int, not {type(retain_days).__name__}")
    with translated():
        done = _services(spark).savepoint(
            spark._jsparkSession, path, instant, name, int(retain_days or 0), comment, _java_map(spark, options)
        )
    return str(done)


def savepoints(
    spark: "SparkSession", path: str, options: Optional[Mapping[str, str]] = None
) -> List[Dict[str, Optional[str]]]:
    """The completed savepoints, oldest first: ``instant``, ``name``, ``expires`` and ``created``
    (epoch seconds), ``savepointed_by``, ``comment`` and ``files`` (files savepointed)."""
    with translated():
        listed = _services(spark).savepoints(spark._jsparkSession, path, _java_map(spark, options))
    return [{str(k): (None if v is None else str(v)) for k, v in dict(m).items()} for m in listed]


def delete_savepoint(
    spark: "SparkSession", path: str, savepoint: str, options: Optional[Mapping[str, str]] = None
) -> str:
    """Deletes the savepoint with this name or instant (the instant's data stays); returns its instant."""
    with translated():
        return str(_services(spark).deleteSavepoint(spark._jsparkSession, path, savepoint, _java_map(spark, options)))


def rollback(
    spark: "SparkSession", path: str, instant: Optional[str] = None, options: Optional[Mapping[str, str]] = None
) -> str:
    """Rolls back the latest completed write (``instant``, if given, must be it); returns its instant.

    A savepointed instant is refused (``INSTANT_SAVEPOINTED``); to go back further, :func:`restore`.
    """
    with translated():
        return str(_services(spark).rollback(spark._jsparkSession, path, instant, _java_map(spark, options)))


def restore(spark: "SparkSession", path: str, savepoint: str, options: Optional[Mapping[str, str]] = None) -> str:
    """Restores the table to a savepoint (name or instant): every later instant is rolled back,
    newest first. An interrupted restore is finished first. Returns the restore instant."""
    with translated():
        return str(_services(spark).restore(spark._jsparkSession, path, savepoint, _java_map(spark, options)))


def clean(spark: "SparkSession", path: str, options: Optional[Mapping[str, str]] = None, **more: str) -> List[str]:
    """Cleans a table now: deletes the file slices the clean policy no longer needs (docs/clean.md).

    Cleans left pending by an interrupted process are finished first. ``options`` (and keyword
    arguments, for keys that are identifiers) take the clean options (``hoodie.clean.policy``,
    ``hoodie.clean.commits.retained``, ...). Returns the completed clean instants, oldest first;
    empty when there was nothing to delete.
    """
    merged = {**(options or {}), **more}
    with translated():
        done = _services(spark).clean(spark._jsparkSession, path, _java_map(spark, merged))
    return [str(i) for i in done]


def archive(
    spark: "SparkSession",
    path: str,
    options: Optional[Mapping[str, str]] = None,
    *,
    min_commits: Optional[int] = None,
    max_commits: Optional[int] = None,
) -> List[str]:
    """Archives a table now: moves its oldest instants to the archived timeline (docs/archival.md).

    When more than ``max_commits`` (``hoodie.keep.max.commits``, default 30) completed commits are
    on the active timeline, the oldest move to ``.hoodie/archived/`` until ``min_commits``
    (``hoodie.keep.min.commits``, default 20) remain, never at or past the earliest commit the
    last clean retains, a savepoint or a pending instant; cleans and rollbacks older than the
    first kept commit go with them. ``min_commits`` must exceed ``hoodie.clean.commits.retained``
    and ``max_commits`` must exceed ``min_commits`` (else :class:`pyhudi.errors.InvalidOptionError`).
    An archival interrupted earlier is finished first. Returns the archived instants as timeline
    file names (``20251121101500123.commit``), oldest first; empty when nothing was due.

    >>> pyhudi.archive(spark, "/data/trips", min_commits=12, max_commits=15)  # doctest: +SKIP
    ['20251120080000000.commit', '20251120090000000.clean', '20251120100000000.commit']
    """
    merged: Dict[str, str] = dict(options or {})
    if min_commits is not None:
        merged[KEEP_MIN_COMMITS] = str(min_commits)
    if max_commits is not None:
        merged[KEEP_MAX_COMMITS] = str(max_commits)
    with translated():
        done = _services(spark).archive(spark._jsparkSession, path, _java_map(spark, merged))
    return [str(i) for i in done]


__all__: List[str] = [
    "compact",
    "schedule_compaction",
    "run_pending_compactions",
    "clean",
    "archive",
    "savepoint",
    "savepoints",
    "delete_savepoint",
    "rollback",
    "restore",
]
