# SPDX-License-Identifier: Apache-2.0
"""Partition columns a base file's footer proves constant are not decoded.

A columnar scan reads a partition field (and ``_hoodie_partition_path``) of a base file as a
constant when the file's parquet statistics show one non-null value in every row group, and
decodes it otherwise: a reader must return the stored value, which a null or empty value or a
record a global index kept in its old partition makes differ from the partition path. Every test
checks the rows against hudi-rs and the scan's ``footerPartitionValueFiles`` metric for which
base files took the constant path. The test tables' files are a few KiB, below the default
split size for the path (``PARTITION_VALUES_FROM_FOOTER_MIN_BYTES``), so the tests set it to 0.
"""

from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import harness
import pytest
from pyspark.sql.types import IntegerType, LongType, StringType, StructField, StructType

from pyhudi.errors import InvalidOptionError
from pyhudi.options import PARTITION_VALUES_FROM_FOOTER_MIN_BYTES

METRIC = "footerPartitionValueFiles"
SCHEMA = StructType(
    [
        StructField("id", StringType()),
        StructField("part", StringType()),
        StructField("hour", IntegerType()),
        StructField("ts", LongType()),
        StructField("v", StringType()),
    ]
)


def _options(name: str, table_type: str, **extra: str) -> Dict[str, str]:
    return harness.write_options(
        name,
        table_type,
        **{
            "hoodie.datasource.write.partitionpath.field": "part,hour",
            "hoodie.datasource.write.keygenerator.class": "org.apache.hudi.keygen.ComplexKeyGenerator",
            "hoodie.datasource.write.hive_style_partitioning": "true",
            **extra,
        },
    )


def _write(spark: Any, path: Path, opts: Dict[str, str], rows: List[Tuple[Any, ...]], op: str, mode: str) -> None:
    (
        spark.createDataFrame(rows, SCHEMA)
        .write.format("pyhudi")
        .options(**opts)
        .option("hoodie.datasource.write.operation", op)
        .mode(mode)
        .save(str(path))
    )


EVERY_SPLIT = {PARTITION_VALUES_FROM_FOOTER_MIN_BYTES: "0"}


def _scan(spark: Any, path: Path, columns: Optional[List[str]] = None) -> Tuple[List[Dict[str, Any]], int, Any]:
    df = harness.read_table(spark, path, EVERY_SPLIT)
    if columns:
        df = df.select(*columns)
    return harness.spark_rows(df), harness.scan_metric(df, METRIC), df.schema


def _check(spark: Any, path: Path, constant_files: int) -> None:
    """Every column, and a few data columns reordered, match hudi-rs; the metric counts the files."""
    expected = harness.hudi_rs_read(path)
    rows, files, schema = _scan(spark, path)
    harness.assert_rows_equal(rows, expected, schema, "select *")
    assert files == constant_files
    columns = ["v", "part", "hour", "id"]
    rows, files, schema = _scan(spark, path, columns)
    harness.assert_rows_equal(rows, [{c: r[c] for c in columns} for r in expected], schema, "select v, part, hour, id")
    assert files == constant_files
    # Only constant columns: no data column is read at all, yet every row comes out.
    columns = ["hour", "part"]
    rows, _, schema = _scan(spark, path, columns)
    harness.assert_rows_equal(rows, [{c: r[c] for c in columns} for r in expected], schema, "select hour, part")
    # Filters on the constant columns, alone and with a data column, are applied to their values.
    for where, keep in (
        ("part = 'p1'", lambda r: r["part"] == "p1"),
        ("hour = 1 and v >= 'v3'", lambda r: r["hour"] == 1 and r["v"] >= "v3"),
        (
            "part is null or _hoodie_partition_path like '%hour=0'",
            lambda r: r["part"] is None or r["_hoodie_partition_path"].endswith("hour=0"),
        ),
    ):
        df = harness.read_table(spark, path, EVERY_SPLIT).where(where)
        harness.assert_rows_equal(harness.spark_rows(df), [r for r in expected if keep(r)], df.schema, where)


def _base_files(path: Path) -> List[str]:
    return sorted(f for f in harness.data_files(path) if f.endswith(".parquet"))


ROWS = [(f"k{i}", f"p{i % 3}", i % 2, 1, f"v{i}") for i in range(60)]


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_every_base_file_takes_its_partition_values_from_the_footer(
    spark: Any, tmp_path: Path, table_type: str
) -> None:
    path = tmp_path / "t"
    opts = _options("pv", table_type)
    _write(spark, path, opts, ROWS, "bulk_insert", "overwrite")
    _write(spark, path, opts, [(f"n{i}", "p9", 5, 1, f"n{i}") for i in range(10)], "insert", "append")
    _check(spark, path, len(_base_files(path)))


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_a_record_kept_in_its_old_partition_with_a_new_value_is_read_as_stored(
    spark: Any, tmp_path: Path, table_type: str
) -> None:
    """A global index with ``update.partition.path=false`` keeps the record where it was: the old
    partition's file (COW) or its log (MOR) now holds the new partition value."""
    path = tmp_path / "t"
    opts = _options(
        "pv_moved",
        table_type,
        **{"hoodie.index.type": "GLOBAL_SIMPLE", "hoodie.simple.index.update.partition.path": "false"},
    )
    _write(spark, path, opts, ROWS, "bulk_insert", "overwrite")
    files = len(_base_files(path))
    _write(spark, path, opts, [("k0", "p2", 1, 2, "moved")], "upsert", "append")
    rows, _, _ = _scan(spark, path)
    moved = [r for r in rows if r["id"] == "k0"]
    assert [(r["part"], r["hour"], r["_hoodie_partition_path"]) for r in moved] == [("p2", 1, "part=p0/hour=0")]
    # COW rewrote the old file with two values of each field: it alone is decoded. MOR's base
    # files are all unchanged and constant; the log row brings the new value.
    _check(spark, path, files - 1 if table_type == "COPY_ON_WRITE" else files)


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_null_values_are_decoded_and_empty_strings_are_constants(spark: Any, tmp_path: Path, table_type: str) -> None:
    path = tmp_path / "t"
    opts = _options("pv_null", table_type)
    rows = ROWS[:6] + [("n1", None, 1, 1, "null"), ("n2", None, 1, 1, "null"), ("e1", "", 0, 1, "empty")]
    _write(spark, path, opts, rows, "bulk_insert", "overwrite")
    files = _base_files(path)
    nulls = [f for f in files if f.startswith("part=__HIVE_DEFAULT_PARTITION__/hour=1/")]
    empty = [f for f in files if f.startswith("part=__HIVE_DEFAULT_PARTITION__/hour=0/")]
    assert len(nulls) == 1 and len(empty) == 1, files
    _check(spark, path, len(files) - 1)


def test_splits_below_the_minimum_size_decode_the_columns_and_bad_sizes_are_refused(spark: Any, tmp_path: Path) -> None:
    path = tmp_path / "t"
    _write(spark, path, _options("pv_small", "COPY_ON_WRITE"), ROWS, "bulk_insert", "overwrite")
    expected = harness.hudi_rs_read(path)
    sizes = [(path / f).stat().st_size for f in _base_files(path)]
    for min_bytes, files in ((None, 0), (max(sizes) + 1, 0), (min(sizes), len(sizes))):
        options = {} if min_bytes is None else {PARTITION_VALUES_FROM_FOOTER_MIN_BYTES: str(min_bytes)}
        df = harness.read_table(spark, path, options)
        harness.assert_rows_equal(harness.spark_rows(df), expected, df.schema, f"min bytes {min_bytes}")
        assert harness.scan_metric(df, METRIC) == files, min_bytes
    for bad in ("-1", "2MB"):
        with pytest.raises(InvalidOptionError, match=PARTITION_VALUES_FROM_FOOTER_MIN_BYTES):
            harness.read_table(spark, path, {PARTITION_VALUES_FROM_FOOTER_MIN_BYTES: bad}).collect()
