# SPDX-License-Identifier: Apache-2.0
"""Failure and recovery on merge-on-read tables.

a) A writer killed (SIGKILL of its process group) during an upsert's deltacommit: both readers
   still see the last committed state; the next write rolls the failed instant back (a
   ``rollback`` instant) and reads are exact, also after a compaction.
b) A compaction killed half way: it stays ``compaction.inflight``; snapshot and read_optimized
   reads are the last completed state (the half-written base files are invisible);
   ``pyhudi.run_pending_compactions`` deletes the partial files, re-executes the plan and
   completes it as a ``commit``; afterwards read_optimized == snapshot.
c) ``hoodie.compact.schedule.inline=true`` only writes ``compaction.requested``; reads stay
   exact; ``pyhudi.compact`` executes the plan; a plan scheduled later is executed by the next
   write before its own deltacommit.

The killed process is a separate Python with its own local Spark (``pyhudi.configure_spark``);
the test polls ``.hoodie/`` and the partition folders to kill it while its instant is pending
and, when possible, after it has written data files.
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
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

import harness
import pytest
import write_support as ws

import pyhudi

OPTIONS = {
    "hoodie.table.name": "mor_recovery",
    "hoodie.datasource.write.table.type": "MERGE_ON_READ",
    "hoodie.datasource.write.recordkey.field": "key",
    "hoodie.datasource.write.partitionpath.field": "part",
    "hoodie.datasource.write.precombine.field": "ts",
    **ws.HEARTBEAT,
}


def _exprs(ts_offset: int) -> List[str]:
    """Columns of generated row ``id``; ``ts_offset`` makes a later version of the same key."""
    return [
        "concat('big', id) as key",
        "concat('p', id % 3) as part",
        f"id + {ts_offset} as ts",
        f"sha2(concat(cast(id as string), '/{ts_offset}'), 512) as payload",
        f"id / 8.0 + {ts_offset} as score",
    ]


WORKER = textwrap.dedent(
    """
    import json, sys
    from pyspark.sql import SparkSession
    import pyhudi

    path, task = sys.argv[1], sys.argv[2]
    builder = (
        SparkSession.builder.master("local[2]").appName("pyhudi-killed-worker")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    if task == "write":
        operation, start, end = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
        exprs, options = json.loads(sys.argv[6]), json.loads(sys.argv[7])
        df = spark.range(start, end, numPartitions=8).selectExpr(*exprs)
        print("WRITING", flush=True)
        df.write.format("pyhudi").options(**options).option(
            "hoodie.datasource.write.operation", operation
        ).mode("append").save(path)
    else:
        print("COMPACTING", flush=True)
        print(pyhudi.compact(spark, path, {"hoodie.client.heartbeat.interval_in_ms": "500"}), flush=True)
    print("DONE", flush=True)
    """
)

STATE_COLUMNS = ["key", "part", "ts", "_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path"]
State = List[Tuple[Any, ...]]


def _write_range(
    spark: Any, path: Path, operation: str, start: int, end: int, ts_offset: int, extra: Optional[Dict[str, str]] = None
) -> None:
    df = spark.range(start, end, numPartitions=4).selectExpr(*_exprs(ts_offset))
    df.write.format("pyhudi").options(**OPTIONS).options(**(extra or {})).option(
        "hoodie.datasource.write.operation", operation
    ).mode("append").save(str(path))


def _expected(ids: range, ts_offset: int, commit: str) -> State:
    return [(f"big{i}", f"p{i % 3}", i + ts_offset, commit, f"big{i}", f"p{i % 3}") for i in ids]


def pyhudi_state(spark: Any, path: Path, read_optimized: bool = False) -> State:
    options = ws.READ_OPTIMIZED if read_optimized else {}
    df = harness.read_table(spark, path, options).select(*STATE_COLUMNS)
    return sorted(tuple(r) for r in df.collect())


def hudi_rs_state(path: Path, read_optimized: bool = False) -> State:
    import pyarrow as pa
    from hudi import HudiQueryType, HudiReadOptions, HudiTableBuilder

    table = HudiTableBuilder.from_base_uri(str(path)).build()
    options = HudiReadOptions().with_query_type(HudiQueryType.Snapshot)
    if read_optimized:
        options = options.with_hudi_option("hoodie.read.use.read_optimized.mode", "true")
    batches = table.read(options)
    if not batches:
        return []
    data = pa.Table.from_batches(list(batches)).select(STATE_COLUMNS)
    return sorted(tuple(r[c] for c in STATE_COLUMNS) for r in data.to_pylist())


def assert_state(actual: State, expected: State, context: str) -> None:
    actual, expected = sorted(actual), sorted(expected)
    if actual == expected:
        return
    a, e = set(actual), set(expected)
    missing, extra = sorted(e - a), sorted(a - e)
    raise AssertionError(
        f"{context}: {len(actual)} rows read, {len(expected)} expected; "
        f"missing {len(missing)} e.g. {missing[:3]}; unexpected {len(extra)} e.g. {extra[:3]}"
        + ("" if missing or extra else " (duplicates differ)")
    )


def assert_both_readers(spark: Any, path: Path, expected: State, context: str, read_optimized: bool = False) -> None:
    view = "read_optimized" if read_optimized else "snapshot"
    assert_state(pyhudi_state(spark, path, read_optimized), expected, f"{context}: pyhudi {view}")
    assert_state(hudi_rs_state(path, read_optimized), expected, f"{context}: hudi-rs {view}")


def _files(path: Path) -> Set[Path]:
    return {p for p in path.rglob("*") if p.is_file() and ".hoodie" not in p.relative_to(path).parts}


def _log_files(path: Path) -> Set[Path]:
    return {p for p in _files(path) if ".log." in p.name}


def _instant_base_files(path: Path, instant: str) -> List[Path]:
    return sorted(p for p in _files(path) if p.name.endswith(f"_{instant}.parquet") and not p.name.startswith("."))


def _run_worker(
    path: Path, args: List[str], find_target: Callable[[], Optional[str]], has_files: Callable[[str], bool]
) -> Optional[str]:
    """Start the worker; once ``find_target`` names a pending instant and ``has_files`` says it
    has written data (or 10 s later), SIGKILL its process group. Returns the instant, or None
    when the worker finished first."""
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    proc = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(path)] + args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: the JVM goes down with it
        env=env,
    )
    target: Optional[str] = None
    seen_at = 0.0
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if target is None:
                target = find_target()
                seen_at = time.monotonic()
            if target is not None and (has_files(target) or time.monotonic() - seen_at > 10):
                if find_target() == target:  # still pending
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=60)
                    return target
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
    _, err = proc.communicate()
    if proc.returncode not in (0, -signal.SIGKILL):
        pytest.fail(f"worker process failed (exit {proc.returncode}):\n{err.decode()[-4000:]}")
    return None


def _pending_compactions(path: Path) -> Dict[str, str]:
    """Compaction instants without a completed commit: instant -> "requested" / "inflight"."""
    names = harness.timeline_files(path)
    completed = {i for i, _ in harness.completed_instants(path)}
    out: Dict[str, str] = {}
    for name in names:
        stem, _, rest = name.partition(".")
        if rest in ("compaction.requested", "compaction.inflight") and stem not in completed:
            state = rest.split(".")[1]
            if out.get(stem) != "inflight":
                out[stem] = state
    return out


# ------------------------------------------------------------------------------------------
# a) killed deltacommit

UPSERT_ROWS = 100_000


def test_killed_deltacommit_is_invisible_and_rolled_back(spark, tmp_path):
    path = tmp_path / "table"
    rows = UPSERT_ROWS
    failed: Optional[str] = None
    for _attempt in range(3):
        if path.exists():
            shutil.rmtree(path)
        _write_range(spark, path, "bulk_insert", 0, rows, 0)
        [(first, action)] = harness.completed_instants(path)
        assert action == "deltacommit"
        logs_before = _log_files(path)
        known = {first}
        # The killed upsert updates every key (log files in every file group) and inserts 20%
        # fresh keys (new base files).
        failed = _run_worker(
            path,
            ["write", "upsert", "0", str(rows + rows // 5), json.dumps(_exprs(1_000_000)), json.dumps(OPTIONS)],
            lambda known=known: next((i for i in harness.pending_instants(path) if i not in known), None),
            lambda inst, before=logs_before: bool(_log_files(path) - before) and bool(_instant_base_files(path, inst)),
        )
        if failed is not None:
            break
        rows *= 2  # the upsert committed before it could be caught: more rows next time
    assert failed is not None, "could not catch the upsert while its deltacommit was pending"
    assert harness.completed_instants(path) == [(first, "deltacommit")]
    assert failed in harness.pending_instants(path)
    written_logs = _log_files(path) - logs_before
    assert written_logs, f"the upsert {failed} was killed before it wrote a log file"

    committed = _expected(range(rows), 0, first)
    context = f"after killing the upsert {failed}"
    assert_both_readers(spark, path, committed, context)
    assert_both_readers(spark, path, committed, context, read_optimized=True)

    # The next write, once the killed writer's heartbeat expired, rolls the failed deltacommit
    # back and commits.
    ws.wait_until_dead(path, failed)
    _write_range(spark, path, "upsert", 0, 1, 5_000_000)  # big0: updated (log file)
    _write_range(spark, path, "upsert", rows + 7, rows + 8, 5_000_000)  # a fresh key
    completed = harness.completed_instants(path)
    assert [a for _, a in completed] == ["deltacommit"] * 3, completed
    second, third = completed[1][0], completed[2][0]
    assert second > failed
    names = harness.timeline_files(path)
    assert not [n for n in names if n.startswith(failed)], f"failed instant {failed} still on the timeline: {names}"
    assert [n for n in names if n.endswith(".rollback")], f"no completed rollback instant in .hoodie: {names}"
    assert not _instant_base_files(path, failed), f"base files of the failed {failed} were not deleted"
    assert not (path / ".hoodie" / ".temp" / failed).exists(), f"markers of {failed} left behind"

    expected = sorted(
        _expected(range(1, rows), 0, first)
        + _expected(range(0, 1), 5_000_000, second)
        + _expected(range(rows + 7, rows + 8), 5_000_000, third)
    )
    assert_both_readers(spark, path, expected, "after the writes that rolled back")
    read = ws.pyhudi_rows(spark, path)
    ws.assert_meta_consistent_mor(read, path, "after the rollback")

    # Compaction folds the logs, skipping the rolled-back blocks of the failed instant.
    compaction = pyhudi.compact(spark, str(path))
    assert compaction is not None, "compact() found no log files after the rollback"
    ws.assert_compaction_instant(path, compaction, "compaction after the rollback")
    assert_both_readers(spark, path, expected, "after compaction")
    assert_both_readers(spark, path, expected, "after compaction", read_optimized=True)


# ------------------------------------------------------------------------------------------
# b) killed compaction

COMPACTION_ROWS = 150_000


def test_killed_compaction_is_invisible_and_completed_later(spark, tmp_path):
    path = tmp_path / "table"
    rows = COMPACTION_ROWS
    target: Optional[str] = None
    for _attempt in range(3):
        if path.exists():
            shutil.rmtree(path)
        _write_range(spark, path, "bulk_insert", 0, rows, 0)
        _write_range(spark, path, "upsert", 0, rows, 1_000_000)  # every file group gets a log file
        (first, _), (second, _) = harness.completed_instants(path)
        target = _run_worker(
            path,
            ["compact"],
            lambda: next((i for i, s in _pending_compactions(path).items() if s == "inflight"), None),
            lambda inst: bool(_instant_base_files(path, inst)),
        )
        if target is not None:
            break
        rows *= 2
    assert target is not None, "could not catch the compaction while it was inflight"
    assert _pending_compactions(path) == {target: "inflight"}
    assert harness.completed_instants(path) == [(first, "deltacommit"), (second, "deltacommit")]
    partial = _instant_base_files(path, target)

    snapshot = _expected(range(rows), 1_000_000, second)
    base_state = _expected(range(rows), 0, first)
    context = f"after killing compaction {target} ({len(partial)} base files of it on disk)"
    assert_both_readers(spark, path, snapshot, context)
    assert_both_readers(spark, path, base_state, context, read_optimized=True)

    ws.wait_until_dead(path, target)
    done = pyhudi.run_pending_compactions(spark, str(path), ws.HEARTBEAT)
    assert done == [target], f"run_pending_compactions returned {done}, expected [{target}]"
    ws.assert_compaction_instant(path, target, "re-executed compaction")
    assert _pending_compactions(path) == {}
    assert harness.completed_instants(path)[-1] == (target, "commit")

    # Only the files the commit names remain of the compaction instant.
    meta = ws.commit_metadata(path, target, "commit")
    committed_files = {
        (path / stat["path"]).resolve() for stats in meta["partitionToWriteStats"].values() for stat in stats
    }
    on_disk = {p.resolve() for p in _instant_base_files(path, target)}
    assert on_disk == committed_files, (
        f"base files of {target} on disk vs in its commit: extra {sorted(map(str, on_disk - committed_files))[:5]}, "
        f"missing {sorted(map(str, committed_files - on_disk))[:5]}"
    )
    assert not (path / ".hoodie" / ".temp" / target).exists(), f"markers of {target} left behind"

    assert_both_readers(spark, path, snapshot, "after the re-executed compaction")
    assert_both_readers(spark, path, snapshot, "after the re-executed compaction", read_optimized=True)

    # Last, so that a leftover side file does not hide the checks above.
    leftovers = [
        p
        for p in _files(path)
        if target in p.name
        and p.resolve() not in committed_files
        and not (
            p.name.startswith(".")
            and p.name.endswith(".crc")
            and (p.parent / p.name[1:-4]).resolve() in committed_files
        )
    ]
    assert not leftovers, f"files of the killed compaction attempt were not deleted: {sorted(map(str, leftovers))[:5]}"


# ------------------------------------------------------------------------------------------
# c) compaction scheduled inline, executed later


def test_scheduled_compaction_runs_on_compact_and_before_the_next_write(spark, tmp_path):
    path = tmp_path / "table"
    schedule_only = {
        "hoodie.compact.inline": "true",
        "hoodie.compact.schedule.inline": "true",
        "hoodie.compact.inline.max.delta.commits": "2",
    }
    _write_range(spark, path, "bulk_insert", 0, 300, 0, schedule_only)
    _write_range(spark, path, "upsert", 0, 100, 1_000, schedule_only)  # 2nd deltacommit: schedules
    (first, _), (second, _) = harness.completed_instants(path)
    pending = _pending_compactions(path)
    assert len(pending) == 1 and list(pending.values()) == ["requested"], (
        f"expected one compaction.requested after the 2nd deltacommit with schedule.inline, got {pending}; "
        f"timeline {harness.timeline_files(path)}"
    )
    [planned] = pending
    assert planned > second
    assert f"{planned}.commit" not in harness.timeline_files(path)
    assert not _instant_base_files(path, planned), "a scheduled (not executed) compaction wrote base files"

    snapshot = sorted(_expected(range(100), 1_000, second) + _expected(range(100, 300), 0, first))
    assert_both_readers(spark, path, snapshot, f"with compaction {planned} requested")
    assert_both_readers(
        spark, path, _expected(range(300), 0, first), f"with compaction {planned} requested", read_optimized=True
    )

    executed = pyhudi.compact(spark, str(path))
    ws.assert_compaction_instant(path, planned, "scheduled compaction executed by compact()")
    assert _pending_compactions(path) == {}
    assert_both_readers(spark, path, snapshot, "after compact()")
    assert_both_readers(spark, path, snapshot, "after compact()", read_optimized=True)

    # Schedule another one explicitly; the next write executes it before its deltacommit.
    _write_range(spark, path, "upsert", 100, 150, 2_000)
    third = harness.completed_instants(path)[-1][0]
    planned2 = pyhudi.schedule_compaction(spark, str(path))
    assert planned2 is not None and _pending_compactions(path) == {planned2: "requested"}
    snapshot = sorted(
        _expected(range(100), 1_000, second)
        + _expected(range(100, 150), 2_000, third)
        + _expected(range(150, 300), 0, first)
    )
    assert_both_readers(spark, path, snapshot, f"with compaction {planned2} requested")
    _write_range(spark, path, "upsert", 150, 160, 3_000)
    fourth = harness.completed_instants(path)[-1]
    assert fourth[1] == "deltacommit" and fourth[0] > planned2
    ws.assert_compaction_instant(path, planned2, "scheduled compaction executed by the next write")
    assert _pending_compactions(path) == {}
    snapshot = sorted(
        _expected(range(100), 1_000, second)
        + _expected(range(100, 150), 2_000, third)
        + _expected(range(150, 160), 3_000, fourth[0])
        + _expected(range(160, 300), 0, first)
    )
    assert_both_readers(spark, path, snapshot, "after the write that ran the scheduled compaction")
    # The last write's updates are in log files again: read_optimized = state of planned2.
    ro = sorted(
        _expected(range(100), 1_000, second)
        + _expected(range(100, 150), 2_000, third)
        + _expected(range(150, 300), 0, first)
    )
    assert_both_readers(spark, path, ro, "after the write that ran the scheduled compaction", read_optimized=True)

    # Checked last: compact() that executed a scheduled plan (and found nothing else to
    # compact) reports that plan's instant rather than None.
    assert executed == planned, f"compact() executed the scheduled {planned} but returned {executed!r}"
