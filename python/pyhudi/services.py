"""Table services of merge-on-read tables, run on the JVM side of a SparkSession.

>>> import pyhudi
>>> pyhudi.compact(spark, "/data/trips")  # doctest: +SKIP
'20251121101500123'
"""

from typing import TYPE_CHECKING, List, Mapping, Optional

from pyhudi.errors import translated

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


__all__: List[str] = ["compact", "schedule_compaction", "run_pending_compactions"]
