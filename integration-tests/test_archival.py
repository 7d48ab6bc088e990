# SPDX-License-Identifier: Apache-2.0
"""Archival through ``format("pyhudi")`` and ``pyhudi.archive`` (docs/archival.md).

a) Copy-on-write and merge-on-read tables take 12 upserts with automatic clean (2 commits
   retained) and automatic archival (``hoodie.keep.min.commits`` 3, ``hoodie.keep.max.commits``
   5; merge-on-read also compacts inline every 2 delta commits). After each write: every write
   ever completed is either active or archived (as a COMPLETED entry), never both; at most 5 are
   active, at least 3 once anything is archived; everything archived sorts before the active
   timeline; the clean's retained window is active, and pyhudi and hudi-rs read the model for the
   snapshot, time travel to every instant of it and incremental reads from each of them.
   ``pyhudi validate`` passes and ``pyhudi timeline --archived`` lists every write.
b) A savepoint holds archival back until it is deleted.
c) An archival killed after its archive file, or after deleting its first completed instant
   file, leaves a readable table, and the next one finishes without writing an entry twice.
d) Bad ``hoodie.keep.*`` values fail the write before it starts, and ``pyhudi.archive``.
"""

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import harness
import pytest
import write_support as ws

import pyhudi
from pyhudi.cli.archived import archive_files, archived_entries
from pyhudi.cli.table import open_table
from pyhudi.options import (
    ARCHIVE_AUTOMATIC,
    CLEAN_COMMITS_RETAINED,
    KEEP_MAX_COMMITS,
    KEEP_MIN_COMMITS,
)

RETAINED = 2
MIN_COMMITS = 3
MAX_COMMITS = 5
KEYS = 30
COLUMNS = ("key", "part", "ts", "v")
WRITE_ACTIONS = ("commit", "deltacommit", "replacecommit")
Row = Tuple[str, str, int, str]


def _options(table_type: str, name: str) -> Dict[str, str]:
    options = {
        "hoodie.table.name": name,
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.recordkey.field": "key",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        CLEAN_COMMITS_RETAINED: str(RETAINED),
        KEEP_MIN_COMMITS: str(MIN_COMMITS),
        KEEP_MAX_COMMITS: str(MAX_COMMITS),
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


def _read(spark: Any, path: Path, as_of: Optional[str] = None, begin: Optional[str] = None) -> List[Row]:
    if begin is not None:
        df = pyhudi.read(spark, str(path), query_type="incremental", begin=begin)
    else:
        df = pyhudi.read(spark, str(path), as_of=as_of)
    return sorted(tuple(r) for r in df.select(*COLUMNS).collect())


def _read_rs(path: Path, as_of: Optional[str] = None, begin: Optional[str] = None) -> List[Row]:
    return sorted(tuple(r[c] for c in COLUMNS) for r in harness.hudi_rs_read(path, as_of=as_of, begin=begin))


def _archived(path: Path) -> List[Tuple[str, str, str]]:
    return [(e.time, e.action, e.state) for e in archived_entries(open_table(str(path)))]


def _archived_writes(path: Path) -> List[str]:
    return sorted(t for t, a, s in _archived(path) if a in WRITE_ACTIONS and s == "COMPLETED")


def _active_times(path: Path) -> List[str]:
    """Instant times of every state file in .hoodie/, savepoints included."""
    return sorted({n.split(".")[0] for n in harness.timeline_files(path) if n.split(".")[0].isdigit()})


def _cli(*args: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    cli = Path(sys.executable).parent / "pyhudi"
    return subprocess.run([str(cli), *args], capture_output=True, text=True, timeout=300)


def _validate(path: Path, context: str) -> None:
    result = _cli("validate", str(path))
    assert result.returncode == 0, (
        f"{context}: pyhudi validate failed:\n{result.stdout[-3000:]}\n{result.stderr[-2000:]}"
    )


class Model:
    """The rows after every write, and the instant that last changed each key."""

    def __init__(self) -> None:
        self.state: Dict[str, Row] = {}
        self.changed: Dict[str, str] = {}
        self.history: Dict[str, List[Row]] = {}

    def apply(self, rows: List[Row], instants: List[str]) -> None:
        """``instants``: the new completed writes, the write's own first (then an inline compaction)."""
        for r in rows:
            self.state[r[0]] = r
            self.changed[r[0]] = instants[0]
        for i in instants:
            self.history[i] = sorted(self.state.values())

    def since(self, begin: str) -> List[Row]:
        return sorted(r for k, r in self.state.items() if self.changed[k] > begin)


def _rows(step: int, rng: random.Random) -> List[Row]:
    if step == 0:
        return [(f"k{i:02d}", f"p{i % 3}", 0, "v0") for i in range(KEYS)]
    return [(f"k{i:02d}", f"p{i % 3}", step, f"v{step}") for i in rng.sample(range(KEYS), 8)]


def _check_reads(spark: Any, path: Path, model: Model, window: List[str], context: str) -> None:
    latest = sorted(model.state.values())
    assert _read(spark, path) == latest, f"{context}: pyhudi snapshot"
    assert _read_rs(path) == latest, f"{context}: hudi-rs snapshot"
    for instant in window:
        assert _read(spark, path, as_of=instant) == model.history[instant], f"{context}: pyhudi as of {instant}"
        assert _read_rs(path, as_of=instant) == model.history[instant], f"{context}: hudi-rs as of {instant}"
        since = model.since(instant)
        assert _read(spark, path, begin=instant) == since, f"{context}: pyhudi incremental from {instant}"
        assert _read_rs(path, begin=instant) == since, f"{context}: hudi-rs incremental from {instant}"


# --------------------------------------------------------------------------------------------
# a) automatic archival over 12 writes


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_automatic_archival_keeps_the_retained_instants_exact(spark, tmp_path, table_type):
    path = tmp_path / "table"
    options = _options(table_type, f"archive_{table_type.lower()}")
    rng = random.Random(11)
    model = Model()
    seen: List[str] = []
    archivals = 0
    for step in range(12):
        rows = _rows(step, rng)
        before_archived = _archived_writes(path) if path.exists() else []
        _write(spark, path, rows, options, "bulk_insert" if step == 0 else "upsert")
        active = [i for i, _ in harness.completed_instants(path)]
        new = [i for i in active if i not in seen]
        seen += new
        model.apply(rows, new)
        context = f"{table_type} write#{step}"

        archived = _archived_writes(path)
        assert not set(active) & set(archived), f"{context}: active and archived {set(active) & set(archived)}"
        assert sorted(active + archived) == seen, f"{context}: writes lost or duplicated"
        assert len(active) <= MAX_COMMITS, context
        if archived:
            assert len(active) >= MIN_COMMITS, context
            assert max(t for t, _, _ in _archived(path)) < min(_active_times(path)), f"{context}: not a suffix"
        if archived != before_archived:
            archivals += 1
        assert not harness.pending_instants(path), context
        # The clean's retained window (and the instant clean keeps from) stays active and exact.
        window = seen[-RETAINED:]
        assert set(window) <= set(active), context
        _check_reads(spark, path, model, window, context)
        if step % 4 == 3 or step == 11:
            _validate(path, context)
    assert archivals >= 2, f"{table_type}: archived only {archivals} times"
    # The archive is one HoodieArchivedMetaEntry per state file of each archived instant.
    entries = _archived(path)
    assert len(entries) == len(set(entries)), "an entry archived twice"
    completed = [t for t, _, s in entries if s == "COMPLETED"]
    assert all((t, a, "REQUESTED") in entries for t, a, s in entries if s == "COMPLETED" and a == "deltacommit")
    assert len(archive_files(open_table(str(path)))) == archivals
    assert set(_archived_writes(path)) <= set(completed)
    if table_type == "MERGE_ON_READ":
        # A compaction archives its plan with its requested and its (empty) inflight file, as Hudi does.
        plans = [e for e in archived_entries(open_table(str(path))) if e.action == "compaction"]
        assert {e.state for e in plans} == {"REQUESTED", "INFLIGHT"}
        assert all(e.content and e.content["operations"] for e in plans)
    # The CLI lists archived instants with --archived, and only the active ones without.
    result = _cli("timeline", str(path), "--archived", "--json")
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)["instants"]
    assert sorted(r["instant"] for r in listed if r["action"] in WRITE_ACTIONS) == seen
    assert {r["instant"] for r in listed if r["archived"]} == {t for t, _, _ in entries}
    plain = json.loads(_cli("timeline", str(path), "--json").stdout)["instants"]
    assert not any(r["archived"] for r in plain) and len(plain) < len(listed)
    # Nothing more is due.
    assert pyhudi.archive(spark, str(path), options) == []


# --------------------------------------------------------------------------------------------
# b) savepoints


def test_savepoint_holds_archival_back_until_deleted(spark, tmp_path):
    path = tmp_path / "table"
    options = _options("COPY_ON_WRITE", "archive_savepoint")
    rng = random.Random(5)
    model = Model()
    seen: List[str] = []
    savepointed = None
    for step in range(10):
        rows = _rows(step, rng)
        _write(spark, path, rows, options, "bulk_insert" if step == 0 else "upsert")
        new = [i for i, _ in harness.completed_instants(path) if i not in seen]
        seen += new
        model.apply(rows, new)
        if step == 2:
            savepointed = pyhudi.savepoint(spark, str(path), name="keep-me")
    assert savepointed == seen[2]
    # Only the two writes before the savepoint could go; the savepointed commit starts the timeline.
    assert _archived_writes(path) == seen[:2]
    assert harness.completed_instants(path)[0][0] == savepointed
    for read in (_read(spark, path, as_of=savepointed), _read_rs(path, as_of=savepointed)):
        assert read == model.history[savepointed]
    pyhudi.delete_savepoint(spark, str(path), "keep-me")
    done = pyhudi.archive(spark, str(path), options)
    assert [d.split(".")[0] for d in done if d.endswith(".commit")] == seen[2 : len(seen) - MIN_COMMITS]
    assert [i for i, _ in harness.completed_instants(path)] == seen[-MIN_COMMITS:]
    _check_reads(spark, path, model, seen[-RETAINED:], "after the savepoint was deleted")
    _validate(path, "after archiving past the deleted savepoint")


# --------------------------------------------------------------------------------------------
# c) killed archivals

WORKER = textwrap.dedent(
    """
    import sys
    from pyspark.sql import SparkSession
    import pyhudi

    path, options = sys.argv[1], dict(kv.split("=", 1) for kv in sys.argv[2:])
    builder = (
        SparkSession.builder.master("local[1]").appName("pyhudi-killed-archival")
        .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    print(pyhudi.archive(spark, path, options), flush=True)
    """
)


@pytest.mark.parametrize("crash_at", ["archive-file-written", "archive-first-completed-deleted"])
def test_killed_archival_is_finished_by_the_next_one(spark, tmp_path, crash_at):
    path = tmp_path / "table"
    options = {**_options("MERGE_ON_READ", "archive_killed"), ARCHIVE_AUTOMATIC: "false"}
    rng = random.Random(3)
    model = Model()
    seen: List[str] = []
    for step in range(8):
        rows = _rows(step, rng)
        _write(spark, path, rows, options, "bulk_insert" if step == 0 else "upsert")
        new = [i for i, _ in harness.completed_instants(path) if i not in seen]
        seen += new
        model.apply(rows, new)
    assert not archive_files(open_table(str(path))) and len(seen) > MAX_COMMITS
    before = set(harness.timeline_files(path))

    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYHUDI_CRASH_AT=crash_at)
    args = [f"{k}={v}" for k, v in options.items()]
    proc = subprocess.run([sys.executable, "-c", WORKER, str(path), *args], capture_output=True, env=env, timeout=600)
    assert proc.returncode != 0, f"the archival was not stopped at {crash_at}: {proc.stdout.decode()[-1000:]}"
    assert len(archive_files(open_table(str(path)))) == 1, proc.stderr.decode()[-2000:]
    left = set(harness.timeline_files(path))
    gone = before - left
    if crash_at == "archive-file-written":
        assert not gone
    else:
        # Every requested and inflight file of the archived instants, and the oldest completed one.
        assert sum(1 for n in gone if n.split(".", 1)[1] in WRITE_ACTIONS) == 1
        assert min(n for n in gone if n.split(".", 1)[1] in WRITE_ACTIONS).split(".")[0] == seen[0]
    assert not harness.pending_instants(path), "no instant looks pending"
    _check_reads(spark, path, model, seen[-RETAINED:], f"killed at {crash_at}")
    _validate(path, f"killed at {crash_at}")

    done = pyhudi.archive(spark, str(path), options)
    assert done, "the next archival finished the interrupted one"
    entries = _archived(path)
    assert len(entries) == len(set(entries)), "an entry archived twice"
    assert len(archive_files(open_table(str(path)))) == 1
    active = [i for i, _ in harness.completed_instants(path)]
    assert sorted(active + _archived_writes(path)) == seen
    assert len(active) == MIN_COMMITS or min(active) >= seen[-RETAINED - 1]
    _check_reads(spark, path, model, seen[-RETAINED:], f"finished after {crash_at}")
    _validate(path, f"finished after {crash_at}")


# --------------------------------------------------------------------------------------------
# d) option checks


def test_bad_keep_options_fail_before_the_write(spark, tmp_path):
    path = tmp_path / "table"
    options = _options("COPY_ON_WRITE", "archive_options")
    _write(spark, path, _rows(0, random.Random(1)), options, "bulk_insert")
    before = harness.timeline_files(path)
    # format("pyhudi") raises the JVM error (pyhudi.write would translate it), with its id.
    with pytest.raises(Exception, match=r"INVALID_OPTION_VALUE.*hoodie\.keep\.min\.commits.*hoodie\.clean\.commits"):
        _write(spark, path, _rows(1, random.Random(1)), {**options, KEEP_MIN_COMMITS: str(RETAINED)})
    with pytest.raises(Exception, match=r"INVALID_OPTION_VALUE.*hoodie\.keep\.max\.commits.*\(3\)"):
        _write(spark, path, _rows(1, random.Random(1)), {**options, KEEP_MAX_COMMITS: "3"})
    assert harness.timeline_files(path) == before, "nothing was written"
    # With automatic archival off, a write does not check them; an explicit archival does.
    _write(spark, path, _rows(1, random.Random(1)), {**options, KEEP_MAX_COMMITS: "3", ARCHIVE_AUTOMATIC: "false"})
    with pytest.raises(pyhudi.errors.InvalidOptionError, match=r"hoodie\.keep\.max\.commits.*\(4\)"):
        pyhudi.archive(spark, str(path), {CLEAN_COMMITS_RETAINED: "2"}, min_commits=4, max_commits=4)
    with pytest.raises(pyhudi.errors.InvalidOptionError):
        pyhudi.HudiTable.for_path(spark, str(path)).archive(min_commits=1)
