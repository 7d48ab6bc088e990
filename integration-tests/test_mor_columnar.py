# SPDX-License-Identifier: Apache-2.0
"""Merge-on-read snapshot reads in columnar batches.

When every requested column is atomic, a snapshot scan reads file slices with log files as
columnar batches (``columnar=true`` in the plan): each base batch with the log entries applied,
then the logged keys the base file lacks. Batches of three rows
(``spark.sql.parquet.columnarReaderBatchSize``) make every case appear: batches no log entry
touches, batches with updated rows (written over the base rows in the reader's vectors),
rows an older log record leaves as they are (event-time ordering), deleted rows (read through
merged vectors), base files whose every row is deleted, and logged inserts over several
batches. The rows must equal the row-based read of the same table (Spark's vectorized reader
off) and the model; a nested column among the requested ones makes the scan read rows.
"""

import datetime as dt
import random
import re
from decimal import Decimal
from typing import Any, Dict, List, Tuple

import harness
import pytest
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

SCHEMA = StructType(
    [
        StructField("id", StringType()),
        StructField("part", StringType()),
        StructField("ts", LongType()),
        StructField("n", IntegerType()),
        StructField("x", DoubleType()),
        StructField("amount", DecimalType(12, 2)),
        StructField("day", DateType()),
        StructField("at", TimestampType()),
        StructField("flag", BooleanType()),
        StructField("raw", BinaryType()),
        StructField("note", StringType()),
        StructField("tags", ArrayType(StringType())),
    ]
)
ATOMIC = [f.name for f in SCHEMA.fields if f.name != "tags"]
OPTIONS = {
    "hoodie.table.name": "columnar",
    "hoodie.datasource.write.table.type": "MERGE_ON_READ",
    "hoodie.datasource.write.recordkey.field": "id",
    "hoodie.datasource.write.partitionpath.field": "part",
    "hoodie.datasource.write.precombine.field": "ts",
    # Every write after the first appends to the buckets' log files, inserts included.
    "hoodie.index.type": "BUCKET",
    "hoodie.bucket.index.num.buckets": "2",
}
BATCH = "spark.sql.parquet.columnarReaderBatchSize"
VECTORIZED = "spark.sql.parquet.enableVectorizedReader"
PATCHED = "mergedBatchesInPlace"


def _row(i: int, part: str, ts: int, rng: random.Random) -> Tuple[Any, ...]:
    none = rng.random() < 0.15  # nulls in every atomic column but the key fields
    return (
        f"k{i:04d}",
        part,
        ts,
        None if none else rng.randint(-1000, 1000),
        None if none else rng.random() * 100,
        None if none else Decimal(rng.randint(-(10**6), 10**6)) / 100,
        None if none else dt.date(2026, 1, 1) + dt.timedelta(days=rng.randint(0, 300)),
        None if none else dt.datetime(2026, 1, 1) + dt.timedelta(seconds=rng.randint(0, 10**7)),
        None if none else rng.random() < 0.5,
        None if none else bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 6))),
        None if none else f"note {i} @ {ts}",
        None if none else [f"t{ts}", f"i{i}"],
    )


def _write(spark: Any, path: str, rows: List[Tuple[Any, ...]], operation: str) -> None:
    df = spark.createDataFrame(rows, SCHEMA)
    df.write.format("pyhudi").options(**OPTIONS).option("hoodie.datasource.write.operation", operation).mode(
        "append"
    ).save(path)


def _read(spark: Any, path: str, columns: List[str], vectorized: bool) -> Tuple[List[Tuple[Any, ...]], bool, int]:
    """The rows of a snapshot read of ``columns``, sorted, whether the scan was columnar, and how
    many of its batches had log rows written over base rows."""
    spark.conf.set(VECTORIZED, str(vectorized).lower())
    try:
        df = spark.read.format("pyhudi").load(path).select(*columns)
        plan = df._jdf.queryExecution().executedPlan().toString()
        match = re.search(r"columnar=(true|false)", plan)
        assert match, f"no columnar= in the scan description:\n{plan}"
        rows = sorted((tuple(r) for r in df.collect()), key=lambda r: r[0])
        return rows, match.group(1) == "true", harness.scan_metric(df, PATCHED)
    finally:
        spark.conf.unset(VECTORIZED)


def test_merge_on_read_columnar_batches_equal_rows(spark, tmp_path):
    path = str(tmp_path / "t")
    rng = random.Random(7)
    model: Dict[str, Tuple[Any, ...]] = {}

    def write(rows: List[Tuple[Any, ...]], operation: str) -> None:
        _write(spark, path, rows, operation)
        for r in rows:
            if operation == "delete":
                model.pop(r[0], None)
            elif r[0] not in model or model[r[0]][2] <= r[2]:
                model[r[0]] = r

    write([_row(i, "a" if i % 2 else "b", 10, rng) for i in range(120)], "bulk_insert")
    updated = rng.sample([i for i in range(120) if i % 2], 30)
    older = rng.sample([i for i in range(120) if i % 2 and i not in updated], 10)
    write(
        [_row(i, "a", 20, rng) for i in updated]
        + [_row(i, "a", 5, rng) for i in older]  # older than the base rows: they stay
        + [_row(i, "a" if i % 2 else "b", 20, rng) for i in range(120, 150)],  # inserts, in logs
        "upsert",
    )
    deleted = rng.sample([i for i in range(120) if i % 2 and i not in updated + older], 15)
    deleted += [i for i in range(120) if i % 2 == 0]  # every row of partition b's base files
    write([_row(i, "a" if i % 2 else "b", 30, rng) for i in deleted], "delete")

    # The model: ids, ordering values and notes of the rows left.
    expected = sorted((r[0], r[2], r[10]) for r in model.values())
    assert 50 < len(expected) < 120, len(expected)

    spark.conf.set(BATCH, "3")
    try:
        columnar, was_columnar, patched = _read(spark, path, ATOMIC, vectorized=True)
        rows, was_rows, _ = _read(spark, path, ATOMIC, vectorized=False)
        nested, nested_columnar, _ = _read(spark, path, ATOMIC + ["tags"], vectorized=True)
    finally:
        spark.conf.unset(BATCH)

    assert was_columnar and not was_rows and not nested_columnar
    # Batches with updated rows and none deleted had the log rows written over the base rows (in
    # plain and dictionary-encoded vectors); batches with deletes were read through merged vectors.
    assert patched > 0
    assert [(r[0], r[2], r[10]) for r in columnar] == expected
    assert columnar == rows
    assert [r[:-1] for r in nested] == rows
    assert [r[-1] for r in nested] == [model[r[0]][11] for r in nested]


def _merge_key(df: Any) -> str:
    plan = df._jdf.queryExecution().executedPlan().toString()
    match = re.search(r"mergeKey=([\w+]+)", plan)
    assert match, f"no mergeKey= in the scan description:\n{plan}"
    return match.group(1)


@pytest.mark.parametrize(
    "key_type,keygen,merge_key",
    [
        (LongType(), "org.apache.hudi.keygen.SimpleKeyGenerator", "id"),
        (IntegerType(), "org.apache.hudi.keygen.SimpleKeyGenerator", "id"),
        # The complex generator writes `id:5` as the key, not the field's value.
        (LongType(), "org.apache.hudi.keygen.ComplexKeyGenerator", "_hoodie_record_key"),
    ],
    ids=["long-simple", "int-simple", "long-complex"],
)
def test_merge_keyed_by_the_record_key_field(spark, tmp_path, key_type, keygen, merge_key):
    """A scan that reads the record key field merges by its value when that value is the key."""
    path = str(tmp_path / "t")
    schema = StructType(
        [
            StructField("id", key_type),
            StructField("part", StringType()),
            StructField("ts", LongType()),
            StructField("note", StringType()),
        ]
    )
    big = 2**62 if isinstance(key_type, LongType) else 2**30
    keys = [0, -1, big, -big, 7, 70, 700] + [i * 13 - 200 for i in range(40)]
    options = dict(OPTIONS, **{"hoodie.table.name": "keyed", "hoodie.datasource.write.keygenerator.class": keygen})
    model: Dict[int, Tuple[Any, ...]] = {}

    def write(rows: List[Tuple[Any, ...]], operation: str) -> None:
        spark.createDataFrame(rows, schema).write.format("pyhudi").options(**options).option(
            "hoodie.datasource.write.operation", operation
        ).mode("append").save(path)
        for r in rows:
            if operation == "delete":
                model.pop(r[0], None)
            elif r[0] not in model or model[r[0]][2] <= r[2]:
                model[r[0]] = r

    part = lambda k: "a" if k % 2 else "b"  # noqa: E731
    write([(k, part(k), 10, f"base {k}") for k in keys], "bulk_insert")
    write(
        [(k, part(k), 20, f"new {k}") for k in keys[::3]]
        + [(k, part(k), 5, f"older {k}") for k in keys[1::3]]  # older than the base rows: they stay
        + [(k, part(k), 20, f"insert {k}") for k in (-7, 77, big - 1, -big + 1)],
        "upsert",
    )
    write([(k, part(k), 30, None) for k in keys[2::5] + [77]], "delete")
    expected = sorted(model.values())
    assert 30 < len(expected) < len(keys), len(expected)

    columns = ["id", "part", "ts", "note"]
    spark.conf.set(BATCH, "4")
    try:
        df = spark.read.format("pyhudi").load(path).select(*columns)
        with_meta = spark.read.format("pyhudi").load(path).select(*columns, "_hoodie_record_key")
        assert _merge_key(df) == merge_key
        assert _merge_key(with_meta) == "_hoodie_record_key"
        columnar, was_columnar, _ = _read(spark, path, columns, vectorized=True)
        rows, was_rows, _ = _read(spark, path, columns, vectorized=False)
        metas = sorted(tuple(r)[:4] for r in with_meta.collect())
    finally:
        spark.conf.unset(BATCH)
    assert was_columnar and not was_rows
    assert columnar == expected
    assert rows == expected
    assert metas == expected
