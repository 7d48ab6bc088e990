# SPDX-License-Identifier: Apache-2.0
"""Base files of top-level primitive columns are written column by column, and come out as
Spark's write support writes them.

Each test writes the same rows twice with ``bulk_insert``: once as pyhudi writes by default (the
column writer), once with the Hadoop setting ``pyhudi.parquet.write.record-consumer=true`` (Spark's
write support, the path every file took before). The rows must read back equal to the input
through pyhudi and pyarrow, and each pair of base files of a partition must agree in their
parquet schema, footer entries, row groups, and every data column's encodings, statistics, value
counts and sizes. Meta columns whose values differ between two commits (commit time, sequence
number, file name) are compared by encodings and null counts only.
"""

import datetime as dt
import decimal
import math
from pathlib import Path
from typing import Any, Dict, List, Tuple

import harness
import pyarrow.parquet as pq
import pytest
from pyspark.sql.types import (
    BinaryType,
    BooleanType,
    ByteType,
    DateType,
    DecimalType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    ShortType,
    StringType,
    StructField,
    StructType,
    TimestampNTZType,
    TimestampType,
)

RECORD_CONSUMER = "pyhudi.parquet.write.record-consumer"
PER_COMMIT = {"_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_file_name"}

SCHEMA = StructType(
    [
        StructField("id", StringType()),
        StructField("part", StringType()),
        StructField("ts", LongType()),
        StructField("b", BooleanType()),
        StructField("i8", ByteType()),
        StructField("i16", ShortType()),
        StructField("i32", IntegerType()),
        StructField("f32", FloatType()),
        StructField("f64", DoubleType()),
        StructField("s", StringType()),
        StructField("bin", BinaryType()),
        StructField("d", DateType()),
        StructField("t", TimestampType()),
        StructField("tntz", TimestampNTZType()),
        StructField("dec_int", DecimalType(5, 2)),
        StructField("dec_long", DecimalType(18, 4)),
        StructField("dec_big", DecimalType(25, 3)),
        StructField("dec_max", DecimalType(38, 10)),
    ]
)


def _dec(unscaled: int, scale: int) -> decimal.Decimal:
    """Exactly ``unscaled * 10**-scale`` (dividing would round to the context's 28 digits)."""
    return decimal.Decimal(f"{unscaled}E-{scale}")


def _rows(n: int) -> List[Tuple[Any, ...]]:
    """Every type with nulls, extremes, empty and multi-byte strings, NaN and signed zeros."""
    floats = [0.0, -0.0, 1.5, -2.25, math.inf, -math.inf, math.nan, 3.4e38]
    out = []
    for k in range(n):

        def maybe(v: Any, every: int = 7, k: int = k) -> Any:
            return None if k % every == 3 else v

        sign = -1 if k % 2 else 1
        out.append(
            (
                f"key-{k:05d}",
                f"p{k % 3}",
                k,
                maybe(k % 3 == 0),
                maybe((k * 37) % 256 - 128),
                maybe((k * 4099) % 65536 - 32768),
                maybe(sign * (k * 2654435761 % 2**31)),
                maybe(floats[k % len(floats)]),
                maybe(floats[(k + 3) % len(floats)] * 1e300 if k % 5 == 0 else sign * k / 7.0),
                maybe(["", "a", "ünïcødé ✓", "x" * 300, f"s{k % 50}"][k % 5], 5),
                maybe(bytes([k % 256, (k * 7) % 256]) * (k % 4), 6),
                maybe(dt.date(1, 1, 1) + dt.timedelta(days=(k * 997) % 3_000_000)),
                maybe(
                    dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(microseconds=sign * k * 123_456_789)
                ),
                maybe(dt.datetime(2000, 1, 1) + dt.timedelta(seconds=k * 61, microseconds=k)),
                maybe(_dec(sign * (k % 100000), 2)),
                maybe(_dec(sign * (k * 1_000_000_007 % 10**18), 4)),
                maybe(_dec(sign * (k * 10**20 + k), 3)),
                maybe(_dec(sign * (10**38 - 1 - k if k % 4 == 0 else k), 10)),
            )
        )
    return out


def _write(spark: Any, path: Path, rows: List[Tuple[Any, ...]], **extra: str) -> None:
    opts = harness.write_options(
        path.name, "COPY_ON_WRITE", **{"hoodie.datasource.write.operation": "bulk_insert", **extra}
    )
    # one task: one base file per partition, its rows in the same order in both writes
    spark.createDataFrame(rows, SCHEMA).coalesce(1).write.format("pyhudi").options(**opts).mode("overwrite").save(
        str(path)
    )


def _base_files(path: Path) -> Dict[str, Path]:
    files = {}
    for f in sorted(path.rglob("*.parquet")):
        if ".hoodie" in f.parts:
            continue
        part = f.parent.relative_to(path).as_posix()
        assert part not in files, f"one base file per partition expected in {path}"
        files[part] = f
    return files


def _chunk(meta: Any, rg: int, col: int) -> Dict[str, Any]:
    c = meta.row_group(rg).column(col)
    s = c.statistics
    out: Dict[str, Any] = {
        "path": c.path_in_schema,
        "encodings": c.encodings,
        "values": c.num_values,
        "nulls": s.null_count if s is not None else None,
        "has_min_max": s.has_min_max if s is not None else None,
    }
    if c.path_in_schema not in PER_COMMIT:
        out.update(
            compressed=c.total_compressed_size,
            uncompressed=c.total_uncompressed_size,
            min=repr(s.min) if s is not None and s.has_min_max else None,
            max=repr(s.max) if s is not None and s.has_min_max else None,
        )
    return out


def _assert_same_files(columns: Path, consumer: Path) -> None:
    a, b = _base_files(columns), _base_files(consumer)
    assert sorted(a) == sorted(b) and a
    for part in a:
        fa, fb = pq.ParquetFile(a[part]), pq.ParquetFile(b[part])
        ma, mb = fa.metadata, fb.metadata
        assert fa.schema.equals(fb.schema) and fa.schema_arrow == fb.schema_arrow, part
        assert sorted(ma.metadata) == sorted(mb.metadata), part
        for key in (
            b"org.apache.spark.version",
            b"org.apache.spark.sql.parquet.row.metadata",
            b"hoodie_min_record_key",
        ):
            assert ma.metadata[key] == mb.metadata[key], (part, key)
        assert ma.created_by == mb.created_by
        assert ma.num_row_groups == mb.num_row_groups, part
        for rg in range(ma.num_row_groups):
            assert ma.row_group(rg).num_rows == mb.row_group(rg).num_rows, (part, rg)
            for col in range(ma.num_columns):
                assert _chunk(ma, rg, col) == _chunk(mb, rg, col), (part, rg, col)


def _data(spark: Any, path: Path) -> List[Dict[str, Any]]:
    df = harness.read_table(spark, path).select(*SCHEMA.names)
    return harness.normalize_rows(df.collect(), df.schema)


@pytest.fixture(scope="module")
def rows() -> List[Tuple[Any, ...]]:
    return _rows(3000)


def test_every_primitive_type_as_spark_writes_it(spark: Any, tmp_path: Path, rows: List[Tuple[Any, ...]]) -> None:
    columns, consumer = tmp_path / "columns", tmp_path / "consumer"
    _write(spark, columns, rows)
    _write(spark, consumer, rows, **{RECORD_CONSUMER: "true"})

    expected = harness.normalize_rows(spark.createDataFrame(rows, SCHEMA).collect(), SCHEMA)
    harness.assert_rows_equal(_data(spark, columns), expected, SCHEMA, "column writer")
    harness.assert_rows_equal(_data(spark, consumer), expected, SCHEMA, "record consumer")
    _assert_same_files(columns, consumer)

    # pyarrow reads the new files' values as it reads Spark's
    for part, f in _base_files(columns).items():
        other = _base_files(consumer)[part]
        ta = pq.read_table(f).drop_columns(sorted(PER_COMMIT))
        tb = pq.read_table(other).drop_columns(sorted(PER_COMMIT))
        # compared as text: NaN equals NaN there, not in Table.equals
        assert [repr(r) for r in ta.to_pylist()] == [repr(r) for r in tb.to_pylist()], part
        assert ta.num_rows > 0


def test_row_groups_and_pages_close_where_sparks_do(spark: Any, tmp_path: Path, rows: List[Tuple[Any, ...]]) -> None:
    """Small row groups and pages: the row group check and the page checks run many times."""
    small = {"hoodie.parquet.block.size": "32768", "hoodie.parquet.page.size": "4096"}
    columns, consumer = tmp_path / "columns", tmp_path / "consumer"
    _write(spark, columns, rows, **small)
    _write(spark, consumer, rows, **{RECORD_CONSUMER: "true", **small})
    files = _base_files(columns)
    assert all(pq.ParquetFile(f).metadata.num_row_groups > 1 for f in files.values())
    _assert_same_files(columns, consumer)
    expected = harness.normalize_rows(spark.createDataFrame(rows, SCHEMA).collect(), SCHEMA)
    harness.assert_rows_equal(_data(spark, columns), expected, SCHEMA, "column writer, small row groups")
