# SPDX-License-Identifier: Apache-2.0
"""Two writers on one table at the same moment, in the default mode (no lock provider): every
write either commits with all its rows visible, or fails with ``WriteConflictError`` and leaves
nothing behind. Nothing acknowledged is ever lost.

Each writer is a separate Python process with its own local Spark (``pyhudi.configure_spark``).
Both prepare their batches, wait for a start signal, then upsert batch after batch without pause,
so that their writes overlap again and again. Every batch updates seed keys the writer owns and
inserts keys of its own into the same partitions, so both writers plan inserts into the same
small file groups and updates of neighbouring keys in the same file groups: the case where a
stale plan silently rewrites the other writer's commit away.
"""

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Dict, List

import harness
import pytest
import write_support as ws
from pyspark.sql.types import LongType, StringType, StructField, StructType

SCHEMA = StructType(
    [
        StructField("key", StringType()),
        StructField("part", StringType()),
        StructField("ts", LongType()),
        StructField("value", StringType()),
    ]
)
SEEDS = 600
BATCHES = 4
INSERTS = 300

WRITER = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path
    from pyspark.sql import SparkSession
    import pyhudi
    from pyhudi import errors

    path, writer, batches, inserts, seeds, go, out = sys.argv[1:8]
    writer, batches, inserts, seeds = int(writer), int(batches), int(inserts), int(seeds)
    options = json.loads(sys.argv[8])
    builder = (
        SparkSession.builder.master("local[1]").appName(f"pyhudi-writer-{writer}")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    frames = []
    for b in range(batches):
        rows = [(f"seed{i}", f"p{i % 3}", b + 1, f"w{writer}b{b}") for i in range(writer, seeds, 2)]
        rows += [(f"w{writer}b{b}i{i}", f"p{i % 3}", b + 1, f"w{writer}b{b}") for i in range(inserts)]
        frames.append(spark.createDataFrame(rows, "key string, part string, ts long, value string").cache())
        frames[-1].count()
    Path(out + ".ready").write_text("ready")
    while not Path(go).exists():
        time.sleep(0.01)
    results = []
    for b, df in enumerate(frames):
        try:
            with errors.translated():
                df.write.format("pyhudi").options(**options).mode("append").save(path)
            results.append({"batch": b, "ok": True})
        except Exception as e:  # recorded, not raised: the test judges every outcome
            results.append({"batch": b, "ok": False, "error": type(e).__name__, "message": str(e)[:500]})
    Path(out).write_text(json.dumps(results))
    """
)


def _options(table_type: str) -> Dict[str, str]:
    return {
        "hoodie.table.name": "concurrent",
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.recordkey.field": "key",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        "hoodie.datasource.write.operation": "upsert",
    }


def _run_writers(path: Path, tmp: Path, options: Dict[str, str]) -> List[List[Dict[str, Any]]]:
    go = tmp / "go"
    outs = [tmp / f"writer{w}.json" for w in range(2)]
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    procs, logs = [], []
    for w in range(2):
        log = open(tmp / f"writer{w}.log", "wb")
        logs.append(log)
        args = [str(path), str(w), str(BATCHES), str(INSERTS), str(SEEDS), str(go), str(outs[w]), json.dumps(options)]
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", WRITER, *args],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        )
    try:
        deadline = time.monotonic() + 300
        while not all(Path(str(o) + ".ready").exists() for o in outs):
            assert time.monotonic() < deadline, "writers did not get ready"
            assert all(p.poll() is None for p in procs), "a writer died before it started writing"
            time.sleep(0.05)
        go.write_text("go")
        for p in procs:
            p.wait(timeout=600)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        for log in logs:
            log.close()
    for w, p in enumerate(procs):
        assert p.returncode == 0, (tmp / f"writer{w}.log").read_text(errors="replace")[-4000:]
    return [json.loads(o.read_text()) for o in outs]


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_two_writers_at_once_lose_nothing(spark, tmp_path, table_type):
    path = tmp_path / "table"
    options = _options(table_type)
    seeds = [(f"seed{i}", f"p{i % 3}", 0, "seed") for i in range(SEEDS)]
    spark.createDataFrame(seeds, SCHEMA).write.format("pyhudi").options(**options).mode("append").save(str(path))

    results = _run_writers(path, tmp_path, options)

    failures = [(w, r) for w, rs in enumerate(results) for r in rs if not r["ok"]]
    for w, r in failures:
        assert r["error"] == "WriteConflictError", f"writer {w} batch {r['batch']}: {r}"
    assert failures, "the writers never met: the test did not exercise concurrent writes"
    assert any(r["ok"] for rs in results for r in rs), "no write succeeded"

    # The model: seeds updated by the last successful batch of their owner, plus the inserts of
    # every successful batch; nothing of a failed batch.
    expected: Dict[str, str] = {f"seed{i}": "seed" for i in range(SEEDS)}
    for w, rs in enumerate(results):
        for r in sorted((r for r in rs if r["ok"]), key=lambda r: r["batch"]):
            tag = f"w{w}b{r['batch']}"
            expected.update({f"seed{i}": tag for i in range(w, SEEDS, 2)})
            expected.update({f"{tag}i{i}": tag for i in range(INSERTS)})
    read = ws.pyhudi_rows(spark, path)
    actual = {row["key"]: row["value"] for row in read}
    assert len(actual) == len(read), "a key appears twice"
    lost = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    wrong = sorted(k for k in set(expected) & set(actual) if expected[k] != actual[k])
    summary = {w: [(r["batch"], r["ok"]) for r in rs] for w, rs in enumerate(results)}
    assert not lost and not extra and not wrong, (
        f"outcomes {summary}: lost {len(lost)} {lost[:5]}, unexpected {len(extra)} {extra[:5]}, "
        f"wrong value {len(wrong)} {[(k, expected[k], actual[k]) for k in wrong[:5]]}"
    )
    theirs = {row["key"]: row["value"] for row in harness.hudi_rs_read(path)}
    assert theirs == actual, "hudi-rs disagrees with pyhudi"

    # Failed writes left no pending instant and no heartbeat behind.
    assert not harness.pending_instants(path), harness.pending_instants(path)
    heartbeats = path / ".hoodie" / ".heartbeat"
    assert not (heartbeats.exists() and list(heartbeats.iterdir())), list(heartbeats.iterdir())
