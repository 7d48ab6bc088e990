"""Read option keys of ``spark.read.format("pyhudi")`` and their typed values.

The key names are Apache Hudi's. The connector (JVM side) owns their validation; these
constants only spare callers from typing the strings.
"""

from enum import Enum

__all__ = [
    "QueryType",
    "QUERY_TYPE",
    "BEGIN_INSTANTTIME",
    "END_INSTANTTIME",
    "AS_OF_INSTANT",
]

QUERY_TYPE = "hoodie.datasource.query.type"
"""Which view of the table to read; values are :class:`QueryType`. Default ``snapshot``."""

BEGIN_INSTANTTIME = "hoodie.datasource.read.begin.instanttime"
"""Incremental queries: return records changed *after* this instant (exclusive)."""

END_INSTANTTIME = "hoodie.datasource.read.end.instanttime"
"""Incremental queries: last instant to include (inclusive); default the latest one."""

AS_OF_INSTANT = "as.of.instant"
"""Time travel: read the table as it was at this instant (inclusive)."""


class QueryType(str, Enum):
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

    def __str__(self) -> str:
        # The mixin's __str__ changed in Python 3.11; pin it to the value everywhere.
        return self.value
