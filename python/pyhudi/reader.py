# SPDX-License-Identifier: Apache-2.0
"""Typed entry point for reading a Hudi table into a DataFrame."""

import os
from datetime import datetime
from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Union

from pyhudi._args import OptionValue, path_value, put, user_options
from pyhudi.errors import translated
from pyhudi.options import AS_OF_INSTANT, BEGIN_INSTANTTIME, END_INSTANTTIME, QUERY_TYPE, QueryType

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["read", "Instant", "OptionValue"]

Instant = Union[str, datetime]
"""An instant: a Hudi instant string (``"20240418173213674"``, ``"2024-04-18 17:32:13.674"``)
or a naive ``datetime`` in the table's timeline time zone."""

_FORMAT = "pyhudi"


def read(
    spark: "SparkSession",
    path: Union[str, "os.PathLike[str]"],
    query_type: Optional[Union[QueryType, str]] = None,
    begin: Optional[Instant] = None,
    end: Optional[Instant] = None,
    as_of: Optional[Instant] = None,
    options: Optional[Mapping[str, OptionValue]] = None,
) -> "DataFrame":
    """Read the Hudi table at ``path``.

    The same as ``spark.read.format("pyhudi").options(...).load(path)`` with the
    arguments turned into options. Only argument types are checked here; the connector
    validates the values and reports errors naming the offending option.

    :param spark: the session; its builder must have gone through
        :func:`pyhudi.configure_spark` (or the jar given to ``spark-submit``).
    :param path: base path of the table (the folder that holds ``.hoodie/``).
    :param query_type: ``snapshot`` (default), ``read_optimized`` or ``incremental``.
    :param begin: incremental queries: records changed after this instant (exclusive).
    :param end: incremental queries: last instant included (default: latest).
    :param as_of: time travel: the table as of this instant (inclusive).
    :param options: further reader options (e.g. raw ``hoodie.*`` keys), passed through.
    :raises TypeError: for an argument of the wrong type.
    :raises ValueError: for a timezone-aware ``datetime`` or an option given twice.

    Examples::

        df = pyhudi.read(spark, "/data/trips")                                  # snapshot
        df = pyhudi.read(spark, "/data/trips", QueryType.READ_OPTIMIZED)
        df = pyhudi.read(spark, "/data/trips", as_of="20250331030642808")
        df = pyhudi.read(spark, "/data/trips", as_of=datetime(2025, 3, 31, 3, 6, 42, 808000))
        df = pyhudi.read(spark, "/data/trips", QueryType.INCREMENTAL,
                         begin="20250331030642808", end="20250331030645735")
        df = pyhudi.read(spark, "/data/trips", options={"hoodie.datasource.query.type": "snapshot"})

    ``datetime`` values become ``yyyy-MM-dd HH:mm:ss.SSS`` strings (millisecond precision,
    the precision of instant times). Hudi instant times are wall-clock times of the table's
    timeline time zone, so pass naive datetimes.
    """
    opts: Dict[str, OptionValue] = user_options(options)
    if query_type is not None:
        put(opts, QUERY_TYPE, _query_type_value(query_type))
    for key, name, value in (
        (BEGIN_INSTANTTIME, "begin", begin),
        (END_INSTANTTIME, "end", end),
        (AS_OF_INSTANT, "as_of", as_of),
    ):
        if value is not None:
            put(opts, key, _instant_value(name, value))

    # Resolving the table happens here; errors of the query itself surface when it runs, with
    # pyhudi's classes too (errors.install()).
    with translated():
        return spark.read.format(_FORMAT).options(**opts).load(path_value(path))


def _query_type_value(query_type: Any) -> str:
    if isinstance(query_type, QueryType):
        return query_type.value
    if isinstance(query_type, str):
        return query_type
    raise TypeError(f"query_type must be a QueryType or str, got {type(query_type)!r}")


def _instant_value(name: str, value: Any) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is not None and value.utcoffset() is not None:
            raise ValueError(
                f"{name} must be a naive datetime (wall-clock time in the table's timeline time zone), got {value!r}"
            )
        return value.strftime("%Y-%m-%d %H:%M:%S.") + f"{value.microsecond // 1000:03d}"
    if isinstance(value, str):
        return value
    raise TypeError(f"{name} must be a str or datetime.datetime, got {type(value)!r}")
