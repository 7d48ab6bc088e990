# SPDX-License-Identifier: Apache-2.0
"""Rows whose partition value is null or empty.

Apache Hudi writes them to ``__HIVE_DEFAULT_PARTITION__`` (``part=__HIVE_DEFAULT_PARTITION__``
hive-style, one such segment per null field of a multi-field path). Every query type must return
them, on COW and MOR, and agree with hudi-rs; the partition column keeps the stored value (null
or ""), and partition pruning keeps the default partition exactly for filters null or "" can pass.
"""

import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import harness
import pytest
import write_support as ws
from pyspark.sql.types import IntegerType, LongType, StringType, StructField, StructType

from pyhudi.options import (
    AS_OF_INSTANT,
    BEGIN_INSTANTTIME,
    END_INSTANTTIME,
    QUERY_TYPE,
    QueryType,
)

DEFAULT = "__HIVE_DEFAULT_PARTITION__"
SCHEMA = StructType(
    [
        StructField("id", StringType()),
        StructField("part", StringType()),
        StructField("n", IntegerType()),
        StructField("ts", LongType()),
        StructField("val", StringType()),
    ]
)
DATA = [f.name for f in SCHEMA.fields]
META = ["_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path"]

# (id, part, n): two rows each with a null and an empty part, and nulls in the second field.
KEYS: List[Tuple[str, Optional[str], Optional[int]]] = [
    ("k1", "a", 1),
    ("k2", "a", None),
    ("k3", "b", 2),
    ("k4", "b", 2),
    ("k5", None, 1),
    ("k6", None, None),
    ("k7", "", 3),
    ("k8", "", None),
    ("k9", "a", 1),
]
UPDATED = ("k1", "k5", "k7", "k8")


def _rows(ts: int, ids: Sequence[str]) -> List[Tuple[Any, ...]]:
    return [(i, p, n, ts, f"{i}@{ts}") for i, p, n in KEYS if i in ids]


def _segment(field: str, value: Any, hive: bool) -> str:
    text = DEFAULT if value is None or value == "" else str(value)
    return f"{field}={text}" if hive else text


def _partition_path(row: Tuple[Any, ...], fields: Sequence[str], hive: bool) -> str:
    values = dict(zip(DATA, row))
    return "/".join(_segment(f, values[f], hive) for f in fields)


def _expected(rows: Sequence[Tuple[Any, ...]], commit: str, fields: Sequence[str], hive: bool) -> List[Dict[str, Any]]:
    out = []
    for row in rows:
        r = dict(zip(DATA, row))
        # The complex key generator names the field even for a single record key field.
        key = row[0] if len(fields) == 1 else f"id:{row[0]}"
        r.update(
            _hoodie_commit_time=commit,
            _hoodie_record_key=key,
            _hoodie_partition_path=_partition_path(row, fields, hive),
        )
        out.append(r)
    return out


def _read(spark: Any, path: Path, options: Optional[Dict[str, str]] = None, where: Optional[str] = None):
    df = harness.read_table(spark, path, options)
    if where is not None:
        df = df.filter(where)
    return df


def _rows_of(df: Any) -> List[Dict[str, Any]]:
    return ws.project(harness.spark_rows(df), DATA + META)


def _partitions_read(df: Any) -> Tuple[int, int]:
    plan = df._jdf.queryExecution().executedPlan().toString()
    match = re.search(r"partitions=(\d+)/(\d+)", plan)
    assert match, f"no partitions=R/T in the scan description:\n{plan}"
    return int(match.group(1)), int(match.group(2))


def _write(spark: Any, path: Path, rows: Sequence[Tuple[Any, ...]], options: Dict[str, str]) -> None:
    spark.createDataFrame(list(rows), SCHEMA).write.format("pyhudi").options(**options).mode("append").save(str(path))


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
@pytest.mark.parametrize("hive", [False, True], ids=["plain", "hive"])
@pytest.mark.parametrize("fields", [("part",), ("part", "n")], ids=["simple", "complex"])
def test_null_and_empty_partition_values(spark, tmp_path, table_type, hive, fields):
    path = tmp_path / "t"
    context = f"{table_type} hive={hive} fields={fields}"
    options = {
        "hoodie.table.name": "nulls",
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.recordkey.field": "id",
        "hoodie.datasource.write.partitionpath.field": ",".join(fields),
        "hoodie.datasource.write.precombine.field": "ts",
        "hoodie.datasource.write.hive_style_partitioning": str(hive).lower(),
        **ws.LATEST_WINS,
    }
    first = _rows(1, [k for k, _, _ in KEYS])
    _write(spark, path, first, options)
    ((c1, _),) = harness.completed_instants(path)
    updates = _rows(2, UPDATED)
    _write(spark, path, updates, options)
    c2 = harness.completed_instants(path)[-1][0]
    assert c2 > c1

    defaults = {_partition_path(r, fields, hive) for r in first if DEFAULT in _partition_path(r, fields, hive)}
    for folder in defaults:
        assert (path / folder / ".hoodie_partition_metadata").is_file(), f"{context}: {folder} not written"

    latest = {r[0]: r for r in first}
    latest.update({r[0]: r for r in updates})
    snapshot = _expected([r for r in latest.values() if r[0] not in UPDATED], c1, fields, hive) + _expected(
        updates, c2, fields, hive
    )

    # Snapshot: the written rows, and hudi-rs agrees (partition column null or "" as stored).
    ours = _rows_of(_read(spark, path))
    ws.assert_same(ours, snapshot, f"{context}: snapshot vs written rows")
    ws.assert_same(ours, ws.project(harness.hudi_rs_read(path), DATA + META), f"{context}: snapshot vs hudi-rs")

    # Read-optimized: base files only (MOR updates are in log files).
    ro = _rows_of(_read(spark, path, {QUERY_TYPE: QueryType.READ_OPTIMIZED.value}))
    ws.assert_same(
        ro, ws.project(ws.hudi_rs_read_optimized(path), DATA + META), f"{context}: read_optimized vs hudi-rs"
    )
    if table_type == "COPY_ON_WRITE":
        ws.assert_same(ro, snapshot, f"{context}: read_optimized vs written rows")
    else:
        assert sorted(r["id"] for r in ro) == sorted(k for k, _, _ in KEYS), f"{context}: read_optimized ids"

    # Time travel to the first commit.
    as_of = _rows_of(_read(spark, path, {AS_OF_INSTANT: c1}))
    ws.assert_same(as_of, _expected(first, c1, fields, hive), f"{context}: as of {c1}")
    ws.assert_same(as_of, ws.project(harness.hudi_rs_read(path, as_of=c1), DATA + META), f"{context}: as of vs hudi-rs")

    # Incremental: the whole history, then only the second commit.
    before = str(int(c1) - 1)
    for begin, expected in ((before, snapshot), (c1, _expected(updates, c2, fields, hive))):
        inc = _rows_of(
            _read(spark, path, {QUERY_TYPE: QueryType.INCREMENTAL.value, BEGIN_INSTANTTIME: begin, END_INSTANTTIME: c2})
        )
        ws.assert_same(inc, expected, f"{context}: incremental ({begin}, {c2}]")
        ws.assert_same(
            inc,
            ws.project(harness.hudi_rs_read(path, begin=begin, end=c2), DATA + META),
            f"{context}: incremental ({begin}, {c2}] vs hudi-rs",
        )

    # Pruning: the default partition is read exactly when null or "" can pass the filter.
    total = len({_partition_path(r, fields, hive) for r in first})
    by_part = {
        "part IS NULL": (
            [r for r in snapshot if r["part"] is None],
            len({p for p in defaults if p.split("/")[0].endswith(DEFAULT)}),
        ),
        "part = ''": ([r for r in snapshot if r["part"] == ""], None),
        "part = 'a'": (
            [r for r in snapshot if r["part"] == "a"],
            len({_partition_path(r, fields, hive) for r in first if r[1] == "a"}),
        ),
        "part IS NOT NULL": ([r for r in snapshot if r["part"] is not None], None),
    }
    for where, (expected, partitions) in by_part.items():
        df = _read(spark, path, where=where)
        ws.assert_same(_rows_of(df), expected, f"{context}: {where}")
        read, listed = _partitions_read(df)
        assert listed == total, f"{context}: {where}: {listed} partitions listed, {total} written"
        if partitions is not None:
            assert read == partitions, f"{context}: {where}: {read} partitions read, expected {partitions}"
    if len(fields) == 2:
        df = _read(spark, path, where="n IS NULL")
        ws.assert_same(_rows_of(df), [r for r in snapshot if r["n"] is None], f"{context}: n IS NULL")

    if table_type == "MERGE_ON_READ":
        # Compaction plans from the same listing: it must fold the default partitions' logs too.
        import pyhudi

        assert pyhudi.compact(spark, str(path)) is not None, f"{context}: nothing compacted"
        ro = _rows_of(_read(spark, path, {QUERY_TYPE: QueryType.READ_OPTIMIZED.value}))
        ws.assert_same(ro, snapshot, f"{context}: read_optimized after compaction")
        ws.assert_same(
            _rows_of(_read(spark, path)),
            ws.project(harness.hudi_rs_read(path), DATA + META),
            f"{context}: snapshot after compaction vs hudi-rs",
        )
