# SPDX-License-Identifier: Apache-2.0
"""Two writers under ``hoodie.write.concurrency.mode=OPTIMISTIC_CONCURRENCY_CONTROL``, in the
scripted interleaving "A starts, B starts, A commits, B commits": each writer is held just
before its commit (``io.pyhudi.table.PausePoint``, a gate file named by the writing thread's
Spark local property), so that B plans and writes from the timeline A has not committed to yet.

Writers are threads of the session's Spark and, in one test, a second Python process with its
own Spark. Each interleaving runs with the in-process, the file-system and the ZooKeeper lock
provider (a real ZooKeeper server, a process of its own started by the ``zookeeper`` fixture of
``conftest.py``). Expected outcomes:

* different file groups (different partitions): both commit;
* the same file group (B updates keys A updates): B fails with ``WriteConflictError``, error id
  ``CONCURRENT_WRITE_CONFLICT``, naming A's instant; nothing of B is visible;
* the same new key inserted by both into a new partition (different new file groups, the
  duplicate-key hole of Apache Hudi issue 9831): B fails the same way, naming the key.
"""

import json
import os
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any, Dict, List

import harness
import pytest
import write_support as ws

import pyhudi
from pyhudi import errors

FS = "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider"
IN_PROCESS = "org.apache.hudi.client.transaction.lock.InProcessLockProvider"
ZK = "org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider"
SCHEMA = "key string, part string, ts long, value string"


def _options(table_type: str, provider: str, request: Any = None) -> Dict[str, str]:
    """Writer options; under ZooKeeper the lock lives at ``/pyhudi-tests/<test>/occ`` of the
    session's server (the lock key defaults to the table name)."""
    lock: Dict[str, str] = {}
    if provider == ZK:
        host, port = request.getfixturevalue("zookeeper")
        lock = {
            "hoodie.write.lock.zookeeper.url": host,
            "hoodie.write.lock.zookeeper.port": str(port),
            "hoodie.write.lock.zookeeper.base_path": f"/pyhudi-tests/{uuid.uuid4().hex}",
        }
    return {
        **lock,
        "hoodie.table.name": "occ",
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.recordkey.field": "key",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        "hoodie.datasource.write.operation": "upsert",
        "hoodie.write.concurrency.mode": "OPTIMISTIC_CONCURRENCY_CONTROL",
        "hoodie.write.lock.provider": provider,
        "hoodie.write.lock.wait_time_ms": "5000",
        "hoodie.write.lock.num_retries": "2",
        "hoodie.clean.automatic": "false",
    }


_wait_for = ws.wait_for


def Writer(spark: Any, path: Path, gate: Path, options: Dict[str, str], rows: List[Any]) -> ws.PausedWriter:
    """A writer of ``rows`` of :data:`SCHEMA`, held before its commit."""
    return ws.PausedWriter(spark, path, gate, options, rows, SCHEMA)


def _seed(spark: Any, path: Path, options: Dict[str, str]) -> None:
    rows = [(f"k{i}", f"p{i % 2}", 0, "seed") for i in range(20)]
    spark.createDataFrame(rows, SCHEMA).write.format("pyhudi").options(**options).mode("append").save(str(path))


def _values(spark: Any, path: Path) -> Dict[str, str]:
    rows = ws.pyhudi_rows(spark, path)
    values = {r["key"]: r["value"] for r in rows}
    assert len(values) == len(rows), "a key appears twice"
    return values


def _timeline(path: Path) -> List[str]:
    return sorted(f.name for f in (path / ".hoodie").iterdir() if f.is_file() and f.name[:1].isdigit())


def _assert_lost(outcome: Any, winner_files: List[str], what: str) -> None:
    assert isinstance(outcome, errors.WriteConflictError), outcome
    assert outcome.error_id == "CONCURRENT_WRITE_CONFLICT", outcome
    assert what in str(outcome), str(outcome)
    instant = next(n.split(".")[0] for n in winner_files)
    assert instant in str(outcome), "the message names the winning instant"


@pytest.mark.parametrize(
    "table_type,provider",
    [("COPY_ON_WRITE", IN_PROCESS), ("MERGE_ON_READ", FS), ("MERGE_ON_READ", ZK)],
)
def test_different_file_groups_both_commit(spark, tmp_path, request, table_type, provider):
    path = tmp_path / "t"
    options = _options(table_type, provider, request)
    _seed(spark, path, options)
    a = Writer(spark, path, tmp_path / "a", options, [(f"k{i}", "p0", 1, "A") for i in range(0, 20, 2)]).started()
    b = Writer(spark, path, tmp_path / "b", options, [(f"k{i}", "p1", 1, "B") for i in range(1, 20, 2)]).started()
    assert a.commit() == "committed"
    assert b.commit() == "committed", "B touched only p1's file group: no conflict"
    assert _values(spark, path) == {f"k{i}": "A" if i % 2 == 0 else "B" for i in range(20)}


@pytest.mark.parametrize(
    "table_type,provider",
    [("COPY_ON_WRITE", FS), ("MERGE_ON_READ", IN_PROCESS), ("COPY_ON_WRITE", ZK)],
)
def test_same_file_group_second_commit_loses(spark, tmp_path, request, table_type, provider):
    path = tmp_path / "t"
    options = _options(table_type, provider, request)
    _seed(spark, path, options)
    before = set(_timeline(path))
    a = Writer(spark, path, tmp_path / "a", options, [("k0", "p0", 1, "A"), ("k2", "p0", 1, "A")]).started()
    b = Writer(spark, path, tmp_path / "b", options, [("k4", "p0", 1, "B")]).started()
    assert a.commit() == "committed"
    a_files = sorted(set(_timeline(path)) - before)
    outcome = b.commit()
    _assert_lost(outcome, a_files, "file group")
    values = _values(spark, path)
    assert values["k0"] == values["k2"] == "A" and values["k4"] == "seed", "nothing of B is visible"
    # B's instant was rolled back: only A's instant and B's rollback are new on the timeline.
    new = set(_timeline(path)) - before - set(a_files)
    assert new and all(".rollback" in n for n in new), new


@pytest.mark.parametrize("provider", [IN_PROCESS, ZK])
def test_same_new_key_into_new_file_groups_second_commit_loses(spark, tmp_path, request, provider):
    path = tmp_path / "t"
    options = _options("COPY_ON_WRITE", provider, request)
    _seed(spark, path, options)
    before = set(_timeline(path))
    # A new partition: each writer creates a file group of its own for the same new key.
    a = Writer(spark, path, tmp_path / "a", options, [("new1", "p9", 1, "A"), ("a-only", "p9", 1, "A")]).started()
    b = Writer(spark, path, tmp_path / "b", options, [("new1", "p9", 2, "B"), ("b-only", "p9", 1, "B")]).started()
    assert a.commit() == "committed"
    outcome = b.commit()
    _assert_lost(outcome, sorted(set(_timeline(path)) - before), "new1")
    values = _values(spark, path)
    assert values["new1"] == "A" and "b-only" not in values


def _compactions(path: Path) -> List[str]:
    """Instants of completed compactions (``T.compaction.requested`` next to ``T.commit``)."""
    names = set(_timeline(path))
    return sorted(
        n.split(".")[0] for n in names if n.endswith(".compaction.requested") and f"{n.split('.')[0]}.commit" in names
    )


@pytest.mark.parametrize("how", ["inline", "service"])
def test_compaction_while_a_write_is_pending(spark, tmp_path, how):
    """Under OCC a compaction is planned and run while writer A is held before its commit, and A
    then commits. Inline (after writer B's commit on p1) it compacts p1's group, which A (on p0)
    did not touch. Run as a service while A updates p1, whose group has committed log files too:
    the plan leaves out the group A has written to (compacting it would make A lose), so there is
    nothing to compact until A commits; the next compaction takes the group with A's update."""
    path = tmp_path / "t"
    options = _options("MERGE_ON_READ", FS)
    _seed(spark, path, options)
    a_key, a_part = ("k0", "p0") if how == "inline" else ("k3", "p1")
    if how == "service":  # p1's group gets a committed log file
        spark.createDataFrame([("k1", "p1", 1, "L")], SCHEMA).write.format("pyhudi").options(**options).mode(
            "append"
        ).save(str(path))
    a = Writer(spark, path, tmp_path / "a", options, [(a_key, a_part, 2, "A")]).started()
    if how == "inline":
        inline = {**options, "hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "1"}
        spark.createDataFrame([("k1", "p1", 1, "L")], SCHEMA).write.format("pyhudi").options(**inline).mode(
            "append"
        ).save(str(path))
        assert len(_compactions(path)) == 1, "the inline compaction ran although A's write was pending"
    else:
        assert pyhudi.compact(spark, str(path), options) is None and not _compactions(path)
    assert a.commit() == "committed"
    if how == "service":
        compacted = pyhudi.compact(spark, str(path), options)
        assert compacted is not None and _compactions(path) == [compacted]
    values = _values(spark, path)
    assert values["k1"] == "L" and values[a_key] == "A"
    ws.assert_readers_agree(spark, path, f"after the compaction ({how})")


def test_first_writes_racing_to_create_the_table_both_commit(spark, tmp_path):
    """A and B both find no table at the path; A waits just before creating it while B creates it
    and commits. A then writes into the table B created, as a later writer would, instead of
    failing with ``TABLE_ALREADY_EXISTS``."""
    path = tmp_path / "t"
    options = _options("COPY_ON_WRITE", IN_PROCESS, None)
    gate = tmp_path / "a"
    Path(str(gate) + ".before-create").write_text("closed")
    a = Writer(spark, path, gate, options, [("k1", "p0", 1, "A")])
    Path(str(gate) + ".before-commit").unlink()  # A waits only before its create
    a.start()
    _wait_for(Path(str(gate) + ".before-create.reached"), "A reached its create", a)
    assert not (path / ".hoodie" / "hoodie.properties").exists()
    spark.createDataFrame([("k2", "p0", 1, "B")], SCHEMA).write.format("pyhudi").options(**options).mode("append").save(
        str(path)
    )
    Path(str(gate) + ".before-create").unlink()
    a.join(timeout=240)
    assert a.outcome == "committed", a.outcome
    assert _values(spark, path) == {"k1": "A", "k2": "B"}


SECOND_PROCESS = textwrap.dedent(
    """
    import json, sys
    from pyspark.sql import SparkSession
    import pyhudi
    from pyhudi import errors

    path, gate, out = sys.argv[1:4]
    options = json.loads(sys.argv[4])
    builder = (
        SparkSession.builder.master("local[1]").appName("pyhudi-occ-writer")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "1")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    spark.sparkContext.setLocalProperty("pyhudi.test.pause", gate)
    df = spark.createDataFrame([("k0", "p0", 1, "A")], "key string, part string, ts long, value string")
    try:
        with errors.translated():
            df.write.format("pyhudi").options(**options).mode("append").save(path)
        result = {"ok": True}
    except Exception as e:
        result = {"ok": False, "error": type(e).__name__, "id": getattr(e, "error_id", None), "message": str(e)}
    open(out, "w").write(json.dumps(result))
    """
)


@pytest.mark.parametrize("provider", [FS, ZK])
def test_writer_in_another_process(spark, tmp_path, request, provider):
    """A is another process; B a thread here: A commits first on the same file group, B loses."""
    path = tmp_path / "t"
    options = _options("COPY_ON_WRITE", provider, request)
    _seed(spark, path, options)
    gate = tmp_path / "a"
    Path(str(gate) + ".before-commit").write_text("closed")
    out = tmp_path / "a.json"
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    with open(tmp_path / "a.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", SECOND_PROCESS, str(path), str(gate), str(out), json.dumps(options)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 240
            while not Path(str(gate) + ".before-commit.reached").exists():
                assert proc.poll() is None, (tmp_path / "a.log").read_text(errors="replace")[-3000:]
                assert time.monotonic() < deadline, "the other process never reached its commit"
                time.sleep(0.1)
            b = Writer(spark, path, tmp_path / "b", options, [("k2", "p0", 1, "B")]).started()
            Path(str(gate) + ".before-commit").unlink()
            proc.wait(timeout=240)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert json.loads(out.read_text()) == {"ok": True}
    outcome = b.commit()
    assert isinstance(outcome, errors.WriteConflictError) and outcome.error_id == "CONCURRENT_WRITE_CONFLICT", outcome
    values = _values(spark, path)
    assert values["k0"] == "A" and values["k2"] == "seed"


def test_clean_rolls_back_writes_whose_heartbeat_expired_and_leaves_live_ones(spark, tmp_path):
    """Under OCC (LAZY failed writes) ``pyhudi.clean`` rolls back a killed writer's instant once
    its heartbeat expired, as Apache Hudi's clean does, and leaves a live writer's instant alone."""
    path = tmp_path / "t"
    options = {**_options("COPY_ON_WRITE", FS), "hoodie.client.heartbeat.interval_in_ms": "500"}
    _seed(spark, path, options)
    gate = tmp_path / "d"
    Path(str(gate) + ".before-commit").write_text("closed")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    with open(tmp_path / "d.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", SECOND_PROCESS, str(path), str(gate), str(tmp_path / "d.json"), json.dumps(options)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 240
            while not Path(str(gate) + ".before-commit.reached").exists():
                assert proc.poll() is None, (tmp_path / "d.log").read_text(errors="replace")[-3000:]
                assert time.monotonic() < deadline, "the other process never reached its commit"
                time.sleep(0.1)
        finally:
            proc.kill()  # the writer dies holding an inflight instant
            proc.wait(timeout=60)
    (dead,) = harness.pending_instants(path)
    ws.wait_until_dead(path, dead)
    a = Writer(spark, path, tmp_path / "a", options, [("k1", "p1", 1, "A")]).started()
    (live,) = set(harness.pending_instants(path)) - {dead}
    pyhudi.clean(spark, str(path), options)
    assert harness.pending_instants(path) == [live], "the dead write is rolled back, the live one left"
    assert any(n.endswith(".rollback") for n in _timeline(path))
    assert a.commit() == "committed"
    values = _values(spark, path)
    assert values["k0"] == "seed" and values["k1"] == "A"


def _data_files(path: Path) -> List[str]:
    return sorted(str(f.relative_to(path)) for f in path.rglob("*") if f.is_file() and ".hoodie" not in f.parts)


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_early_conflict_detection_fails_before_writing(spark, tmp_path, table_type):
    """A is held before its commit, its files (and markers) written. B, with early conflict
    detection, updates A's file group: it fails before its tasks write anything. C, on another
    file group, commits; so does A."""
    path = tmp_path / "t"
    options = _options(table_type, FS)
    _seed(spark, path, options)
    early = {**options, "hoodie.write.concurrency.early.conflict.detection.enable": "true"}
    a = Writer(spark, path, tmp_path / "a", options, [("k0", "p0", 1, "A")]).started()
    before = _data_files(path)
    with pytest.raises(errors.WriteConflictError) as caught:
        spark.createDataFrame([("k2", "p0", 1, "B")], SCHEMA).write.format("pyhudi").options(**early).mode(
            "append"
        ).save(str(path))
    assert caught.value.error_id == "CONCURRENT_WRITE_CONFLICT" and "detected early" in caught.value.message
    (a_instant,) = harness.pending_instants(path)
    assert a_instant in caught.value.message, "names the pending writer"
    assert _data_files(path) == before, "B wrote no data file"
    spark.createDataFrame([("k1", "p1", 1, "C")], SCHEMA).write.format("pyhudi").options(**early).mode("append").save(
        str(path)
    )
    assert a.commit() == "committed"
    values = _values(spark, path)
    assert (values["k0"], values["k1"], values["k2"]) == ("A", "C", "seed")


def test_zookeeper_lock_held_elsewhere_times_out(spark, tmp_path, request):
    """Another ZooKeeper client (its own session) holds the table's lock node: the write waits
    ``1 + num_retries`` attempts and fails with ``LOCK_TIMEOUT`` naming the provider and the node,
    leaving the table as it was; once released, the same write commits."""
    path = tmp_path / "t"
    options = _options("COPY_ON_WRITE", ZK, request)
    _seed(spark, path, options)
    before = _timeline(path)
    host, port = request.getfixturevalue("zookeeper")
    base = options["hoodie.write.lock.zookeeper.base_path"]
    holder = spark._jvm.io.pyhudi.transaction.ZookeeperLock(f"{host}:{port}", base, "occ", 60000, 15000)
    try:
        assert holder.tryLock(10000), "the other client took the lock"
        quick = dict(options, **{"hoodie.write.lock.wait_time_ms": "300", "hoodie.write.lock.num_retries": "1"})
        df = spark.createDataFrame([("k0", "p0", 1, "late")], SCHEMA)
        with pytest.raises(errors.WriteConflictError) as caught:
            with errors.translated():
                df.write.format("pyhudi").options(**quick).mode("append").save(str(path))
        assert caught.value.error_id == "LOCK_TIMEOUT", caught.value
        message = str(caught.value)
        assert ZK in message and f"{base}/occ" in message and "2 attempt(s)" in message, message
        assert _timeline(path) == before and _values(spark, path)["k0"] == "seed"
        holder.unlock()
        df.write.format("pyhudi").options(**quick).mode("append").save(str(path))
        assert _values(spark, path)["k0"] == "late"
    finally:
        holder.close()
