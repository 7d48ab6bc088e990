# SPDX-License-Identifier: Apache-2.0
"""``df.write.format("pyhudi")``: save modes, key generators, hive style, schema evolution.

Every table written here is read back by pyhudi and by hudi-rs, which must agree on every
row and all five meta columns, and both must hold the rows the writes imply.
"""

import datetime as dt
import random
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import harness
import pytest
import write_support as ws
from pyspark.sql.types import (
    BooleanType,
    DoubleType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
)

from pyhudi import errors

FORMAT = "pyhudi"
KEYGEN = "org.apache.hudi.keygen."


def _base_options(name: str = "t", **extra: Any) -> Dict[str, Any]:
    options = {
        "hoodie.table.name": name,
        "hoodie.datasource.write.recordkey.field": "k1,k2",
        "hoodie.datasource.write.partitionpath.field": "p1,p2",
        "hoodie.datasource.write.precombine.field": "ts",
        **ws.LATEST_WINS,
    }
    options.update(extra)
    return options


def _df(spark: Any, rows: Sequence[Any], schema: StructType = ws.SCHEMA) -> Any:
    return spark.createDataFrame(list(rows), schema)


def _save(df: Any, path: Path, options: Dict[str, Any], mode: Optional[str]) -> None:
    writer = df.write.format(FORMAT).options(**options)
    if mode is not None:
        writer = writer.mode(mode)
    writer.save(str(path))


def _props(path: Path) -> Dict[str, str]:
    out = {}
    for line in (path / ".hoodie" / "hoodie.properties").read_text().splitlines():
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            out[k] = v.replace("\\:", ":").replace("\\=", "=")
    return out


def _expected(rows: Sequence[Any], schema: StructType, commit: str, key, part) -> List[Dict[str, Any]]:
    """Expected rows: data columns plus commit time, record key and partition path."""
    out = []
    for row in rows:
        r = ws.data_json(row, schema)
        r["_hoodie_commit_time"] = commit
        r["_hoodie_record_key"] = key(row)
        r["_hoodie_partition_path"] = part(row)
        out.append(r)
    return out


def _check(
    spark: Any, path: Path, expected: List[Dict[str, Any]], context: str, columns: Sequence[str]
) -> List[Dict[str, Any]]:
    read = ws.assert_readers_agree(spark, path, context)
    ws.assert_meta_consistent(read, path, context)
    ws.assert_same(
        ws.project(read, list(columns) + list(ws.MODEL_META)), expected, f"{context}: pyhudi vs written rows"
    )
    return read


def _rows(n: int, seed: int = 7) -> List[Any]:
    gen = ws.RowGen(random.Random(seed))
    return [gen.row(gen.fresh_key(), gen.partition()) for _ in range(n)]


def _plain_path(row: Any) -> str:
    return ws.partition_path(row, hive=False)


# --------------------------------------------------------------------------------------------
# Save modes


def test_error_if_exists_is_the_default_mode(spark, tmp_path):
    path = tmp_path / "t"
    rows = _rows(12)
    _save(_df(spark, rows), path, _base_options(), mode=None)  # df.write's default mode
    [(commit, action)] = harness.completed_instants(path)
    assert action == "commit"
    _check(spark, path, _expected(rows, ws.SCHEMA, commit, ws.record_key, _plain_path), "first write", ws.COLUMNS)

    for mode in (None, "errorifexists", "error"):
        with pytest.raises(errors.InvalidOptionError) as info:
            with errors.translated():
                _save(_df(spark, _rows(3, seed=8)), path, _base_options(), mode=mode)
        assert info.value.error_id == "TABLE_EXISTS_FOR_SAVE_MODE", info.value.message[:2000]
        assert str(path) in info.value.message, info.value.message[:2000]
    assert harness.completed_instants(path) == [(commit, "commit")]
    assert harness.pending_instants(path) == []
    _check(
        spark, path, _expected(rows, ws.SCHEMA, commit, ws.record_key, _plain_path), "after refused writes", ws.COLUMNS
    )


def test_ignore_creates_an_absent_table_and_leaves_an_existing_one(spark, tmp_path):
    path = tmp_path / "t"
    rows = _rows(10)
    _save(_df(spark, rows), path, _base_options(), mode="ignore")
    [(commit, _)] = harness.completed_instants(path)
    files_before = sorted(str(p) for p in path.rglob("*") if p.is_file())
    _save(_df(spark, _rows(5, seed=9)), path, _base_options(), mode="ignore")
    assert harness.completed_instants(path) == [(commit, "commit")]
    assert sorted(str(p) for p in path.rglob("*") if p.is_file()) == files_before
    _check(spark, path, _expected(rows, ws.SCHEMA, commit, ws.record_key, _plain_path), "after ignore", ws.COLUMNS)


def test_append_creates_then_upserts(spark, tmp_path):
    path = tmp_path / "t"
    rows = _rows(10)
    _save(_df(spark, rows), path, _base_options(), mode="append")
    [(first, _)] = harness.completed_instants(path)
    gen = ws.RowGen(random.Random(11))
    updates = [gen.row((r[0], r[1]), (r[2], r[3])) for r in rows[:4]]
    fresh = [gen.row((f"new{i}", i), gen.partition()) for i in range(3)]
    _save(_df(spark, updates + fresh), path, _base_options(), mode="append")  # upsert is the default
    second = ws.new_instant(path, [(first, "commit")], "commit", "append")
    expected = _expected(rows[4:], ws.SCHEMA, first, ws.record_key, _plain_path)
    expected += _expected(updates + fresh, ws.SCHEMA, second, ws.record_key, _plain_path)
    _check(spark, path, expected, "append", ws.COLUMNS)


@pytest.mark.parametrize("extra", [{}, {"hoodie.combine.before.insert": "true"}], ids=["one-pass", "combined"])
def test_bulk_insert_writes_a_file_group_per_task_and_partition(spark, tmp_path, extra):
    # Rows of every partition interleaved in both input partitions: the one-pass bulk_insert
    # clusters each task's rows by partition and keeps one file open at a time, yet must still
    # write one file group per (task, partition), not one per run of rows.
    path = tmp_path / "t"
    rows = _rows(60, seed=23)
    df = _df(spark, rows).repartition(2)
    _save(df, path, _base_options(**{"hoodie.datasource.write.operation": "bulk_insert", **extra}), mode="append")
    [(instant, _)] = harness.completed_instants(path)
    _check(spark, path, _expected(rows, ws.SCHEMA, instant, ws.record_key, _plain_path), "bulk_insert", ws.COLUMNS)
    files = sorted(path.rglob("*.parquet"))
    by_partition: Dict[str, List[Path]] = {}
    for f in files:
        by_partition.setdefault(str(f.parent.relative_to(path)), []).append(f)
    assert set(by_partition) == {_plain_path(r) for r in rows}
    for partition, group in by_partition.items():
        assert 1 <= len(group) <= 2, f"{partition}: {len(group)} file groups from 2 tasks: {group}"
        assert len({f.name.split("_")[0] for f in group}) == len(group), f"{partition}: a file id written twice"


def test_overwrite_replaces_all_data_and_keeps_history(spark, tmp_path):
    path = tmp_path / "t"
    rows = _rows(15)
    _save(_df(spark, rows), path, _base_options(), mode="append")
    [(first, _)] = harness.completed_instants(path)
    new_rows = _rows(4, seed=12)
    new_rows = [(f"x{r[0]}",) + tuple(r[1:]) for r in new_rows]  # fresh keys, fewer partitions
    _save(_df(spark, new_rows), path, _base_options(), mode="overwrite")
    second = ws.new_instant(path, [(first, "commit")], "replacecommit", "overwrite")
    _check(spark, path, _expected(new_rows, ws.SCHEMA, second, ws.record_key, _plain_path), "overwrite", ws.COLUMNS)

    old = _expected(rows, ws.SCHEMA, first, ws.record_key, _plain_path)
    read = ws.pyhudi_rows(spark, path, {"as.of.instant": first})
    ws.assert_same(ws.project(read, ws.COLUMNS + list(ws.MODEL_META)), old, "time travel before the overwrite")
    ws.assert_same(read, harness.hudi_rs_read(path, as_of=first), "time travel: pyhudi vs hudi-rs")


def test_overwrite_creates_an_absent_table(spark, tmp_path):
    path = tmp_path / "t"
    rows = _rows(6)
    _save(_df(spark, rows), path, _base_options(), mode="overwrite")
    [(commit, _)] = harness.completed_instants(path)
    _check(spark, path, _expected(rows, ws.SCHEMA, commit, ws.record_key, _plain_path), "overwrite new", ws.COLUMNS)


# --------------------------------------------------------------------------------------------
# Key generators and hive style

SIMPLE_SCHEMA = StructType(
    [
        StructField("id", IntegerType()),
        StructField("name", StringType()),
        StructField("city", StringType()),
        StructField("level", IntegerType()),
        StructField("ts", LongType()),
        StructField("ts_str", StringType()),
        StructField("score", DoubleType()),
    ]
)
SIMPLE_ROWS = [
    (1, "alice", "paris", 3, 100, "2023-04-01T12:01:00.123Z", 1.5),
    (2, "bob", "paris", 4, 101, "2023-04-01T12:59:59.999Z", 2.25),
    (3, "carol", "rome", 3, 102, "2023-04-02T00:00:00.000Z", None),
    (4, "dave", "oslo", 1, 103, "2023-04-02T14:30:00.000+0200", 4.0),  # 12:30 UTC
    (5, "erin", "rome", 2, 104, "2024-02-29T23:59:59.000Z", -1.0),
]
TIMEBASED = {
    "hoodie.keygen.timebased.timestamp.type": "DATE_STRING",
    "hoodie.keygen.timebased.input.dateformat": "yyyy-MM-dd'T'HH:mm:ss.SSSZ",
    "hoodie.keygen.timebased.output.dateformat": "yyyy/MM/dd/HH",
}


def _utc_hour_path(ts_str: str) -> str:
    value = dt.datetime.strptime(ts_str.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z")
    return value.astimezone(dt.timezone.utc).strftime("%Y/%m/%d/%H")


# name -> (options, record key of a row, partition values of a row: [(column, value)])
KEYGENS = {
    "simple": (
        {
            "hoodie.datasource.write.keygenerator.class": KEYGEN + "SimpleKeyGenerator",
            "hoodie.datasource.write.recordkey.field": "id",
            "hoodie.datasource.write.partitionpath.field": "city",
        },
        lambda r: str(r[0]),
        lambda r: [("city", r[2])],
    ),
    "complex": (
        {
            "hoodie.datasource.write.keygenerator.class": KEYGEN + "ComplexKeyGenerator",
            "hoodie.datasource.write.recordkey.field": "id,name",
            "hoodie.datasource.write.partitionpath.field": "city,level",
        },
        lambda r: f"id:{r[0]},name:{r[1]}",
        lambda r: [("city", r[2]), ("level", str(r[3]))],
    ),
    "complex_by_type": (
        {
            "hoodie.datasource.write.keygenerator.type": "COMPLEX",
            "hoodie.datasource.write.recordkey.field": "id,name",
            "hoodie.datasource.write.partitionpath.field": "city,level",
        },
        lambda r: f"id:{r[0]},name:{r[1]}",
        lambda r: [("city", r[2]), ("level", str(r[3]))],
    ),
    "nonpartitioned": (
        {
            "hoodie.datasource.write.keygenerator.class": KEYGEN + "NonpartitionedKeyGenerator",
            "hoodie.datasource.write.recordkey.field": "id",
        },
        lambda r: str(r[0]),
        lambda r: [],
    ),
    "timestamp": (
        {
            "hoodie.datasource.write.keygenerator.class": KEYGEN + "TimestampBasedKeyGenerator",
            "hoodie.datasource.write.recordkey.field": "id",
            "hoodie.datasource.write.partitionpath.field": "ts_str",
            **TIMEBASED,
        },
        lambda r: str(r[0]),
        lambda r: [("ts_str", _utc_hour_path(r[5]))],
    ),
}
KEYGEN_CASES = [(k, h) for k in KEYGENS for h in (False, True) if not (k == "nonpartitioned" and h)]


@pytest.mark.parametrize("keygen,hive", KEYGEN_CASES, ids=[f"{k}-{'hive' if h else 'plain'}" for k, h in KEYGEN_CASES])
def test_first_write_of_each_key_generator(spark, tmp_path, keygen, hive):
    options, key_of, parts_of = KEYGENS[keygen]
    path = tmp_path / keygen

    def part_of(row: Any) -> str:
        parts = parts_of(row)
        if hive:
            return "/".join(f"{c}={v}" for c, v in parts)
        return "/".join(v for _, v in parts)

    opts = {
        "hoodie.table.name": f"kg_{keygen}",
        "hoodie.datasource.write.precombine.field": "ts",
        "hoodie.datasource.write.hive_style_partitioning": str(hive).lower(),
        **options,
    }
    _save(_df(spark, SIMPLE_ROWS, SIMPLE_SCHEMA), path, opts, mode="errorifexists")
    [(commit, action)] = harness.completed_instants(path)
    assert action == "commit"
    columns = [f.name for f in SIMPLE_SCHEMA.fields]
    _check(
        spark, path, _expected(SIMPLE_ROWS, SIMPLE_SCHEMA, commit, key_of, part_of), f"{keygen} hive={hive}", columns
    )

    props = _props(path)
    assert props["hoodie.table.version"] == "6"
    assert props["hoodie.table.type"] == "COPY_ON_WRITE"
    assert props["hoodie.table.name"] == f"kg_{keygen}"
    assert props["hoodie.table.recordkey.fields"] == options["hoodie.datasource.write.recordkey.field"]
    assert props.get("hoodie.table.partition.fields", "") == options.get(
        "hoodie.datasource.write.partitionpath.field", ""
    )
    expected_class = options.get("hoodie.datasource.write.keygenerator.class", KEYGEN + "ComplexKeyGenerator")
    assert props["hoodie.table.keygenerator.class"] == expected_class
    assert props["hoodie.datasource.write.hive_style_partitioning"] == str(hive).lower()
    assert props["hoodie.table.precombine.field"] == "ts"
    for partition in {part_of(r) for r in SIMPLE_ROWS}:
        meta = path / partition / ".hoodie_partition_metadata"
        assert meta.is_file(), f"missing {meta}"
        depth = 0 if partition == "" else partition.count("/") + 1
        assert f"partitionDepth={depth}" in meta.read_text(), meta.read_text()
    if keygen == "timestamp":
        # Hudi persists the formats (the corpus' timestamp table has exactly these two).
        for k in ("hoodie.keygen.timebased.input.dateformat", "hoodie.keygen.timebased.output.dateformat"):
            assert props.get(k) == TIMEBASED[k], f"hoodie.properties {k}={props.get(k)!r}, expected {TIMEBASED[k]!r}"


# --------------------------------------------------------------------------------------------
# Schema evolution, deletes by _hoodie_is_deleted, other operations

V1 = StructType(
    [
        StructField("id", IntegerType()),
        StructField("part", StringType()),
        StructField("ts", LongType()),
        StructField("name", StringType()),
    ]
)
V2 = StructType(V1.fields + [StructField("score", DoubleType())])


def _v1_options(name: str, **extra: str) -> Dict[str, Any]:
    """A table of V1-shaped rows: keyed by id, partitioned by part, ordered by ts."""
    return {
        "hoodie.table.name": name,
        "hoodie.datasource.write.recordkey.field": "id",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        **extra,
    }


def _v1_key(row: Any) -> str:
    return str(row[0])


def _v1_part(row: Any) -> str:
    return row[1]


def test_schema_evolution_adds_a_column(spark, tmp_path):
    path = tmp_path / "evolve"
    opts = _v1_options("evolve")
    v1_rows = [(i, "a" if i % 2 else "b", 10 + i, f"n{i}") for i in range(8)]
    _save(_df(spark, v1_rows, V1), path, opts, mode="append")
    [(first, _)] = harness.completed_instants(path)
    # Updates keys 0 (partition b) and 1 (partition a); adds key 100 in a new partition c.
    v2_rows = [(0, "b", 50, "u0", 0.5), (1, "a", 51, "u1", 1.5), (100, "c", 52, "n100", None)]
    _save(_df(spark, v2_rows, V2), path, opts, mode="append")
    second = ws.new_instant(path, [(first, "commit")], "commit", "evolve")

    columns = [f.name for f in V2.fields]
    old = [r + (None,) for r in v1_rows if r[0] not in (0, 1)]
    expected = _expected(old, V2, first, _v1_key, _v1_part) + _expected(v2_rows, V2, second, _v1_key, _v1_part)
    read = _check(spark, path, expected, "after adding column score", columns)
    assert [c for c in read[0] if not c.startswith("_hoodie_")] == columns

    # The old instant still reads with the old rows (the new column, if present, is null).
    travelled = ws.pyhudi_rows(spark, path, {"as.of.instant": first})
    expected_v1 = [{**e, "score": None} for e in _expected(v1_rows, V1, first, _v1_key, _v1_part)]
    ws.assert_same(ws.project(travelled, columns + list(ws.MODEL_META)), expected_v1, "as of the v1 instant")


def test_bulk_insert_lands_each_value_in_its_column_whatever_the_input_order(spark, tmp_path):
    # A load whose input has the table's columns in the table's order is written row by row as
    # it comes; an input with the same columns in another order goes through the projection.
    path = tmp_path / "order"
    opts = _v1_options("order", **{"hoodie.datasource.write.operation": "bulk_insert"})
    in_order = [(i, "a" if i % 2 else "b", 10 + i, f"n{i}") for i in range(6)]
    _save(_df(spark, in_order, V1), path, opts, mode="append")
    [(first, _)] = harness.completed_instants(path)
    reordered = [(i, "a" if i % 2 else "c", 20 + i, f"m{i}") for i in range(100, 106)]
    _save(_df(spark, reordered, V1).select("name", "ts", "part", "id"), path, opts, mode="append")
    second = ws.new_instant(path, [(first, "commit")], "commit", "order")

    columns = [f.name for f in V1.fields]
    expected = _expected(in_order, V1, first, _v1_key, _v1_part) + _expected(reordered, V1, second, _v1_key, _v1_part)
    read = _check(spark, path, expected, "two bulk_inserts, the second with its columns reordered", columns)
    assert [c for c in read[0] if not c.startswith("_hoodie_")] == columns


def test_is_deleted_column_deletes_in_an_upsert(spark, tmp_path):
    schema = StructType(V1.fields + [StructField("_hoodie_is_deleted", BooleanType())])
    path = tmp_path / "isdel"
    opts = _v1_options("isdel")
    rows = [(i, "a" if i < 3 else "b", 10, f"n{i}", False) for i in range(6)]
    _save(_df(spark, rows, schema), path, opts, mode="append")
    [(first, _)] = harness.completed_instants(path)
    batch = [
        (1, "a", 20, "gone", True),
        (4, "b", 20, "gone", True),
        (2, "a", 20, "kept", False),
        (9, "b", 20, "never", True),
    ]
    _save(_df(spark, batch, schema), path, opts, mode="append")
    second = ws.new_instant(path, [(first, "commit")], "commit", "is_deleted upsert")
    expected = _expected([r for r in rows if r[0] not in (1, 2, 4)], schema, first, _v1_key, _v1_part)
    expected += _expected([batch[2]], schema, second, _v1_key, _v1_part)
    _check(spark, path, expected, "_hoodie_is_deleted", [f.name for f in schema.fields])


def test_insert_overwrite_table_and_delete_partition(spark, tmp_path):
    path = tmp_path / "ops"
    opts = _v1_options("ops", **{"hoodie.datasource.write.hive_style_partitioning": "true"})
    key = lambda r: str(r[0])  # noqa: E731
    part = lambda r: f"part={r[1]}"  # noqa: E731
    columns = [f.name for f in V1.fields]
    rows = [(i, "abc"[i % 3], 1, f"n{i}") for i in range(9)]
    _save(_df(spark, rows, V1), path, {**opts, "hoodie.datasource.write.operation": "bulk_insert"}, "append")
    before = harness.completed_instants(path)

    table_rows = [(i, "ab"[i % 2], 2, f"t{i}") for i in range(20, 26)]
    _save(
        _df(spark, table_rows, V1),
        path,
        {**opts, "hoodie.datasource.write.operation": "insert_overwrite_table"},
        "append",
    )
    second = ws.new_instant(path, before, "replacecommit", "insert_overwrite_table")
    _check(spark, path, _expected(table_rows, V1, second, key, part), "insert_overwrite_table", columns)

    before = harness.completed_instants(path)
    delete_opts = {
        **opts,
        "hoodie.datasource.write.operation": "delete_partition",
        "hoodie.datasource.write.partitions.to.delete": "part=a",
    }
    _save(_df(spark, [], V1), path, delete_opts, "append")
    third = ws.new_instant(path, before, "replacecommit", "delete_partition")
    remaining = [r for r in table_rows if r[1] != "a"]
    _check(spark, path, _expected(remaining, V1, second, key, part), f"delete_partition at {third}", columns)
