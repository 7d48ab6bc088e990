# SPDX-License-Identifier: Apache-2.0
"""A writer killed mid-write leaves a table that still reads as its last commit, and the next
write rolls the failed instant back.

A separate Python process (its own local Spark through ``pyhudi.configure_spark``) writes a
a few hundred thousand generated rows into an existing table. The test polls ``.hoodie/`` until that
write's instant is pending (requested or inflight, not completed) and, when possible, until
its first data file exists, then kills the process group with SIGKILL.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, List, Optional, Set, Tuple

import harness
import pytest
import write_support as ws
from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

SCHEMA = StructType(
    [
        StructField("key", StringType()),
        StructField("part", StringType()),
        StructField("ts", LongType()),
        StructField("payload", StringType()),
        StructField("score", DoubleType()),
    ]
)
OPTIONS = {
    "hoodie.table.name": "recovery",
    "hoodie.datasource.write.recordkey.field": "key",
    "hoodie.datasource.write.partitionpath.field": "part",
    "hoodie.datasource.write.precombine.field": "ts",
    **ws.HEARTBEAT,
}
COLUMNS = [f.name for f in SCHEMA.fields]

WRITER = textwrap.dedent(
    """
    import json, sys
    from pyspark.sql import SparkSession
    import pyhudi

    path, operation, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
    options = json.loads(sys.argv[4])
    builder = (
        SparkSession.builder.master("local[2]").appName("pyhudi-killed-writer")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.range(rows, numPartitions=8).selectExpr(
        "concat('big', id) as key",
        "concat('p', id % 3) as part",
        "id as ts",
        "sha2(cast(id as string), 512) as payload",
        "rand(7) as score",
    )
    print("WRITING", flush=True)
    df.write.format("pyhudi").options(**options).option(
        "hoodie.datasource.write.operation", operation
    ).mode("append").save(path)
    print("DONE", flush=True)
    """
)


def _save(spark: Any, rows: List[Any], path: Path, mode: str = "append") -> None:
    spark.createDataFrame(rows, SCHEMA).write.format("pyhudi").options(**OPTIONS).mode(mode).save(str(path))


def _data_files(path: Path, instant: str) -> List[Path]:
    """Files outside ``.hoodie`` whose name carries ``instant`` (base files ``*_<T>.parquet``)."""
    return [p for p in path.rglob(f"*{instant}*") if p.is_file() and ".hoodie" not in p.relative_to(path).parts]


def _new_pending(path: Path, known: Set[str]) -> Optional[str]:
    pending = [i for i in harness.pending_instants(path) if i not in known]
    return pending[0] if pending else None


def _kill_writer_mid_write(path: Path, log: Path, operation: str, rows: int) -> Tuple[Optional[str], List[Path]]:
    """Run the writer; return the pending instant it was killed in and the files of that
    instant present at the kill, or (None, []) when it finished before it could be caught."""
    known = {i for i, _ in harness.completed_instants(path)} | set(harness.pending_instants(path))
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    with open(log, "wb") as out:  # a file, not a pipe: a full pipe would stall the writer
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), operation, str(rows), json.dumps(OPTIONS)],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the JVM goes down with it
            env=env,
        )
    instant: Optional[str] = None
    seen_at = 0.0
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if instant is None:
                instant = _new_pending(path, known)
                seen_at = time.monotonic()
            # Prefer to kill once a data file of the instant exists, so that the rollback
            # has something to delete; do not wait for one forever.
            files = _data_files(path, instant) if instant is not None else []
            if instant is not None and (files or time.monotonic() - seen_at > 10):
                if _new_pending(path, known) == instant:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=60)
                    return instant, files
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
    if proc.returncode not in (0, -signal.SIGKILL):
        output = log.read_text(errors="replace")[-4000:]
        pytest.fail(f"writer process failed (exit {proc.returncode}):\n{output}")
    return None, []


# Rows per operation: a few seconds of writing after the instant becomes pending (measured on
# 2 cores: bulk_insert of 300k rows writes for ~6 s, an upsert of 150k fresh keys for ~12 s).
ROWS = {"bulk_insert": 300_000, "upsert": 150_000}


@pytest.mark.parametrize("operation", sorted(ROWS))
def test_killed_writer_is_invisible_and_rolled_back(spark, tmp_path, operation):
    path = tmp_path / "table"
    initial = [(f"k{i}", f"p{i % 3}", i, f"v{i}", i / 4) for i in range(12)]
    _save(spark, initial, path)
    [(first, _)] = harness.completed_instants(path)
    committed = [{**ws.data_json(r, SCHEMA), "_hoodie_commit_time": first} for r in initial]
    model_columns = COLUMNS + ["_hoodie_commit_time"]

    rows, failed, files_at_kill = ROWS[operation], None, []
    for _attempt in range(3):
        failed, files_at_kill = _kill_writer_mid_write(path, tmp_path / f"writer{_attempt}.log", operation, rows)
        if failed is not None:
            break
        # The writer committed before it could be killed: start again from a clean table.
        shutil.rmtree(path)
        _save(spark, initial, path)
        [(first, _)] = harness.completed_instants(path)
        committed = [{**ws.data_json(r, SCHEMA), "_hoodie_commit_time": first} for r in initial]
        rows *= 2
    assert failed is not None, "could not catch the writer while its instant was pending"
    assert harness.completed_instants(path) == [(first, "commit")]
    assert failed in harness.pending_instants(path)
    assert files_at_kill, f"the writer was killed before it wrote any file of {failed}"
    # The killed driver's timeline service had batched the markers (the default marker type):
    # every data file on disk at the kill is in a MARKERS<n> file, and no direct marker exists.
    temp = path / ".hoodie" / ".temp" / failed
    assert (temp / "MARKERS.type").read_text() == "TIMELINE_SERVER_BASED"
    batched = {
        line for f in temp.glob("MARKERS*") if f.name != "MARKERS.type" for line in f.read_text().split("\n") if line
    }
    assert not list(temp.rglob("*.marker.*")), "direct markers next to the timeline service's"
    for f in files_at_kill:
        if f.name.endswith(".parquet"):
            rel = str(f.relative_to(path))
            assert f"{rel}.marker.CREATE" in batched or f"{rel}.marker.MERGE" in batched, f"{rel} has no marker"

    # Both readers still see exactly the last committed state.
    read = ws.assert_readers_agree(spark, path, f"after killing the {operation} at {failed}")
    ws.assert_same(ws.project(read, model_columns), committed, "pyhudi after the kill")

    # The next write, once the killed writer's heartbeat expired, rolls the failed instant back
    # and commits.
    ws.wait_until_dead(path, failed)
    update = [("k0", "p0", 100, "updated", 9.5), ("fresh", "p1", 1, "fresh", 0.0)]
    _save(spark, update, path)
    completed = harness.completed_instants(path)
    assert len(completed) == 2 and completed[0] == (first, "commit"), completed
    second = completed[1][0]
    assert second > failed

    names = harness.timeline_files(path)
    assert not [n for n in names if n.startswith(failed)], f"failed instant {failed} still on the timeline: {names}"
    rollbacks = [n for n in names if n.endswith(".rollback")]
    assert rollbacks, f"no completed rollback instant in .hoodie: {names}"
    leftovers = _data_files(path, failed)
    base_files = [p for p in leftovers if p.name.endswith(".parquet")]
    assert not base_files, f"base files of the failed instant {failed} were not deleted: {base_files}"
    assert not (path / ".hoodie" / ".temp" / failed).exists(), f"markers of {failed} left behind"

    expected = [r for r in committed if r["key"] != "k0"]
    expected += [{**ws.data_json(r, SCHEMA), "_hoodie_commit_time": second} for r in update]
    read = ws.assert_readers_agree(spark, path, "after the write that rolled back")
    ws.assert_meta_consistent(read, path, "after the rollback")
    ws.assert_same(ws.project(read, model_columns), expected, "pyhudi after the rollback")

    # Last, so that a leftover side file does not hide the checks above: nothing else of the
    # failed write (e.g. Hadoop's `.<name>.parquet.crc` checksum files) stays behind either.
    assert not leftovers, f"files of the failed instant {failed} were not deleted: {leftovers}"
