# SPDX-License-Identifier: Apache-2.0
"""The clean service through ``format("pyhudi")`` and ``pyhudi.clean`` (docs/clean.md).

a) Copy-on-write and merge-on-read tables take 14 writes with automatic clean
   (``KEEP_LATEST_COMMITS``, 4 commits retained; merge-on-read compacts inline every 2 delta
   commits, so its file groups get new slices). After each write: the files that disappeared are
   exactly those an independent computation in this test calls unneeded (slices replaced as the
   latest before the earliest retained commit, with their log files), the clean metadata lists
   them, the latest snapshot and time travel to every retained instant equal the model (pyhudi
   and hudi-rs), and ``pyhudi validate`` passes.
b) A clean killed after ``clean.inflight`` (SIGKILL of its process group) is finished by the next
   write, from its plan.
"""

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import fastavro
import harness
import pytest
import write_support as ws

import pyhudi
from pyhudi.options import (
    CLEAN_AUTOMATIC,
    CLEAN_COMMITS_RETAINED,
    CLEAN_POLICY,
    CleanPolicy,
)

RETAINED = 4
KEYS = 40
COLUMNS = ("key", "part", "ts", "v")
Row = Tuple[str, str, int, str]


def _options(table_type: str, name: str) -> Dict[str, str]:
    options = {
        "hoodie.table.name": name,
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.recordkey.field": "key",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        CLEAN_POLICY: CleanPolicy.KEEP_LATEST_COMMITS.value,
        CLEAN_COMMITS_RETAINED: str(RETAINED),
        **ws.HEARTBEAT,
    }
    if table_type == "MERGE_ON_READ":
        options.update({"hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "2"})
    return options


def _write(spark: Any, path: Path, rows: List[Row], options: Dict[str, str], operation: str = "upsert") -> None:
    df = spark.createDataFrame(rows, "key string, part string, ts long, v string").repartition(2)
    df.write.format("pyhudi").options(**options).option("hoodie.datasource.write.operation", operation).mode(
        "append"
    ).save(str(path))


def _read(spark: Any, path: Path, as_of: Optional[str] = None) -> List[Row]:
    options = {"as.of.instant": as_of} if as_of else {}
    return sorted(tuple(r) for r in harness.read_table(spark, path, options).select(*COLUMNS).collect())


def _read_rs(path: Path, as_of: Optional[str] = None) -> List[Row]:
    return sorted(tuple(r[c] for c in COLUMNS) for r in harness.hudi_rs_read(path, as_of=as_of))


# --------------------------------------------------------------------------------------------
# Which files a KEEP_LATEST_COMMITS clean may delete, computed here from names alone.


def _data_files(path: Path) -> Set[str]:
    return harness.data_files(path)


def _group_and_instant(rel: str) -> Tuple[Tuple[str, str], str, bool]:
    """((partition, file id), instant, is base): a log names its slice's base instant."""
    folder, _, name = rel.rpartition("/")
    if name.endswith(".parquet"):
        file_id, _, rest = name.partition("_")
        return (folder, file_id), rest.rsplit("_", 1)[1].split(".")[0], True
    file_id, _, rest = name[1:].partition("_")  # .<fileId>_<baseInstant>.log.<version>_<token>
    return (folder, file_id), rest.split(".log.")[0], False


def _unneeded(files: Set[str], writes: List[str], retained: int = RETAINED) -> Set[str]:
    """Files of slices whose successor became the latest before the earliest retained commit."""
    if len(writes) <= retained:
        return set()
    earliest = writes[len(writes) - retained]
    bases: Dict[Tuple[str, str], Set[str]] = {}
    for f in files:
        group, instant, is_base = _group_and_instant(f)
        if is_base:
            bases.setdefault(group, set()).add(instant)
    out = set()
    for f in files:
        group, instant, is_base = _group_and_instant(f)
        slices = sorted(bases.get(group, set()))
        base = instant if is_base else max([b for b in slices if b <= instant], default=instant)
        later = [b for b in slices if b > base]
        if later and later[0] < earliest:
            out.add(f)
    return out


def _clean_instants(path: Path) -> List[str]:
    return sorted(n.split(".")[0] for n in harness.timeline_files(path) if n.endswith(".clean"))


def _avro(path: Path) -> Dict[str, Any]:
    with open(path, "rb") as f:
        records = list(fastavro.reader(f))
    assert len(records) == 1, path
    return records[0]  # type: ignore[no-any-return]


def _validate(path: Path, context: str) -> None:
    cli = Path(sys.executable).parent / "pyhudi"
    result = subprocess.run([str(cli), "validate", str(path)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, (
        f"{context}: pyhudi validate failed:\n{result.stdout[-3000:]}\n{result.stderr[-2000:]}"
    )


# --------------------------------------------------------------------------------------------
# a) automatic clean over 14 writes


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_automatic_clean_keeps_the_retained_window_exact(spark, tmp_path, table_type):
    path = tmp_path / "table"
    options = _options(table_type, f"clean_{table_type.lower()}")
    rng = random.Random(7)
    state: Dict[str, Row] = {}
    history: Dict[str, List[Row]] = {}
    cleans_seen = 0
    for step in range(14):
        if step == 0:
            rows = [(f"k{i:02d}", f"p{i % 4}", 0, "v0") for i in range(KEYS)]
        else:
            keys = rng.sample(range(KEYS), 12)
            rows = [(f"k{i:02d}", f"p{i % 4}", step, f"v{step}") for i in keys]
        before_files = _data_files(path) if path.exists() else set()
        before_cleans = _clean_instants(path) if path.exists() else []
        _write(spark, path, rows, options, "bulk_insert" if step == 0 else "upsert")
        for r in rows:
            state[r[0]] = r
        writes = [i for i, _ in harness.completed_instants(path)]
        for w in writes:  # the write's instant and an inline compaction after it
            history.setdefault(w, sorted(state.values()))
        context = f"{table_type} write#{step}"

        after_files = _data_files(path)
        removed = before_files - after_files
        expected = _unneeded(after_files | removed, writes)
        assert removed == expected, f"{context}: removed {sorted(removed)}, unneeded {sorted(expected)}"
        new_cleans = [c for c in _clean_instants(path) if c not in before_cleans]
        if removed:
            cleans_seen += 1
            assert len(new_cleans) == 1, f"{context}: clean instants {new_cleans}"
            meta = _avro(path / ".hoodie" / f"{new_cleans[0]}.clean")
            deleted = {
                f"{p}/{n}" if p else n for p, m in meta["partitionMetadata"].items() for n in m["successDeleteFiles"]
            }
            assert deleted == removed and meta["totalFilesDeleted"] == len(removed), context
            assert meta["earliestCommitToRetain"] == writes[len(writes) - RETAINED], context
            assert meta["lastCompletedCommitTimestamp"] == writes[-1] and meta["policy"] == "KEEP_LATEST_COMMITS"
            plan = _avro(path / ".hoodie" / f"{new_cleans[0]}.clean.requested")
            assert (
                plan["version"] == 2 and plan["earliestInstantToRetain"]["timestamp"] == meta["earliestCommitToRetain"]
            )
        else:
            assert not new_cleans, f"{context}: a clean instant {new_cleans} that deleted nothing"

        latest = sorted(state.values())
        assert _read(spark, path) == latest, f"{context}: pyhudi snapshot"
        assert _read_rs(path) == latest, f"{context}: hudi-rs snapshot"
        retained = writes[max(0, len(writes) - RETAINED) :]
        for instant in retained:
            assert _read(spark, path, instant) == history[instant], f"{context}: pyhudi as of {instant}"
        assert _read_rs(path, retained[0]) == history[retained[0]], f"{context}: hudi-rs as of {retained[0]}"
        if step % 4 == 3 or step == 13:
            _validate(path, context)
    assert cleans_seen >= 3, f"{table_type}: only {cleans_seen} writes cleaned anything"
    # Nothing the last clean left is unneeded, and an explicit clean finds nothing more.
    assert pyhudi.clean(spark, str(path), options) == []


def test_clean_on_demand_with_older_key_names(spark, tmp_path):
    path = tmp_path / "table"
    options = {**_options("COPY_ON_WRITE", "clean_demand"), CLEAN_AUTOMATIC: "false"}
    for step in range(6):
        _write(spark, path, [(f"k{i}", "p0", step, f"v{step}") for i in range(5)], options)
    files = _data_files(path)
    assert len(files) == 6 and not _clean_instants(path), "automatic clean is off"
    # Apache Hudi's earlier key names work too.
    done = pyhudi.clean(
        spark,
        str(path),
        {"hoodie.cleaner.policy": "KEEP_LATEST_FILE_VERSIONS", "hoodie.cleaner.fileversions.retained": "2"},
    )
    assert len(done) == 1 and _clean_instants(path) == done
    assert len(_data_files(path)) == 2
    assert _read(spark, path) == [(f"k{i}", "p0", 5, "v5") for i in range(5)]
    _validate(path, "after pyhudi.clean")


# --------------------------------------------------------------------------------------------
# b) a clean killed after clean.inflight

WORKER = textwrap.dedent(
    """
    import sys
    from pyspark.sql import SparkSession
    import pyhudi

    path = sys.argv[1]
    builder = (
        SparkSession.builder.master("local[2]").appName("pyhudi-killed-clean")
        .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    print("CLEANING", flush=True)
    print(pyhudi.clean(spark, path, {"hoodie.clean.commits.retained": "1",
                                     "hoodie.client.heartbeat.interval_in_ms": "500"}), flush=True)
    """
)


def _pending_clean(path: Path) -> Optional[str]:
    names = set(harness.timeline_files(path))
    pending = [
        n.split(".")[0] for n in names if n.endswith(".clean.inflight") and n.replace(".inflight", "") not in names
    ]
    return pending[0] if pending else None


def test_killed_clean_is_finished_by_the_next_write(spark, tmp_path):
    path = tmp_path / "table"
    options = {**_options("COPY_ON_WRITE", "clean_killed"), CLEAN_AUTOMATIC: "false"}
    for step in range(5):
        _write(spark, path, [(f"k{i}", f"p{i % 8}", step, f"v{step}") for i in range(40)], options)
    writes = [i for i, _ in harness.completed_instants(path)]
    files = _data_files(path)
    # Retaining 1 commit: the slices of the last two writes stay (the one before the earliest
    # retained commit is kept, as Apache Hudi keeps it).
    doomed = _unneeded(files, writes, retained=1)
    assert doomed and not any(f.endswith((f"_{writes[-1]}.parquet", f"_{writes[-2]}.parquet")) for f in doomed)
    assert len(doomed) == len(files) * 3 // 5

    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    proc = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env=env,
    )
    target = None
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            target = _pending_clean(path)
            if target is not None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=60)
                break
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
    if target is None:
        _, err = proc.communicate()
        pytest.fail(f"the clean finished (exit {proc.returncode}) before it could be killed: {err.decode()[-2000:]}")
    assert _pending_clean(path) == target
    # Readers ignore the pending clean; files it did delete were not needed.
    assert _read(spark, path) == sorted((f"k{i}", f"p{i % 8}", 4, "v4") for i in range(40))
    left = _data_files(path)
    assert doomed - left == files - left, "the killed clean deleted only planned files"

    ws.wait_until_dead(path, target)
    # The next write (clean not automatic) finishes the pending clean from its plan.
    _write(spark, path, [("k0", "p0", 9, "v9")], options)
    assert _pending_clean(path) is None and _clean_instants(path) == [target]
    meta = _avro(path / ".hoodie" / f"{target}.clean")
    assert meta["earliestCommitToRetain"] == writes[-1]
    listed = {f"{p}/{n}" for p, m in meta["partitionMetadata"].items() for n in m["successDeleteFiles"]}
    assert listed == doomed and not _data_files(path) & doomed
    expected = sorted([("k0", "p0", 9, "v9")] + [(f"k{i}", f"p{i % 8}", 4, "v4") for i in range(1, 40)])
    assert _read(spark, path) == expected and _read_rs(path) == expected
    _validate(path, "after the finished clean")
