# SPDX-License-Identifier: Apache-2.0
"""Savepoints, named savepoints, rollback of the latest write and restore (docs/savepoints.md).

On copy-on-write and merge-on-read tables written by pyhudi: a savepoint read by name (the
``as.of.instant`` option and ``pyhudi.read(as_of=...)``) equals the snapshot taken when it was
made, after further upserts and deletes; a restore brings the snapshot back to it for pyhudi and
hudi-rs alike, and later writes work; a rollback of the latest write leaves the previous snapshot;
the Spark-free ``pyhudi`` command lists the savepoints and validates the tables. A restore whose
JVM halts after its first rollback is finished by the next call.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List

import harness
import pytest

import pyhudi
from pyhudi.errors import InstantStateError, InvalidOptionError, translated

PYHUDI = Path(sys.executable).parent / "pyhudi"
COLUMNS = ["key", "part", "ts", "v"]
OPTIONS = {
    "hoodie.table.name": "savepoints",
    "hoodie.datasource.write.recordkey.field": "key",
    "hoodie.datasource.write.partitionpath.field": "part",
    "hoodie.datasource.write.precombine.field": "ts",
}
TABLE_TYPES = ["COPY_ON_WRITE", "MERGE_ON_READ"]


def _write(spark: Any, path: Path, rows: List[Any], table_type: str, operation: str = "upsert") -> None:
    df = spark.createDataFrame(rows, "key string, part string, ts long, v string")
    df.write.format("pyhudi").options(**OPTIONS).option("hoodie.datasource.write.table.type", table_type).option(
        "hoodie.datasource.write.operation", operation
    ).mode("append").save(str(path))


def _data(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return sorted(({c: r[c] for c in COLUMNS} for r in rows), key=lambda r: r["key"])


def _snapshot(spark: Any, path: Path, **options: str) -> List[Dict[str, Any]]:
    df = spark.read.format("pyhudi").options(**options).load(str(path))
    return _data(harness.spark_rows(df))


def _cli(*args: str, code: int = 0) -> subprocess.CompletedProcess:
    done = subprocess.run([str(PYHUDI), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == code, f"pyhudi {' '.join(args)} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def _validates(path: Path) -> None:
    doc = json.loads(_cli("validate", str(path), "--json").stdout)
    assert doc["ok"], doc


def _history(spark: Any, path: Path, table_type: str) -> List[Dict[str, Any]]:
    """Two writes, then the snapshot a savepoint named ``first`` is taken of."""
    _write(spark, path, [(f"k{i}", f"p{i % 2}", i, f"v{i}") for i in range(8)], table_type, "insert")
    _write(spark, path, [("k1", "p1", 10, "v1b"), ("k8", "p0", 10, "v8")], table_type)
    return _snapshot(spark, path)


def _more_changes(spark: Any, path: Path, table_type: str) -> None:
    _write(spark, path, [("k2", "p0", 20, "v2c"), ("k9", "p1", 20, "v9")], table_type)
    _write(spark, path, [("k3", "p1", 30, "x")], table_type, "delete")
    _write(spark, path, [("k4", "p0", 40, "v4d")], table_type)


@pytest.mark.parametrize("table_type", TABLE_TYPES)
def test_named_savepoint_read_and_restore(spark, tmp_path, table_type):
    path = tmp_path / table_type.lower()
    at_savepoint = _history(spark, path, table_type)
    latest = harness.completed_instants(path)[-1][0]
    assert pyhudi.savepoint(spark, str(path), name="first", retain_days=30, comment="before changes") == latest
    assert f"{latest}.savepoint" in harness.timeline_files(path)

    _more_changes(spark, path, table_type)
    changed = _snapshot(spark, path)
    assert changed != at_savepoint

    # Read by name, through the option and the Python API, equals the snapshot at the savepoint.
    # (Apache Hudi's time-travel key is ``as.of.instant``; it has no hoodie.datasource.read.* form.)
    assert _snapshot(spark, path, **{"as.of.instant": "first"}) == at_savepoint
    assert _data(harness.spark_rows(pyhudi.read(spark, str(path), as_of="first"))) == at_savepoint

    (listed,) = pyhudi.savepoints(spark, str(path))
    assert (listed["instant"], listed["name"], listed["comment"]) == (latest, "first", "before changes")
    assert int(listed["expires"]) - int(listed["created"]) == 30 * 86400
    cli = json.loads(_cli("savepoints", str(path), "--json").stdout)["savepoints"]
    assert [(s["instant"], s["name"], s["state"]) for s in cli] == [(latest, "first", "completed")]
    assert "first" in _cli("savepoints", str(path)).stdout
    _validates(path)

    restore_instant = pyhudi.restore(spark, str(path), "first")
    assert f"{restore_instant}.restore" in harness.timeline_files(path)
    assert harness.completed_instants(path)[-1][0] == latest
    assert _snapshot(spark, path) == at_savepoint
    assert _data(harness.hudi_rs_read(path)) == at_savepoint
    _validates(path)

    # The restored table takes writes again; the savepoint stays.
    _write(spark, path, [("k5", "p1", 50, "v5e")], table_type)
    expected = [r if r["key"] != "k5" else {**r, "ts": 50, "v": "v5e"} for r in at_savepoint]
    assert _snapshot(spark, path) == expected
    assert _data(harness.hudi_rs_read(path)) == expected
    assert [s["name"] for s in pyhudi.savepoints(spark, str(path))] == ["first"]
    _validates(path)


@pytest.mark.parametrize("table_type", TABLE_TYPES)
def test_rollback_latest_write(spark, tmp_path, table_type):
    path = tmp_path / table_type.lower()
    before = _history(spark, path, table_type)
    previous = harness.completed_instants(path)[-1][0]
    _write(spark, path, [("k2", "p0", 20, "v2c"), ("k9", "p1", 20, "v9")], table_type)
    latest = harness.completed_instants(path)[-1][0]
    assert pyhudi.rollback(spark, str(path)) == latest
    assert harness.completed_instants(path)[-1][0] == previous
    assert _snapshot(spark, path) == before
    assert _data(harness.hudi_rs_read(path)) == before
    _validates(path)
    _write(spark, path, [("k9", "p1", 30, "v9")], table_type)
    assert len(_snapshot(spark, path)) == len(before) + 1


def _age_savepoint(path: Path, instant: str, seconds: int) -> None:
    """Moves a named savepoint's expiry ``seconds`` into the past, as if its days had passed."""
    import fastavro

    file = path / ".hoodie" / f"{instant}.savepoint"
    with open(file, "rb") as f:
        reader = fastavro.reader(f)
        schema, records = reader.writer_schema, list(reader)
    label = json.loads(records[0]["comments"])
    label["expiresAt"] -= seconds
    records[0]["comments"] = json.dumps(label, separators=(",", ":"))
    with open(file, "wb") as f:
        fastavro.writer(f, schema, records)


def test_clean_drops_expired_named_savepoints(spark, tmp_path):
    path = tmp_path / "expiry"
    _history(spark, path, "COPY_ON_WRITE")
    first = harness.completed_instants(path)[-1][0]
    pyhudi.savepoint(spark, str(path), name="short", retain_days=1)
    at_first = _snapshot(spark, path)
    _write(spark, path, [("k2", "p0", 20, "v2c")], "COPY_ON_WRITE")
    pyhudi.savepoint(spark, str(path), name="long", retain_days=30)
    _more_changes(spark, path, "COPY_ON_WRITE")
    clean = {"hoodie.clean.commits.retained": "1"}

    # Unexpired, both hold their slices: time travel to them stays exact after a clean.
    pyhudi.clean(spark, str(path), clean)
    assert [s["name"] for s in pyhudi.savepoints(spark, str(path))] == ["short", "long"]
    assert _snapshot(spark, path, **{"as.of.instant": "short"}) == at_first

    # Once "short" has expired, the next clean drops it and deletes the files only it kept.
    _age_savepoint(path, first, 2 * 86400)
    files_before = set(harness.data_files(path))
    assert pyhudi.clean(spark, str(path), clean)
    assert [s["name"] for s in pyhudi.savepoints(spark, str(path))] == ["long"]
    assert f"{first}.savepoint" not in harness.timeline_files(path)
    gone = files_before - set(harness.data_files(path))
    assert any(f.endswith(f"_{first}.parquet") for f in gone)
    with pytest.raises(InvalidOptionError), translated():
        _snapshot(spark, path, **{"as.of.instant": "short"})
    assert _snapshot(spark, path) == _data(harness.hudi_rs_read(path))
    _validates(path)


def test_errors(spark, tmp_path):
    path = tmp_path / "errors"
    _history(spark, path, "MERGE_ON_READ")
    first = harness.completed_instants(path)[0][0]
    latest = pyhudi.savepoint(spark, str(path), name="mine")

    # Reading by a name no savepoint has is a bad option value (it may be a mistyped instant).
    with pytest.raises(InvalidOptionError) as unknown, translated():
        _snapshot(spark, path, **{"as.of.instant": "nope"})
    assert unknown.value.error_id == "INVALID_OPTION_VALUE" and "mine" in str(unknown.value)
    with pytest.raises(InstantStateError) as unknown_restore:
        pyhudi.restore(spark, str(path), "nope")
    assert unknown_restore.value.error_id == "SAVEPOINT_NOT_FOUND"
    with pytest.raises(InstantStateError) as taken:
        pyhudi.savepoint(spark, str(path), instant=first, name="mine")
    assert taken.value.error_id == "SAVEPOINT_NAME_TAKEN"
    with pytest.raises(InstantStateError) as savepointed:
        pyhudi.rollback(spark, str(path))
    assert savepointed.value.error_id == "INSTANT_SAVEPOINTED" and latest in str(savepointed.value)
    with pytest.raises(InstantStateError) as older:
        pyhudi.rollback(spark, str(path), instant=first)
    assert older.value.error_id == "CANNOT_ROLL_BACK_INSTANT"

    assert pyhudi.delete_savepoint(spark, str(path), "mine") == latest
    assert not any("savepoint" in f for f in harness.timeline_files(path))
    assert pyhudi.savepoints(spark, str(path)) == []
    assert pyhudi.rollback(spark, str(path)) == latest


RESTORER = textwrap.dedent(
    """
    import sys
    from pyspark.sql import SparkSession
    import pyhudi

    builder = (
        SparkSession.builder.master("local[1]").appName("pyhudi-killed-restore")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    print("RESTORING", flush=True)
    pyhudi.restore(spark, sys.argv[1], sys.argv[2])
    print("DONE", flush=True)
    """
)


@pytest.mark.parametrize("table_type", TABLE_TYPES)
def test_restore_killed_half_way_is_finished_by_the_next_call(spark, tmp_path, table_type):
    path = tmp_path / table_type.lower()
    at_savepoint = _history(spark, path, table_type)
    pyhudi.savepoint(spark, str(path), name="first")
    _more_changes(spark, path, table_type)

    # The restorer's JVM halts right after the restore's first rollback.
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYHUDI_CRASH_AT="restore.after-first-rollback")
    done = subprocess.run(
        [sys.executable, "-c", RESTORER, str(path), "first"], env=env, capture_output=True, text=True, timeout=300
    )
    assert "RESTORING" in done.stdout and "DONE" not in done.stdout, done.stdout + done.stderr[-3000:]
    files = harness.timeline_files(path)
    pending = [f.split(".")[0] for f in files if f.endswith(".restore.inflight")]
    assert len(pending) == 1 and f"{pending[0]}.restore" not in files, files
    assert sum(1 for f in files if f.endswith(".rollback")) == 1, files

    assert pyhudi.restore(spark, str(path), "first") == pending[0]
    files = harness.timeline_files(path)
    assert f"{pending[0]}.restore" in files and sum(1 for f in files if f.endswith(".restore")) == 1
    assert _snapshot(spark, path) == at_savepoint
    assert _data(harness.hudi_rs_read(path)) == at_savepoint
    _validates(path)
