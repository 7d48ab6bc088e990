# SPDX-License-Identifier: Apache-2.0
"""What a write's index lookup did (files indexed, in key range, probed, holding the keys), as
``format("pyhudi")`` records it in the commit and ``history()`` and ``pyhudi show`` report it,
checked against the table's own files."""

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import pyhudi

PYHUDI = Path(sys.executable).parent / "pyhudi"
SCHEMA = "id string, part string, ts long, v string"
PARTS = ("p0", "p1", "p2")
BATCHES = 3
PER_FILE = 40


def _key(batch: int, part: str, i: int) -> str:
    # Each bulk_insert batch writes one file per partition; its keys sort apart from every
    # other file's, so each file's key range holds its own keys only.
    return f"{batch}-{part}-{i:04d}"


def _table(spark, path: Path, table_type: str) -> None:
    for b in range(BATCHES):
        rows = [(_key(b, p, i), p, 1, "a") for p in PARTS for i in range(PER_FILE)]
        pyhudi.write(
            spark.createDataFrame(rows, SCHEMA),
            str(path),
            table_name="lookup",
            record_key="id",
            partition_by="part",
            precombine="ts",
            table_type=table_type,
            operation="bulk_insert",
        )


def _stored_keys(path: Path) -> dict:
    """Latest base file of each file group -> its record keys, from the parquet files."""
    latest = {}
    for f in path.glob("*/*.parquet"):
        group, _, instant = f.stem.split("_")
        if group not in latest or latest[group][0] < instant:
            latest[group] = (instant, f)
    return {
        g: set(pq.read_table(f, columns=["_hoodie_record_key"]).column(0).to_pylist()) for g, (_, f) in latest.items()
    }


def _show(path: Path, instant: str) -> dict:
    done = subprocess.run(
        [str(PYHUDI), "show", str(path), instant, "--json"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _upsert(spark, path: Path, rows, index_type: str) -> str:
    pyhudi.write(
        spark.createDataFrame(rows, SCHEMA), str(path), operation="upsert", index_type=index_type, precombine="ts"
    )
    return pyhudi.HudiTable.for_path(spark, str(path)).latest_instant()


@pytest.mark.parametrize(
    "index_type,table_type",
    [
        ("BLOOM", "COPY_ON_WRITE"),
        ("BLOOM", "MERGE_ON_READ"),
        ("GLOBAL_BLOOM", "COPY_ON_WRITE"),
        ("SIMPLE", "COPY_ON_WRITE"),
        ("GLOBAL_SIMPLE", "MERGE_ON_READ"),
    ],
)
def test_an_upsert_records_the_files_its_lookup_probed(spark, tmp_path, index_type, table_type):
    path = tmp_path / "t"
    _table(spark, path, table_type)
    stored = _stored_keys(path)
    assert len(stored) >= BATCHES * len(PARTS)
    updates = [(_key(1, "p0", i), "p0", 2, "b") for i in range(5)]
    # A new key inside the same file's key range: checked against its bloom filter, not found.
    inserts = [(_key(1, "p0", 7) + "x", "p0", 2, "new")]
    instant = _upsert(spark, path, updates + inserts, index_type)

    history = pyhudi.HudiTable.for_path(spark, str(path)).history().collect()
    lookup = history[-1].index_lookup.asDict()
    assert history[-1].instant == instant and history[-1].rows_updated == 5
    assert all(h.index_lookup is None for h in history[:-1]), "bulk_insert looks nothing up"

    incoming = [r[0] for r in updates + inserts]
    scope = [
        g for g, keys in stored.items() if index_type.startswith("GLOBAL") or next(iter(keys)).split("-")[1] == "p0"
    ]
    in_range = [g for g in scope if any(min(stored[g]) <= k <= max(stored[g]) for k in incoming)]
    holding = [g for g in scope if any(k in stored[g] for k in incoming)]
    assert len(in_range) == len(holding) == 1
    assert lookup["index_type"] == index_type
    assert lookup["lookup_ms"] > 0
    assert lookup["files_indexed"] == len(scope)
    assert lookup["files_matched"] == len(holding)
    assert lookup["records_found"] == len(updates)
    if index_type.endswith("BLOOM"):
        # The key ranges leave one candidate file, whose bloom filter passes the stored keys
        # (a false positive for the new key would be one in a billion, and changes no file count).
        assert lookup["files_in_range"] == len(in_range) and lookup["files_probed"] == len(holding)
        assert lookup["bloom_checks"] == len(incoming)
        assert len(updates) <= lookup["bloom_positives"] <= len(incoming)
        assert lookup["keys_read"] == sum(len(stored[g]) for g in holding)
    else:
        assert lookup["files_in_range"] == lookup["files_probed"] == len(scope)
        assert lookup["bloom_checks"] == lookup["bloom_positives"] == 0
        assert lookup["keys_read"] == sum(len(stored[g]) for g in scope)

    shown = _show(path, instant)
    assert shown["index_lookup"] == lookup
    text = subprocess.run([str(PYHUDI), "show", str(path), instant], capture_output=True, text=True).stdout
    assert "index_lookup:" in text and f"{lookup['files_probed']} probed" in text


@pytest.mark.parametrize("index_type", ["BLOOM", "SIMPLE", "GLOBAL_SIMPLE"])
def test_records_not_deduplicated_are_joined_with_the_keys_found_like_deduplicated_ones(spark, tmp_path, index_type):
    # hoodie.combine.before.upsert=false: the records reach the lookup's join as read, not yet
    # partitioned by key, so the join moves them to the found keys' partitions first.
    path = tmp_path / "t"
    _table(spark, path, "COPY_ON_WRITE")
    updates = [(_key(b, p, i), p, 2, "b") for b in range(BATCHES) for p in PARTS for i in range(0, PER_FILE, 3)]
    inserts = [(f"9-{p}-{i:04d}", p, 2, "new") for p in PARTS for i in range(4)]
    pyhudi.write(
        spark.createDataFrame(updates + inserts, SCHEMA).repartition(5),
        str(path),
        operation="upsert",
        index_type=index_type,
        precombine="ts",
        options={"hoodie.combine.before.upsert": "false"},
    )
    rows = spark.read.format("pyhudi").load(str(path)).select("id", "v").collect()
    values = {r.id: r.v for r in rows}
    assert len(rows) == len(values) == BATCHES * len(PARTS) * PER_FILE + len(inserts)
    assert all(values[k] == "b" for k, *_ in updates) and all(values[k] == "new" for k, *_ in inserts)
    assert sum(v == "a" for v in values.values()) == BATCHES * len(PARTS) * PER_FILE - len(updates)
    last = pyhudi.HudiTable.for_path(spark, str(path)).history().collect()[-1]
    assert last.rows_updated == len(updates) and last.index_lookup.records_found == len(updates)


def test_duplicates_beyond_a_tasks_memory_budget_are_combined_by_the_spilling_combiner(spark, tmp_path):
    # De-duplication holds a task's records in a hash map up to 64 MB (estimated), then hands
    # them and the rest to Spark's spilling combiner (spark.write.Precombine). 36,000 records of
    # 4 KB over the session's 2 reduce tasks are about 75 MB a task: every task crosses the
    # budget. Keys 0-5999 come twice; the larger ts wins, the first record for odd keys and the
    # second for even ones.
    from pyspark.sql import functions as F

    path = tmp_path / "t"
    n, distinct = 36_000, 30_000
    i = F.col("id")
    df = spark.range(0, n, numPartitions=2).select(
        (i % distinct).cast("string").alias("id"),
        F.concat(F.lit("p"), (i % distinct % 3).cast("string")).alias("part"),
        F.when(i >= distinct, F.lit(2)).when(i % 2 == 0, F.lit(1)).otherwise(F.lit(3)).cast("long").alias("ts"),
        F.concat(i.cast("string"), F.lit("-"), F.expr("repeat('x', 4000)")).alias("v"),
    )
    pyhudi.write(
        df, str(path), table_name="dedup", record_key="id", partition_by="part", precombine="ts", operation="upsert"
    )
    got = {
        r.id: int(r.src)
        for r in spark.read.format("pyhudi")
        .load(str(path))
        .select("id", F.substring_index("v", "-", 1).alias("src"))
        .collect()
    }
    expected = {str(k): (k + distinct if k < n - distinct and k % 2 == 0 else k) for k in range(distinct)}
    assert got == expected
    last = pyhudi.HudiTable.for_path(spark, str(path)).history().collect()[-1]
    assert last.rows_inserted == distinct


def test_keys_outside_every_key_range_probe_nothing_and_writes_without_a_lookup_record_none(spark, tmp_path):
    path = tmp_path / "t"
    _table(spark, path, "COPY_ON_WRITE")
    # Keys past every file's range: pruned by the key ranges, no bloom filter read.
    instant = _upsert(spark, path, [("9-p1-0000", "p1", 1, "n")], "BLOOM")
    lookup = pyhudi.HudiTable.for_path(spark, str(path)).history().collect()[-1].index_lookup
    p1_files = sum(1 for keys in _stored_keys(path).values() if next(iter(keys)).split("-")[1] == "p1")
    assert (lookup.files_indexed, lookup.files_in_range, lookup.files_probed, lookup.files_matched) == (
        p1_files,
        0,
        0,
        0,
    )
    assert lookup.records_found == 0 and lookup.keys_read == 0 and lookup.bloom_checks == 0
    assert _show(path, instant)["index_lookup"]["files_in_range"] == 0

    # insert_overwrite replaces without looking keys up.
    pyhudi.write(spark.createDataFrame([("x", "p2", 1, "o")], SCHEMA), str(path), operation="insert_overwrite")
    last = pyhudi.HudiTable.for_path(spark, str(path)).history().collect()[-1]
    assert last.operation == "insert_overwrite" and last.index_lookup is None
