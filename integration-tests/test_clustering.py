# SPDX-License-Identifier: Apache-2.0
"""Clustering through ``pyhudi.cluster`` / ``HudiTable.cluster`` (docs/clustering.md).

a) Copy-on-write: many small inserts, then a clustering sorted by a column: fewer base files,
   each sorted, the plan and commit as Apache Hudi writes them, records keep their commit
   times, and pyhudi and hudi-rs read the model for the snapshot and time travel to every
   earlier instant; incremental reads return each record once.
b) Merge-on-read with log files: slices are clustered merged; readers agree.
c) An upsert into a file group of a pending clustering fails (nothing committed); inserts still
   go to new file groups; the next cluster() executes the plan, after which the upsert works.
d) A clustering whose JVM halts after writing its files is rolled back to requested and executed
   by the next cluster(); the table stays exact.
e) Inline clustering after ``hoodie.clustering.inline.max.commits`` commits.
f) Clean keeps the replaced file groups while a retained instant reads them, then deletes them whole.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import fastavro
import harness
import pyarrow.parquet as pq
import pytest
import write_support as ws

import pyhudi

COLUMNS = ("key", "part", "ts", "v")
Row = Tuple[str, str, int, str]


def _options(table_type: str, name: str) -> Dict[str, str]:
    return {
        "hoodie.table.name": name,
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.recordkey.field": "key",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        # every insert goes to new file groups: many small files
        "hoodie.parquet.small.file.limit": "0",
        "hoodie.clean.automatic": "false",
        **ws.HEARTBEAT,
    }


def _write(spark: Any, path: Path, rows: List[Row], options: Dict[str, str], operation: str = "insert") -> None:
    df = spark.createDataFrame(rows, "key string, part string, ts long, v string").repartition(2)
    df.write.format("pyhudi").options(**options).option("hoodie.datasource.write.operation", operation).mode(
        "append"
    ).save(str(path))


def _read(spark: Any, path: Path, options: Optional[Dict[str, str]] = None) -> List[Row]:
    return sorted(tuple(r) for r in harness.read_table(spark, path, options or {}).select(*COLUMNS).collect())


def _read_rs(path: Path, **kw: Any) -> List[Row]:
    return sorted(tuple(r[c] for c in COLUMNS) for r in harness.hudi_rs_read(path, **kw))


def _latest_base_files(path: Path) -> Dict[str, List[Path]]:
    """Per partition, the latest base file of each file group that no completed replacecommit retired."""
    replaced = set()
    for instant, action in harness.completed_instants(path):
        if action == "replacecommit":
            meta = ws.commit_metadata(path, instant, action)
            for p, ids in (meta.get("partitionToReplaceFileIds") or {}).items():
                replaced.update((p, i) for i in ids)
    completed = {i for i, _ in harness.completed_instants(path)}
    latest: Dict[Tuple[str, str], Path] = {}
    for f in path.rglob("*.parquet"):
        if ".hoodie" in f.relative_to(path).parts:
            continue
        part = str(f.parent.relative_to(path))
        file_id, instant = f.name.split("_")[0], f.name.rsplit("_", 1)[1].split(".")[0]
        if instant not in completed or (part, file_id) in replaced:
            continue
        if (part, file_id) not in latest or latest[(part, file_id)].name.rsplit("_", 1)[1] < f.name.rsplit("_", 1)[1]:
            latest[(part, file_id)] = f
    out: Dict[str, List[Path]] = {}
    for (part, _), f in latest.items():
        out.setdefault(part, []).append(f)
    return out


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


def _inserts(
    spark: Any, path: Path, options: Dict[str, str], rounds: int
) -> Tuple[Dict[str, Row], Dict[str, List[Row]]]:
    state: Dict[str, Row] = {}
    history: Dict[str, List[Row]] = {}
    for step in range(rounds):
        # values descend with the key so that sorting by v differs from key order and from arrival
        rows = [(f"k{step:02d}{i:02d}", f"p{i % 2}", step, f"v{99 - i:02d}-{step:02d}") for i in range(10)]
        _write(spark, path, rows, options)
        state.update({r[0]: r for r in rows})
        history[harness.completed_instants(path)[-1][0]] = sorted(state.values())
    return state, history


# --------------------------------------------------------------------------------------------
# a) copy-on-write


def test_cluster_cow_small_files_into_sorted_files(spark, tmp_path):
    path = tmp_path / "table"
    options = _options("COPY_ON_WRITE", "clus_cow")
    state, history = _inserts(spark, path, options, 6)
    before = _latest_base_files(path)
    assert all(len(fs) >= 6 for fs in before.values()), before
    commit_times = {r["_hoodie_record_key"]: r["_hoodie_commit_time"] for r in ws.pyhudi_rows(spark, path)}

    instant = pyhudi.HudiTable.for_path(spark, str(path)).cluster(sort_columns=["v"])
    assert instant is not None and harness.completed_instants(path)[-1] == (instant, "replacecommit")

    requested = _avro(path / ".hoodie" / f"{instant}.replacecommit.requested")
    assert requested["operationType"] == "CLUSTER"
    plan = requested["clusteringPlan"]
    assert plan["preserveHoodieMetadata"] is True
    assert plan["strategy"]["strategyParams"] == {"hoodie.clustering.plan.strategy.sort.columns": "v"}
    planned = {(s["partitionPath"], s["fileId"]) for g in plan["inputGroups"] for s in g["slices"]}
    assert planned == {(p, f.name.split("_")[0]) for p, fs in before.items() for f in fs}
    meta = ws.commit_metadata(path, instant, "replacecommit")
    assert meta["operationType"] == "CLUSTER"
    assert {(p, i) for p, ids in meta["partitionToReplaceFileIds"].items() for i in ids} == planned
    written = [s for stats in meta["partitionToWriteStats"].values() for s in stats]
    assert sum(s["numWrites"] for s in written) == len(state)

    after = _latest_base_files(path)
    assert {p: len(fs) for p, fs in after.items()} == {p: 1 for p in before}
    for fs in after.values():
        for f in fs:
            table = pq.read_table(f)
            values = table.column("v").to_pylist()
            assert values == sorted(values), f"{f.name} is not sorted by v"
            assert set(table.column("_hoodie_file_name").to_pylist()) == {f.name}
            assert pq.ParquetFile(f).metadata.metadata.get(b"org.apache.hudi.bloomfilter"), "bloom filter footer"

    latest = sorted(state.values())
    assert _read(spark, path) == latest and _read_rs(path) == latest
    rows = ws.assert_readers_agree(spark, path, "after clustering")
    assert {r["_hoodie_record_key"]: r["_hoodie_commit_time"] for r in rows} == commit_times, "commit times kept"
    for at, expected in history.items():
        assert _read(spark, path, {"as.of.instant": at}) == expected, f"pyhudi as of {at}"
        assert _read_rs(path, as_of=at) == expected, f"hudi-rs as of {at}"
    # Incremental reads: every record once over the whole range; nothing new from the clustering alone.
    whole = {"hoodie.datasource.query.type": "incremental", "hoodie.datasource.read.begin.instanttime": "000"}
    assert _read(spark, path, whole) == latest
    last_write = list(history)[-1]
    only = {**whole, "hoodie.datasource.read.begin.instanttime": last_write}
    assert _read(spark, path, only) == []
    _validate(path, "after clustering")

    # One file per partition is left: without sort columns there is nothing to rewrite; updates work again.
    assert pyhudi.cluster(spark, str(path), options) is None
    _write(spark, path, [("k0000", "p0", 9, "new")], options, "upsert")
    state["k0000"] = ("k0000", "p0", 9, "new")
    assert _read(spark, path) == sorted(state.values()) == _read_rs(path)


def test_unknown_sort_column_and_bucket_index_are_refused(spark, tmp_path):
    path = tmp_path / "table"
    options = _options("COPY_ON_WRITE", "clus_bad")
    _inserts(spark, path, options, 2)
    files = harness.timeline_files(path)
    with pytest.raises(pyhudi.errors.InvalidOptionError, match="'nope'"):
        pyhudi.cluster(spark, str(path), options, sort_columns=["v", "nope"])
    with pytest.raises(ValueError):
        pyhudi.cluster(spark, str(path), options, target_file_max_bytes=0)
    with pytest.raises(pyhudi.errors.InvalidOptionError, match="BUCKET"):
        pyhudi.cluster(spark, str(path), {**options, "hoodie.index.type": "BUCKET"})
    assert harness.timeline_files(path) == files


# --------------------------------------------------------------------------------------------
# b) merge-on-read


def test_cluster_mor_slices_with_logs(spark, tmp_path):
    path = tmp_path / "table"
    options = _options("MERGE_ON_READ", "clus_mor")
    state, history = _inserts(spark, path, options, 4)
    updates = [(k, r[1], 10, "upd") for k, r in list(state.items())[::3]]
    _write(spark, path, updates, options, "upsert")
    state.update({r[0]: r for r in updates})
    deleted = list(state)[1]
    _write(spark, path, [state.pop(deleted)], options, "delete")
    assert any(".log." in p.name for p in path.rglob("*")), "the table has log files"
    writes = [i for i, _ in harness.completed_instants(path)]

    instant = pyhudi.cluster(spark, str(path), options, sort_columns=["key"])
    assert instant is not None
    latest = sorted(state.values())
    assert _read(spark, path) == latest and _read_rs(path) == latest
    ro = _read(spark, path, {"hoodie.datasource.query.type": "read_optimized"})
    assert ro == latest, "clustered base files hold the merged records"
    for at, expected in history.items():
        assert _read(spark, path, {"as.of.instant": at}) == expected and _read_rs(path, as_of=at) == expected
    assert _read(spark, path, {"as.of.instant": writes[-1]}) == latest
    _validate(path, "after clustering")


# --------------------------------------------------------------------------------------------
# c) writes against a pending clustering


def test_upsert_into_pending_clustering_fails_and_inserts_still_work(spark, tmp_path):
    path = tmp_path / "table"
    options = _options("COPY_ON_WRITE", "clus_pending")
    state, _ = _inserts(spark, path, options, 3)
    instant = pyhudi.cluster(spark, str(path), options, schedule_only=True)
    assert instant is not None and f"{instant}.replacecommit.requested" in harness.timeline_files(path)
    assert _read(spark, path) == sorted(state.values()), "a pending clustering is invisible"

    completed = harness.completed_instants(path)
    files = {p for p in path.rglob("*.parquet")}
    with pytest.raises(pyhudi.errors.WriteConflictError, match=instant) as err, pyhudi.errors.translated():
        _write(spark, path, [("k0000", "p0", 5, "upd")], options, "upsert")
    assert err.value.error_id == "UPDATE_UNDER_CLUSTERING"
    assert harness.completed_instants(path) == completed and {p for p in path.rglob("*.parquet")} == files
    assert harness.pending_instants(path) == [instant], "the failed write left nothing pending"

    # Inserts (small-file packing on) go to new file groups, never to the clustered ones.
    packing = {**options, "hoodie.parquet.small.file.limit": str(100 * 1024 * 1024)}
    _write(spark, path, [("new1", "p0", 5, "n"), ("new2", "p1", 5, "n")], packing)
    state.update({"new1": ("new1", "p0", 5, "n"), "new2": ("new2", "p1", 5, "n")})
    assert _read(spark, path) == sorted(state.values()) == _read_rs(path)

    # The next cluster() executes the pending plan (and then clusters its output with the new
    # inserts' small files); then the upsert goes through.
    last = pyhudi.cluster(spark, str(path), options)
    assert last is not None and last >= instant
    assert (instant, "replacecommit") in harness.completed_instants(path) and not harness.pending_instants(path)
    _write(spark, path, [("k0000", "p0", 5, "upd")], options, "upsert")
    state["k0000"] = ("k0000", "p0", 5, "upd")
    assert _read(spark, path) == sorted(state.values()) == _read_rs(path)
    _validate(path, "after the pending clustering ran")


# --------------------------------------------------------------------------------------------
# d) a clustering killed after writing its files

CLUSTERER = textwrap.dedent(
    """
    import sys
    from pyspark.sql import SparkSession
    import pyhudi

    builder = (
        SparkSession.builder.master("local[1]").appName("pyhudi-killed-clustering")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    print("CLUSTERING", flush=True)
    pyhudi.cluster(spark, sys.argv[1], {"hoodie.client.heartbeat.interval_in_ms": "500"}, sort_columns=["v"])
    print("DONE", flush=True)
    """
)


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_clustering_killed_before_commit_is_redone(spark, tmp_path, table_type):
    path = tmp_path / "table"
    options = _options(table_type, f"clus_kill_{table_type.lower()}")
    state, history = _inserts(spark, path, options, 4)
    if table_type == "MERGE_ON_READ":
        updates = [(k, r[1], 10, "upd") for k, r in list(state.items())[::4]]
        _write(spark, path, updates, options, "upsert")
        state.update({r[0]: r for r in updates})
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYHUDI_CRASH_AT="clustering.before-commit")
    done = subprocess.run(
        [sys.executable, "-c", CLUSTERER, str(path)], env=env, capture_output=True, text=True, timeout=300
    )
    assert "CLUSTERING" in done.stdout and "DONE" not in done.stdout, done.stdout + done.stderr[-3000:]
    files = harness.timeline_files(path)
    inflight = [f.split(".")[0] for f in files if f.endswith(".replacecommit.inflight")]
    assert len(inflight) == 1 and f"{inflight[0]}.replacecommit" not in files, files
    target = inflight[0]
    assert any(p.name.endswith(f"_{target}.parquet") for p in path.rglob("*.parquet")), "partial files left"
    # Its tasks sent their markers through the driver's timeline service: batched, none direct.
    temp = path / ".hoodie" / ".temp" / target
    assert (temp / "MARKERS.type").read_text() == "TIMELINE_SERVER_BASED"
    batched = {line for f in temp.glob("MARKERS*") if f.name != "MARKERS.type" for line in f.read_text().split("\n")}
    assert not list(temp.rglob("*.marker.*")), "direct markers next to the timeline service's"
    partial = {f"{p.relative_to(path)}.marker.CREATE" for p in path.rglob(f"*_{target}.parquet")}
    assert partial and partial <= batched, (partial, batched)
    latest = sorted(state.values())
    assert _read(spark, path) == latest and _read_rs(path) == latest, "files of the inflight clustering are hidden"

    # A write does not roll the clustering back (it is re-executed, not a failed write).
    ws.wait_until_dead(path, target)
    _write(spark, path, [("x1", "p0", 1, "x")], options)
    state["x1"] = ("x1", "p0", 1, "x")
    assert f"{target}.replacecommit.inflight" in harness.timeline_files(path)

    # cluster() executes the interrupted plan, then plans the new small group of the write.
    last = pyhudi.cluster(spark, str(path), options, sort_columns=["v"])
    assert last is not None and last > target
    assert (target, "replacecommit") in harness.completed_instants(path)
    assert not harness.pending_instants(path)
    written = ws.commit_metadata(path, target, "replacecommit")["partitionToWriteStats"]
    assert {s["path"] for stats in written.values() for s in stats} == {
        str(p.relative_to(path)) for p in path.rglob(f"*_{target}.parquet")
    }, "the rolled-back attempt left no file behind"
    latest = sorted(state.values())
    assert _read(spark, path) == latest and _read_rs(path) == latest
    for at, expected in history.items():
        assert _read(spark, path, {"as.of.instant": at}) == expected and _read_rs(path, as_of=at) == expected
    _validate(path, "after the redone clustering")


# --------------------------------------------------------------------------------------------
# e) inline


def test_inline_clustering_after_max_commits(spark, tmp_path):
    path = tmp_path / "table"
    options = {
        **_options("COPY_ON_WRITE", "clus_inline"),
        "hoodie.clustering.inline": "true",
        "hoodie.clustering.inline.max.commits": "3",
    }
    state: Dict[str, Row] = {}
    clusterings: List[str] = []
    for step in range(7):
        rows = [(f"k{step}{i}", f"p{i % 2}", step, f"v{i}") for i in range(4)]
        _write(spark, path, rows, options)
        state.update({r[0]: r for r in rows})
        clusterings = [
            i
            for i, a in harness.completed_instants(path)
            if a == "replacecommit" and ws.commit_metadata(path, i, a)["operationType"] == "CLUSTER"
        ]
        assert len(clusterings) == (step + 1) // 3, f"write#{step}: clusterings {clusterings}"
        assert _read(spark, path) == sorted(state.values())
    assert _read_rs(path) == sorted(state.values())


# --------------------------------------------------------------------------------------------
# f) clean after clustering


def test_clean_deletes_replaced_file_groups_once_no_retained_instant_needs_them(spark, tmp_path):
    path = tmp_path / "table"
    options = _options("COPY_ON_WRITE", "clus_clean")
    state, _ = _inserts(spark, path, options, 4)
    instant = pyhudi.cluster(spark, str(path), options, sort_columns=["v"])
    assert instant is not None
    replaced = {
        (p, i)
        for p, ids in ws.commit_metadata(path, instant, "replacecommit")["partitionToReplaceFileIds"].items()
        for i in ids
    }

    def replaced_files() -> List[Path]:
        return [
            f for f in path.rglob("*.parquet") if (str(f.parent.relative_to(path)), f.name.split("_")[0]) in replaced
        ]

    assert len(replaced_files()) == len(replaced)
    # While the clustering is among the retained commits, time travel before it needs the old groups.
    retain = {"hoodie.clean.commits.retained": "2"}
    assert pyhudi.clean(spark, str(path), retain) == []
    assert len(replaced_files()) == len(replaced)
    history: Dict[str, List[Row]] = {}
    for step in range(3):
        rows = [(k, r[1], 20 + step, f"u{step}") for k, r in list(state.items())[step::5]]
        _write(spark, path, rows, options, "upsert")
        state.update({r[0]: r for r in rows})
        history[harness.completed_instants(path)[-1][0]] = sorted(state.values())
    cleaned = pyhudi.clean(spark, str(path), retain)
    assert cleaned and replaced_files() == [], "the replaced file groups are deleted whole"
    latest = sorted(state.values())
    assert _read(spark, path) == latest and _read_rs(path) == latest
    for at in list(history)[-2:]:
        assert _read(spark, path, {"as.of.instant": at}) == history[at] and _read_rs(path, as_of=at) == history[at]
    _validate(path, "after the clean")
