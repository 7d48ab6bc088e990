# SPDX-License-Identifier: Apache-2.0
"""Row normalisation shared by the Apache Hudi worker (PySpark 3.5) and the tests (PySpark 4).

Plain Python only, so that both interpreters import it: every value becomes JSON-comparable
(dates and timestamps as ISO text in UTC, decimals as text, bytes as hex, structs as dicts).
"""

import datetime as dt
import json
from decimal import Decimal
from typing import Any, Dict, Iterable, List


def normalize(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        # PySpark hands out naive local datetimes; astimezone reads them as local time.
        aware = value if value.tzinfo else value.astimezone()
        return aware.astimezone(dt.timezone.utc).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if hasattr(value, "asDict"):  # a Spark Row (a tuple) holding a struct
        return {k: normalize(v) for k, v in value.asDict(recursive=False).items()}
    if isinstance(value, dict):
        return {str(k): normalize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalize(v) for v in value]
    raise TypeError(f"cannot normalise {type(value).__name__}: {value!r}")


def normalize_rows(rows: Iterable[Any]) -> List[Dict[str, Any]]:
    """Spark rows as sorted, JSON-comparable dicts."""
    out = [{k: normalize(v) for k, v in r.asDict(recursive=False).items()} for r in rows]
    return sorted(out, key=lambda r: json.dumps(r, sort_keys=True))


def frame(spark: Any, schema: str, rows: Iterable[Dict[str, Any]]) -> Any:
    """A DataFrame of ``rows`` (JSON objects) in the DDL ``schema``, built the same way in every
    Spark version, so that both engines write exactly the same values."""
    from pyspark.sql.functions import col, from_json

    lines = [(json.dumps(r),) for r in rows]
    return spark.createDataFrame(lines, "value string").select(from_json(col("value"), schema).alias("v")).select("v.*")
