# SPDX-License-Identifier: Apache-2.0
"""Several writer processes under optimistic concurrency control, at random, in the spirit of
Jepsen (issue #11).

Four writers, each a Python process with a local Spark of its own, make ``K`` commits each
(``PYHUDI_RANDOM_WRITERS_COMMITS``, default 3; the issue's benchmark size is 50) of random
upserts and deletes over one small shared key space, on a copy-on-write and a merge-on-read
table, with ``hoodie.write.concurrency.mode=OPTIMISTIC_CONCURRENCY_CONTROL`` and the
file-system lock provider. Now and then the test kills a writer's process group (``SIGKILL``,
JVM included) at a random moment and starts a fresh process that goes on with that writer's
remaining commits. The randomness comes from a printed seed (``PYHUDI_RANDOM_WRITERS_SEED``
replays the choices; the interleaving is up to the scheduler).

The test session creates the table first with every key (value ``seed``, an acknowledged
write before all others). Every attempt has a unique value tag ``w<writer>-<seq>`` and an ordering value ``ts`` taken
from ``time.time_ns()`` when it starts, so ``ts`` grows with real time across processes. Each
writer logs, in a JSON-lines file of its own, the attempt (operation, keys, ``ts``, wall-clock
start) before it runs and its outcome after: acknowledged (the write returned, with the
wall-clock acknowledgement time) or an error; an attempt whose process was killed is
*unknown*, and the kill time stands for its end. Failed attempts are errors, the others
(acknowledged or unknown) are *live*.

After a final writer (this session's Spark) has rolled back the killed writers' instants, the
table is read with pyhudi and with hudi-rs, which must agree, and:

1. no key appears twice;
2. every visible value comes from a live upsert (nothing of a failed attempt is visible) with
   that attempt's ``ts``;
3. no acknowledged write is lost: if the value of attempt ``V`` is visible for a key, no
   acknowledged write (upsert or delete) of that key started after ``V`` ended. Such a write
   ``W`` read a timeline holding ``V`` and carries a larger ``ts``; the table orders versions
   of a key by ``ts`` (``DefaultHoodieRecordPayload``, the default of new tables), so ``W``'s
   upsert or delete replaced ``V``'s version, and only a live write of the key can have
   replaced ``W``'s since;
4. deletes: a key absent from the table has no acknowledged upsert ``U`` that started after
   every live delete of the key had ended (nothing else removes records here).

Rules 3 and 4 make the real-time-last acknowledged write of a key (one that started after
every other live write of the key ended) decide its state: its value if an upsert, absent if
a delete. Concurrent writes are not ordered by the rules; optimistic concurrency control lets
at most one of two writers of a file group commit. At the end no instant is pending.
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import harness
import pytest
import write_support as ws

WRITERS = 4
KEY_SPACE = 30
PARTITIONS = 5
KILLS = 2
HEARTBEAT_MS = 1000
HEARTBEAT_MISSES = 3  # dead after 3 s of silence: a live writer on two busy cores may beat late
DEFAULT_COMMITS = 3
SCHEMA = "key string, part string, ts long, value string"
WRITER_TIMEOUT_S = 1800


def options(table_type: str) -> Dict[str, str]:
    return {
        "hoodie.table.name": "random_writers",
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.recordkey.field": "key",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        "hoodie.write.concurrency.mode": "OPTIMISTIC_CONCURRENCY_CONTROL",
        "hoodie.write.lock.provider": "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider",
        # A killed holder's lock file is broken after at most 10 s: wait longer than that.
        "hoodie.write.lock.wait_time_ms": "5000",
        "hoodie.write.lock.num_retries": "10",
        "hoodie.client.heartbeat.interval_in_ms": str(HEARTBEAT_MS),
        "hoodie.client.heartbeat.tolerable.misses": str(HEARTBEAT_MISSES),
        "hoodie.clean.automatic": "false",
    }


def part_of(key: str) -> str:
    return f"p{int(key[1:]) % PARTITIONS}"


def attempt_plan(seed: str, writer: int, seq: int) -> Tuple[str, List[str]]:
    """The operation and keys of one attempt, from the seed alone (a resumed writer makes the
    same choices): mostly upserts, some deletes, 1-4 keys, half the time from a hot third of
    the key space so that writers overlap often."""
    rng = random.Random(f"{seed}/{writer}/{seq}")
    op = "delete" if rng.random() < 0.3 else "upsert"
    space = KEY_SPACE // 3 if rng.random() < 0.5 else KEY_SPACE
    keys = sorted(rng.sample([f"k{i}" for i in range(space)], rng.randint(1, 4)))
    return op, keys


# --------------------------------------------------------------------------------------------
# The writer process: python <this file> <config json>


def _log(out: Any, entry: Dict[str, Any]) -> None:
    out.write(json.dumps(entry) + "\n")
    out.flush()
    os.fsync(out.fileno())


def _die_with_parent() -> None:
    """Kills this writer's process group (its JVM too) once the test process is gone, so that a
    test killed from outside leaves no writer behind."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os.killpg(0, signal.SIGKILL)

    threading.Thread(target=watch, daemon=True).start()


def writer_main(config: Dict[str, Any]) -> None:
    _die_with_parent()
    from pyspark.sql import SparkSession

    import pyhudi
    from pyhudi import errors

    builder = (
        SparkSession.builder.master("local[1]")
        .appName(f"pyhudi-random-writer-{config['writer']}")
        .config("spark.driver.memory", "512m")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    w, path, opts = config["writer"], config["path"], config["options"]
    with open(config["log"], "a") as out:
        for seq in range(config["first"], config["commits"]):
            op, keys = attempt_plan(config["seed"], w, seq)
            # start before ts: a write that starts after another ended has the larger ts.
            tag, start = f"w{w}-{seq}", time.time()
            ts = time.time_ns()
            _log(
                out,
                {
                    "event": "start",
                    "writer": w,
                    "seq": seq,
                    "tag": tag,
                    "op": op,
                    "keys": keys,
                    "ts": ts,
                    "start": start,
                },
            )
            rows = [(k, part_of(k), ts, tag) for k in keys]
            try:
                with errors.translated():
                    spark.createDataFrame(rows, SCHEMA).write.format("pyhudi").options(**opts).option(
                        "hoodie.datasource.write.operation", op
                    ).mode("append").save(path)
                _log(out, {"event": "ack", "tag": tag, "end": time.time()})
            except Exception as e:  # the outcome is the record; the test judges it
                _log(
                    out,
                    {
                        "event": "error",
                        "tag": tag,
                        "end": time.time(),
                        "class": type(e).__name__,
                        "id": getattr(e, "error_id", None),
                        "message": str(e)[:2000],
                    },
                )
    spark.stop()


# --------------------------------------------------------------------------------------------
# The test


def _commits() -> int:
    return int(os.environ.get("PYHUDI_RANDOM_WRITERS_COMMITS", DEFAULT_COMMITS))


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A folder for the table and the writers' logs, deleted even when the test fails."""
    folder = Path(tempfile.mkdtemp(prefix="pyhudi-random-writers-"))
    try:
        yield folder
    finally:
        if os.environ.get("PYHUDI_RANDOM_WRITERS_KEEP"):  # to look at a failed run's table and logs
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


class Writers:
    """The writer processes of one run; :meth:`stop` kills whatever still runs."""

    def __init__(self, folder: Path, path: Path, seed: str, commits: int, opts: Dict[str, str]) -> None:
        self.folder, self.path, self.seed, self.commits, self.opts = folder, path, seed, commits, opts
        self.procs: Dict[int, subprocess.Popen] = {}
        self.incarnations: Dict[int, int] = {}

    def log(self, w: int) -> Path:
        return self.folder / f"writer-{w}.jsonl"

    def entries(self, w: int) -> List[Dict[str, Any]]:
        log = self.log(w)
        if not log.exists():
            return []
        # A killed writer may have left half a line.
        return [json.loads(line) for line in log.read_text().splitlines() if line.endswith("}")]

    def start(self, w: int, first: int) -> None:
        n = self.incarnations.get(w, 0)
        self.incarnations[w] = n + 1
        config = {
            "writer": w,
            "path": str(self.path),
            "log": str(self.log(w)),
            "seed": self.seed,
            "first": first,
            "commits": self.commits,
            "options": self.opts,
        }
        env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
        with open(self.folder / f"writer-{w}.{n}.out", "wb") as out:
            self.procs[w] = subprocess.Popen(
                [sys.executable, __file__, json.dumps(config)],
                cwd=str(Path(__file__).parent),
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,  # its own process group: a kill takes its JVM too
            )

    def output(self, w: int) -> str:
        n = self.incarnations[w] - 1
        return (self.folder / f"writer-{w}.{n}.out").read_text(errors="replace")[-4000:]

    def kill(self, w: int) -> None:
        proc = self.procs.pop(w)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        with open(self.log(w), "a") as out:
            out.write("\n")  # ends a half-written line, which entries() skips
            _log(out, {"event": "killed", "writer": w, "time": time.time()})

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()


def _run_writers(writers: Writers, rng: random.Random) -> int:
    """Runs every writer to its last commit, killing ``KILLS`` of them once each when they have
    started a randomly chosen attempt, a random fraction of a second to a few seconds later.
    Returns the number of kills made."""
    for w in range(WRITERS):
        writers.start(w, 0)
    plan = {w: (rng.randrange(writers.commits), rng.uniform(0.0, 4.0)) for w in rng.sample(range(WRITERS), KILLS)}
    armed: Dict[int, float] = {}
    kills = 0
    deadline = time.monotonic() + WRITER_TIMEOUT_S
    while any(p.poll() is None for p in writers.procs.values()):
        assert time.monotonic() < deadline, "the writers did not finish"
        for w, proc in list(writers.procs.items()):
            if proc.poll() is not None:
                assert proc.returncode == 0, f"writer {w} failed:\n{writers.output(w)}"
                continue
            if w in plan and w not in armed:
                at_seq, delay = plan[w]
                if any(e["event"] == "start" and e["seq"] >= at_seq for e in writers.entries(w)):
                    armed[w] = time.monotonic() + delay
            if w in armed and time.monotonic() >= armed[w]:
                del plan[w], armed[w]
                writers.kill(w)
                kills += 1
                started = [e["seq"] for e in writers.entries(w) if e["event"] == "start"]
                if max(started) + 1 < writers.commits:
                    writers.start(w, max(started) + 1)
        time.sleep(0.05)
    for w, proc in writers.procs.items():
        assert proc.returncode == 0, f"writer {w} failed:\n{writers.output(w)}"
    return kills


def _attempts(writers: Writers) -> Dict[str, Dict[str, Any]]:
    """Every attempt by tag: op, keys, ts, start, end and outcome (ack, error or unknown)."""
    attempts: Dict[str, Dict[str, Any]] = {}
    for w in range(WRITERS):
        current: Optional[Dict[str, Any]] = None
        for e in writers.entries(w):
            if e["event"] == "start":
                current = dict(e, outcome="unknown", end=None)
                attempts[e["tag"]] = current
            elif e["event"] in ("ack", "error"):
                assert current is not None and current["tag"] == e["tag"], e
                current.update(outcome=e["event"], end=e["end"], error=e if e["event"] == "error" else None)
                current = None
            elif e["event"] == "killed":
                if current is not None:
                    current["end"] = e["time"]  # it may have committed at any moment until the kill
                current = None
        assert current is None, f"writer {w} left attempt {current} without an outcome"
        seqs = sorted(a["seq"] for a in attempts.values() if a["writer"] == w)
        assert seqs == list(range(writers.commits)), f"writer {w} attempted {seqs}"
    return attempts


def _pending(path: Path) -> List[str]:
    """Instants of the active timeline with a requested or inflight file and no completed one."""
    names = [f.name for f in (path / ".hoodie").iterdir() if f.is_file() and f.name[:1].isdigit()]
    completed = {n.split(".")[0] for n in names if not n.endswith((".requested", ".inflight"))}
    return sorted(n for n in names if n.split(".")[0] not in completed)


def _final_write(spark: Any, path: Path, opts: Dict[str, str]) -> None:
    """Waits until every heartbeat has expired, then writes once more: this writer rolls back
    the killed writers' instants (lazy cleaning of failed writes)."""
    beats = path / ".hoodie" / ".heartbeat"
    expiry = HEARTBEAT_MS * HEARTBEAT_MISSES / 1000.0
    deadline = time.monotonic() + 60
    while beats.exists() and any(time.time() - b.stat().st_mtime <= expiry + 0.5 for b in beats.iterdir()):
        assert time.monotonic() < deadline, f"heartbeats still beating: {sorted(os.listdir(beats))}"
        time.sleep(0.2)
    _upsert(spark, path, opts, [("final", "p0", time.time_ns(), "final")])


def _upsert(spark: Any, path: Path, opts: Dict[str, str], rows: List[Tuple[str, str, int, str]]) -> None:
    df = spark.createDataFrame(rows, SCHEMA)
    writer = df.write.format("pyhudi").options(**opts).option("hoodie.datasource.write.operation", "upsert")
    writer.mode("append").save(str(path))


def _seed(spark: Any, path: Path, opts: Dict[str, str]) -> Dict[str, Any]:
    """Creates the table with every key (value ``seed``) before the writers start, so that they
    do not race to create it; returns the seed write as an acknowledged attempt."""
    keys = [f"k{i}" for i in range(KEY_SPACE)]
    start = time.time()
    ts = time.time_ns()
    _upsert(spark, path, opts, [(k, part_of(k), ts, "seed") for k in keys])
    return {
        "writer": -1,
        "seq": 0,
        "tag": "seed",
        "op": "upsert",
        "keys": keys,
        "ts": ts,
        "start": start,
        "end": time.time(),
        "outcome": "ack",
        "error": None,
    }


def _check(visible: Dict[str, Tuple[int, str]], attempts: Dict[str, Dict[str, Any]]) -> None:
    by_key: Dict[str, List[Dict[str, Any]]] = {}
    for a in attempts.values():
        for k in a["keys"]:
            by_key.setdefault(k, []).append(a)
    for key, (ts, tag) in sorted(visible.items()):
        assert tag in attempts, f"{key}: value {tag} of no attempt"
        v = attempts[tag]
        assert v["op"] == "upsert" and key in v["keys"], f"{key}: value {tag} of {v}"
        assert v["outcome"] != "error", f"{key}: value {tag} of a failed attempt is visible: {v['error']}"
        assert ts == v["ts"], f"{key}: ts {ts} is not {tag}'s {v['ts']}"
        lost = [w for w in by_key[key] if w["outcome"] == "ack" and w["start"] > v["end"]]
        assert not lost, f"{key}: {tag} (ended {v['end']}) is visible, but acknowledged later writes are lost: {lost}"
    for key, writes in sorted(by_key.items()):
        if key in visible:
            continue
        live_deletes = [d for d in writes if d["op"] == "delete" and d["outcome"] != "error"]
        lost = [
            u
            for u in writes
            if u["op"] == "upsert" and u["outcome"] == "ack" and all(d["end"] < u["start"] for d in live_deletes)
        ]
        assert not lost, f"{key} is absent, but no live delete could remove acknowledged upsert(s) {lost}"


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_random_writers_with_kills(spark, workdir, table_type):
    seed = os.environ.get("PYHUDI_RANDOM_WRITERS_SEED") or str(random.randrange(10**9))
    commits = _commits()
    print(f"\nPYHUDI_RANDOM_WRITERS_SEED={seed} PYHUDI_RANDOM_WRITERS_COMMITS={commits} ({table_type})")
    rng = random.Random(f"{seed}/{table_type}")
    path = workdir / "table"
    opts = options(table_type)
    seeded = _seed(spark, path, opts)
    writers = Writers(workdir, path, seed, commits, opts)
    try:
        kills = _run_writers(writers, rng)
    finally:
        writers.stop()
    attempts = _attempts(writers)
    outcomes = {o: sum(a["outcome"] == o for a in attempts.values()) for o in ("ack", "error", "unknown")}
    attempts["seed"] = seeded
    print(f"attempts: {outcomes}, kills: {kills}")
    for a in attempts.values():
        if a["outcome"] == "error":
            e = a["error"]
            assert e["class"] == "WriteConflictError" and e["id"] == "CONCURRENT_WRITE_CONFLICT", e
    assert outcomes["ack"] > 0, "no write was acknowledged"

    _final_write(spark, path, opts)
    assert _pending(path) == [], "pending instants after the final write"

    columns = ("key", "part", "ts", "value")
    ours = sorted(tuple(r) for r in harness.read_table(spark, path).select(*columns).collect())
    theirs = sorted(tuple(r[c] for c in columns) for r in harness.hudi_rs_read(path))
    assert ours == theirs, "pyhudi and hudi-rs disagree"
    keys = [r[0] for r in ours]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        meta = ("key", "value", "_hoodie_commit_time", "_hoodie_file_name")
        rows = harness.read_table(spark, path).select(*meta).where(f"key in ({','.join(repr(k) for k in twice)})")
        tried = [a for a in attempts.values() if set(a["keys"]) & set(twice)]
        pytest.fail(f"keys appear twice: {sorted(map(tuple, rows.collect()))}; their attempts: {tried}")
    assert ("final", "p0") in [r[:2] for r in ours]
    visible = {k: (ts, value) for k, part, ts, value in ours if k != "final"}
    assert all(part == part_of(k) for k, part, _, _ in ours if k != "final")
    _check(visible, attempts)
    ws.assert_readers_agree(spark, path, f"{table_type} seed {seed}")


if __name__ == "__main__":
    writer_main(json.loads(sys.argv[1]))
