# SPDX-License-Identifier: Apache-2.0
"""pyhudi and Apache Hudi (1.2 and 0.15, Spark 3.5 bundles, each in its own Spark process) on the
same table folders, with Apache Hudi's default settings: its metadata table is on.

Every check compares pyhudi, Apache Hudi and, where it reads the query, hudi-rs with a model.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest
import tables as t
from hudi_client import HudiWorker
from rows import frame
from tables import HUDI_0X, HUDI_LATEST

import pyhudi

pytestmark = pytest.mark.interop

COW, MOR = "COPY_ON_WRITE", "MERGE_ON_READ"
PYHUDI = Path(sys.executable).parent / "pyhudi"


def check_snapshot(spark: Any, hudi: HudiWorker, path: Path, model: t.Model, context: str) -> None:
    """Snapshot of pyhudi, Apache Hudi and hudi-rs equal the model; pyhudi and Apache Hudi agree
    on the meta columns too."""
    expected = model.expected()
    ours = t.pyhudi_read(spark, path)
    theirs = hudi.read(path)
    assert t.data(ours) == expected, f"{context}: pyhudi snapshot differs from the model"
    assert t.data(theirs) == expected, f"{context}: Apache Hudi {hudi.version} snapshot differs from the model"
    assert t.with_meta(ours) == t.with_meta(theirs), f"{context}: meta columns differ"
    assert t.data(t.hudi_rs_read(path)) == expected, f"{context}: hudi-rs snapshot differs from the model"


def check_queries(spark: Any, hudi: HudiWorker, path: Path, context: str) -> None:
    """Read-optimized, incremental (from the first commit) and time travel (to the second) agree."""
    instants = t.completed(path)
    queries = {
        "read_optimized": t.READ_OPTIMIZED,
        "incremental": t.incremental(instants[0]),
        "time travel": t.as_of(instants[1]),
    }
    for name, opts in queries.items():
        ours, theirs = t.pyhudi_read(spark, path, opts), hudi.read(path, opts)
        assert t.with_meta(ours) == t.with_meta(theirs), f"{context}: {name} differs from Apache Hudi {hudi.version}"
    assert t.data(t.pyhudi_read(spark, path, t.as_of(instants[1]))) == t.data(t.hudi_rs_read(path, instants[1])), (
        f"{context}: time travel differs from hudi-rs"
    )


def check_cli(spark: Any, path: Path, context: str) -> None:
    """The Spark-free ``pyhudi`` command on a table: validate passes, the timeline lists the
    completed writes, the latest slices are hudi-rs's, and stats count the read-optimized rows."""

    def cli(*args: str) -> Dict[str, Any]:
        done = subprocess.run([str(PYHUDI), *args, str(path), "--json"], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (
            f"{context}: pyhudi {' '.join(args)} -> {done.returncode}\n{done.stdout}{done.stderr}"
        )
        return json.loads(done.stdout)

    assert cli("validate")["ok"] is True, context
    timeline = cli("timeline")["instants"]
    writes = [
        i["instant"]
        for i in timeline
        if i["state"] == "completed" and i["action"] in ("commit", "deltacommit", "replacecommit")
    ]
    assert writes == t.completed(path), f"{context}: pyhudi timeline"
    from hudi import HudiTableBuilder

    served = {
        (s.partition_path, s.file_id, s.base_file_name or None, tuple(s.log_file_names))
        for s in HudiTableBuilder.from_base_uri(str(path)).build().get_file_slices()
    }
    groups = cli("file-groups")["file_groups"]
    latest = {
        (
            g["partition"],
            g["file_id"],
            s["base_file"]["name"] if s["base_file"] else None,
            tuple(lg["name"] for lg in s["log_files"]),
        )
        for g in groups
        for s in g["slices"]
        if s["state"] == "latest"
    }
    assert latest == served, f"{context}: pyhudi file-groups differ from hudi-rs"
    assert cli("stats")["total"]["records"] == len(t.pyhudi_read(spark, path, t.READ_OPTIMIZED)), context


# ---- pyhudi writes, Apache Hudi reads

INDEXES = ["BLOOM", "SIMPLE", "BUCKET", "GLOBAL_SIMPLE"]


@pytest.mark.parametrize("table_type", [COW, MOR])
@pytest.mark.parametrize("index", INDEXES)
def test_apache_hudi_reads_what_pyhudi_writes(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, table_type: str, index: str
) -> None:
    h = hudi(HUDI_LATEST)
    path = tmp_path / "t"
    extra = {"hoodie.index.type": index, "hoodie.bucket.index.num.buckets": "2"}
    model = t.Model()
    opts = lambda op: t.options("w", table_type, op, **extra)  # noqa: E731
    first = [t.row(i, 100, "a") for i in range(30)]
    t.pyhudi_write(spark, path, first, opts("insert"))
    model.upsert(first)
    second = [t.row(i, 200, "b") for i in range(0, 40, 3)] + [t.row(i, 50, "stale") for i in range(1, 30, 9)]
    t.pyhudi_write(spark, path, second, opts("upsert"))
    model.upsert(second)
    gone = [t.row(i, 300, "d") for i in range(2, 30, 7)]
    t.pyhudi_write(spark, path, gone, opts("delete"))
    model.delete(r["id"] for r in gone)
    if table_type == MOR:
        import pyhudi

        pyhudi.compact(spark, str(path))
        more = [t.row(i, 400, "e") for i in range(5, 45, 4)]
        t.pyhudi_write(spark, path, more, opts("upsert"))
        model.upsert(more)
    context = f"pyhudi {table_type} {index}"
    check_snapshot(spark, h, path, model, context)
    check_queries(spark, h, path, context)


@pytest.mark.parametrize("table_type", [COW, MOR])
def test_apache_hudi_upserts_into_buckets_of_a_pyhudi_bucket_load(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, table_type: str
) -> None:
    """A first bulk_insert under the bucket index places each key in the bucket Apache Hudi
    computes: Apache Hudi's upsert then finds every existing key in its file group (no second
    group per bucket, no duplicate), and pyhudi's next upsert finds Apache Hudi's new keys."""
    h = hudi(HUDI_LATEST)
    path = tmp_path / "t"
    extra = {"hoodie.index.type": "BUCKET", "hoodie.bucket.index.num.buckets": "3"}
    opts = lambda op: t.options("bucket_load", table_type, op, **extra)  # noqa: E731
    model = t.Model()
    steps: List[Any] = [
        ("pyhudi", "bulk_insert", [t.row(i, 100, "a") for i in range(60)]),
        ("hudi", "upsert", [t.row(i, 200, "h") for i in range(0, 80, 3)]),
        ("pyhudi", "upsert", [t.row(i, 300, "p") for i in range(1, 80, 4)]),
    ]
    for who, op, rows in steps:
        if who == "hudi":
            h.write(path, t.SCHEMA, rows, opts(op))
        else:
            t.pyhudi_write(spark, path, rows, opts(op))
        model.upsert(rows)
        check_snapshot(spark, h, path, model, f"{table_type} after {who} {op}")
        groups: Dict[Tuple[str, str], set] = {}
        for f in path.glob("*/*"):
            if f.parent.name in t.PARTS and (f.name.endswith(".parquet") or ".log." in f.name):
                file_id = f.name.lstrip(".").split("_")[0]
                groups.setdefault((f.parent.name, file_id[:8]), set()).add(file_id)
        assert groups and all(len(ids) == 1 for ids in groups.values()), f"{who} {op}: {groups}"


# ---- Apache Hudi writes, pyhudi reads


@pytest.mark.parametrize("table_type", [COW, MOR])
@pytest.mark.parametrize("version", [HUDI_LATEST, HUDI_0X])
def test_pyhudi_reads_what_apache_hudi_writes(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, version: str, table_type: str
) -> None:
    h = hudi(version)
    path = tmp_path / "t"
    extra = (
        {"hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "2"} if table_type == MOR else {}
    )
    opts = lambda op: t.options("h", table_type, op, **extra)  # noqa: E731
    model = t.Model(event_time=version == HUDI_LATEST)
    steps: List[Any] = [
        ("insert", [t.row(i, 100, "a") for i in range(30)]),
        ("upsert", [t.row(i, 200, "b") for i in range(0, 40, 3)]),
        ("delete", [t.row(i, 300, "d") for i in range(2, 30, 7)]),
        ("upsert", [t.row(i, 400, "e") for i in range(1, 45, 5)]),
        ("insert_overwrite", [t.row(i, 500, "o", part="east") for i in range(100, 104)]),
        ("upsert", [t.row(i, 600, "f") for i in range(0, 30, 4)]),
    ]
    for op, rows in steps:
        h.write(path, t.SCHEMA, rows, opts(op))
        if op == "delete":
            model.delete(r["id"] for r in rows)
        elif op == "insert_overwrite":
            model.overwrite_partitions(rows)
        else:
            model.upsert(rows)
        check_snapshot(spark, h, path, model, f"Apache Hudi {version} {table_type} after {op}")
    check_queries(spark, h, path, f"Apache Hudi {version} {table_type}")
    check_cli(spark, path, f"Apache Hudi {version} {table_type}")


# ---- both engines write the same table in turns


@pytest.mark.parametrize("table_type", [COW, MOR])
@pytest.mark.parametrize("version", [HUDI_LATEST, HUDI_0X])
def test_alternating_writers(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, version: str, table_type: str
) -> None:
    """Apache Hudi (metadata table on), pyhudi, Apache Hudi, pyhudi, ... on one table: after every
    write every reader equals the model, and Apache Hudi's metadata table is never stale."""
    h = hudi(version)
    path = tmp_path / "t"
    opts = lambda op: t.options("alt", table_type, op)  # noqa: E731
    model = t.Model()
    writers: List[Any] = [
        ("hudi", "insert", [t.row(i, 1000, "h0") for i in range(40)]),
        ("pyhudi", "upsert", [t.row(i, 2000, "p1") for i in range(0, 50, 3)]),
        ("hudi", "upsert", [t.row(i, 3000, "h2") for i in range(1, 55, 4)]),
        ("pyhudi", "delete", [t.row(i, 4000, "p3") for i in range(2, 40, 5)]),
        ("hudi", "upsert", [t.row(i, 5000, "h4") for i in range(0, 60, 6)]),
        ("pyhudi", "upsert", [t.row(i, 6000, "p5") for i in range(3, 62, 4)]),
        ("hudi", "delete", [t.row(i, 7000, "h6") for i in range(0, 62, 7)]),
        ("pyhudi", "upsert", [t.row(i, 8000, "p7") for i in range(0, 20)]),
    ]
    for step, (who, op, rows) in enumerate(writers):
        if who == "hudi":
            h.write(path, t.SCHEMA, rows, opts(op))
        else:
            t.pyhudi_write(spark, path, rows, opts(op))
            assert t.metadata_partitions(path) == "", "pyhudi left Apache Hudi's metadata table listed"
            assert not (path / ".hoodie" / "metadata").exists(), "pyhudi left Apache Hudi's metadata table"
        if op == "delete":
            model.delete(r["id"] for r in rows)
        else:
            model.upsert(rows)
        check_snapshot(spark, h, path, model, f"{version} {table_type} step {step} ({who} {op})")


# ---- pyhudi cleans, Apache Hudi reads, writes and cleans after it


def clean_instants(path: Path) -> List[str]:
    return sorted(f.name.split(".")[0] for f in (path / ".hoodie").iterdir() if f.name.endswith(".clean"))


@pytest.mark.parametrize("table_type", [COW, MOR])
@pytest.mark.parametrize("version", [HUDI_LATEST, HUDI_0X])
def test_apache_hudi_carries_on_after_a_pyhudi_clean(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, version: str, table_type: str
) -> None:
    """pyhudi writes six commits (merge-on-read: compacted every two) and cleans them down to two
    retained commits; Apache Hudi reads the table, then writes to it with its own cleaner on,
    which reads pyhudi's clean metadata (its incremental cleaning starts from pyhudi's
    earliestCommitToRetain) and cleans in turn; every reader equals the model after each step."""
    import pyhudi

    h = hudi(version)
    path = tmp_path / "t"
    retain = {"hoodie.clean.commits.retained": "2", "hoodie.cleaner.commits.retained": "2"}
    compaction = (
        {"hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "2"} if table_type == MOR else {}
    )
    opts = lambda op, **more: t.options("clean", table_type, op, **compaction, **more)  # noqa: E731
    model = t.Model()
    for step in range(6):
        rows = [t.row(i, 100 * (step + 1), f"s{step}") for i in range(step % 3, 30, 2)]
        t.pyhudi_write(spark, path, rows, opts("upsert" if step else "insert", **{"hoodie.clean.automatic": "false"}))
        model.upsert(rows)
    files_before = {p.name for p in path.rglob("*.parquet")}
    cleaned = pyhudi.clean(spark, str(path), retain)
    assert len(cleaned) == 1 and clean_instants(path) == cleaned
    assert {p.name for p in path.rglob("*.parquet")} < files_before, "the pyhudi clean deleted no base file"
    check_snapshot(spark, h, path, model, f"{version} {table_type} after the pyhudi clean")

    for step in range(6, 9):
        rows = [t.row(i, 100 * (step + 1), f"h{step}") for i in range(step % 3, 36, 3)]
        h.write(
            path,
            t.SCHEMA,
            rows,
            opts("upsert", **retain, **{"hoodie.clean.automatic": "true", "hoodie.clean.async": "false"}),
        )
        model.upsert(rows)
        check_snapshot(spark, h, path, model, f"{version} {table_type} Apache Hudi write {step} after the pyhudi clean")
    assert len(clean_instants(path)) > 1, f"Apache Hudi {version} did not clean after pyhudi's clean"
    check_cli(spark, path, f"{version} {table_type} after Apache Hudi's clean")
    rows = [t.row(i, 1000, "p") for i in range(0, 36, 5)]
    t.pyhudi_write(spark, path, rows, opts("upsert", **retain))
    model.upsert(rows)
    check_snapshot(spark, h, path, model, f"{version} {table_type} pyhudi write after Apache Hudi's clean")


# ---- pyhudi archives; Apache Hudi loads its archive files, reads, writes and archives after it


@pytest.mark.parametrize("table_type", [COW, MOR])
@pytest.mark.parametrize("version", [HUDI_LATEST, HUDI_0X])
def test_apache_hudi_carries_on_after_a_pyhudi_archival(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, version: str, table_type: str
) -> None:
    """pyhudi writes nine commits with automatic clean (2 commits retained) and archival (3 to 5
    active commits); Apache Hudi loads pyhudi's archive files as its archived timeline and reads the
    table (snapshot, incremental, time travel), then writes six times with its own cleaner and
    archiver on; pyhudi reads the archive entries Apache Hudi adds, every instant pyhudi archived
    is still in the archived timeline, and pyhudi writes on."""
    from pyhudi.cli.archived import archive_files, archived_entries
    from pyhudi.cli.table import open_table

    h = hudi(version)
    path = tmp_path / "t"
    keep = {
        "hoodie.clean.commits.retained": "2",
        "hoodie.cleaner.commits.retained": "2",
        "hoodie.keep.min.commits": "3",
        "hoodie.keep.max.commits": "5",
    }
    compaction = (
        {"hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "2"} if table_type == MOR else {}
    )
    opts = lambda op, **more: t.options("archive", table_type, op, **compaction, **keep, **more)  # noqa: E731
    model = t.Model()
    for step in range(9):
        rows = [t.row(i, 100 * (step + 1), f"s{step}") for i in range(step % 3, 30, 2)]
        t.pyhudi_write(spark, path, rows, opts("upsert" if step else "insert"))
        model.upsert(rows)

    def entries() -> set:  # type: ignore[type-arg]
        return {(e.time, e.action, e.state) for e in archived_entries(open_table(str(path)))}

    ours = entries()
    assert archive_files(open_table(str(path))) and any(s == "COMPLETED" for _, _, s in ours)
    context = f"Apache Hudi {version} {table_type} after a pyhudi archival"
    # Apache Hudi loads pyhudi's archive files as its archived timeline.
    loaded = h.archived(path)
    assert sorted(map(tuple, loaded["instants"])) == sorted(ours), f"{context}: archived timeline {loaded}"
    completed = {time: action for time, action, state in ours if state == "COMPLETED"}
    assert loaded["details"], f"{context}: no archived details"
    for time, content in loaded["details"].items():
        key = "startCleanTime" if completed[time] == "clean" else "partitionToWriteStats"
        assert key in json.loads(content), f"{context}: details of {time} ({completed[time]})"
    check_snapshot(spark, h, path, model, context)
    check_queries(spark, h, path, context)

    # Hudi's archival of the data table waits for its metadata table's compactions; without the
    # metadata table it archives as soon as its rules allow.
    theirs = {
        "hoodie.metadata.enable": "false",
        "hoodie.clean.automatic": "true",
        "hoodie.clean.async": "false",
        "hoodie.archive.automatic": "true",
    }
    for step in range(9, 15):
        rows = [t.row(i, 100 * (step + 1), f"h{step}") for i in range(step % 3, 36, 3)]
        h.write(path, t.SCHEMA, rows, opts("upsert", **theirs))
        model.upsert(rows)
        check_snapshot(
            spark, h, path, model, f"{version} {table_type} Apache Hudi write {step} after a pyhudi archival"
        )
    after = entries()
    assert ours <= after, f"Apache Hudi {version} lost pyhudi's archived entries: {sorted(ours - after)[:5]}"
    assert len(after) > len(ours), f"Apache Hudi {version} archived nothing after pyhudi"
    assert {tuple(i) for i in h.archived(path)["instants"]} == after, f"{version}: Apache Hudi's archived timeline"

    rows = [t.row(i, 2000, "p") for i in range(0, 36, 5)]
    t.pyhudi_write(spark, path, rows, opts("upsert"))
    model.upsert(rows)
    check_snapshot(spark, h, path, model, f"{version} {table_type} pyhudi write after Apache Hudi's archival")
    assert entries() >= after


@pytest.mark.parametrize("version", [HUDI_LATEST, HUDI_0X])
def test_pyhudi_archival_stops_at_a_pending_compaction_of_apache_hudi(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, version: str
) -> None:
    """Apache Hudi writes eight delta commits and only schedules compactions (every three delta
    commits), so that pending compactions sit between completed commits; pyhudi's archival takes
    only the commits before the earliest of them and leaves every plan in place."""
    import os

    import pyhudi

    h = hudi(version)
    path = tmp_path / "t"
    theirs = {
        "hoodie.metadata.enable": "false",
        "hoodie.compact.inline": "false",
        "hoodie.compact.schedule.inline": "true",
        "hoodie.compact.inline.max.delta.commits": "3",
        "hoodie.clean.automatic": "false",
        "hoodie.archive.automatic": "false",
    }
    model = t.Model()
    for step in range(8):
        rows = [t.row(i, 100 * (step + 1), f"s{step}") for i in range(step % 3, 30, 2)]
        h.write(path, t.SCHEMA, rows, t.options("pending", MOR, "upsert" if step else "insert", **theirs))
        model.upsert(rows)
    names = set(os.listdir(path / ".hoodie"))
    pending = sorted(
        n.split(".")[0]
        for n in names
        if n.endswith(".compaction.requested") and f"{n.split('.')[0]}.commit" not in names
    )
    assert pending, f"Apache Hudi {version} scheduled no compaction: {sorted(names)}"
    writes = t.completed(path)
    assert any(w > pending[0] for w in writes)

    done = pyhudi.archive(spark, str(path), {"hoodie.clean.commits.retained": "1"}, min_commits=2, max_commits=3)
    archived = sorted(d.split(".")[0] for d in done)
    assert archived == [w for w in writes if w < pending[0]], f"{version}: archived {done}, pending {pending}"
    left = set(os.listdir(path / ".hoodie"))
    assert all(f"{p}.compaction.requested" in left for p in pending)
    context = f"Apache Hudi {version} after pyhudi archived up to its pending compaction"
    assert t.data(t.pyhudi_read(spark, path)) == model.expected(), context
    assert t.data(h.read(path)) == model.expected(), context
    assert sorted(i for i, _, s in map(tuple, h.archived(path)["instants"]) if s == "COMPLETED") == archived


# ---- pyhudi killed in the middle of removing Apache Hudi's metadata table

CRASH_POINTS = ["properties-backed-up", "metadata-table-unlisted", "metadata-table-deleted"]


def run_killed_write(path: Path, rows: List[Dict[str, Any]], opts: Dict[str, str], point: str, tmp: Path) -> None:
    """A pyhudi write in its own process whose JVM halts at crash point ``point``."""
    import json
    import os
    import subprocess
    import sys

    spec = tmp / f"spec-{point}.json"
    spec.write_text(json.dumps({"path": str(path), "schema": t.SCHEMA, "rows": rows, "options": opts}))
    env = {**os.environ, "PYHUDI_CRASH_AT": point}
    log = tmp / f"writer-{point}.log"
    with open(log, "w") as out:
        rc = subprocess.run(
            [sys.executable, str(Path(__file__).parent / "pyhudi_writer.py"), str(spec)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            timeout=600,
        ).returncode
    assert rc != 0, f"the writer was to crash at {point} but finished (log: {log})"


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_killed_during_metadata_table_removal(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, point: str
) -> None:
    """Each intermediate state of the removal is read exactly by Apache Hudi, pyhudi and hudi-rs,
    and the next writer of either engine carries on from it."""
    h = hudi(HUDI_LATEST)
    path = tmp_path / "t"
    opts = lambda op: t.options("crash", MOR, op)  # noqa: E731
    model = t.Model()
    for op, rows in [
        ("insert", [t.row(i, 100, "a") for i in range(30)]),
        ("upsert", [t.row(i, 200, "b") for i in range(0, 35, 4)]),
    ]:
        h.write(path, t.SCHEMA, rows, opts(op))
        model.upsert(rows)
    assert "files" in t.metadata_partitions(path), "Apache Hudi wrote no metadata table"
    before = t.completed(path)

    run_killed_write(path, [t.row(i, 300, "killed") for i in range(0, 30, 2)], opts("upsert"), point, tmp_path)
    meta = path / ".hoodie"
    if point == "properties-backed-up":
        assert (meta / "hoodie.properties.backup").exists() and "files" in t.metadata_partitions(path)
    elif point == "metadata-table-unlisted":
        assert t.metadata_partitions(path) == "" and (meta / "metadata").is_dir()
    else:
        assert t.metadata_partitions(path) == "" and not (meta / "metadata").exists()
    assert t.completed(path) == before, "the killed write must not have committed"
    check_snapshot(spark, h, path, model, f"after a kill at {point}")

    rows = [t.row(i, 400, "c") for i in range(1, 40, 3)]
    h.write(path, t.SCHEMA, rows, opts("upsert"))
    model.upsert(rows)
    check_snapshot(spark, h, path, model, f"Apache Hudi write after a kill at {point}")
    rows = [t.row(i, 500, "d") for i in range(0, 40, 5)]
    t.pyhudi_write(spark, path, rows, opts("upsert"))
    model.upsert(rows)
    assert t.metadata_partitions(path) == "" and not (meta / "metadata").exists()
    check_snapshot(spark, h, path, model, f"pyhudi write after a kill at {point}")


# ---- pyhudi killed before its commit; Apache Hudi rolls the write back from the timeline service's markers


@pytest.mark.parametrize("table_type", [COW, MOR])
def test_apache_hudi_rolls_back_a_killed_pyhudi_write_from_its_markers(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, table_type: str
) -> None:
    """A pyhudi write whose JVM halts after writing every data file, just before its commit,
    leaves the MARKERS<n> files of its timeline service (TIMELINE_SERVER_BASED markers). Apache
    Hudi's next write rolls the failed instant back from them: the instant leaves the timeline, its
    base files are deleted, and every reader equals the model."""
    h = hudi(HUDI_LATEST)
    path = tmp_path / "t"
    opts = lambda op: t.options("markers", table_type, op)  # noqa: E731
    model = t.Model()
    first = [t.row(i, 100, "a") for i in range(40)]
    t.pyhudi_write(spark, path, first, opts("insert"))
    model.upsert(first)
    before = t.completed(path)

    run_killed_write(
        path, [t.row(i, 200, "killed") for i in range(0, 50, 2)], opts("upsert"), "write.before-commit", tmp_path
    )
    assert t.completed(path) == before, "the killed write must not have committed"
    pending = sorted(
        {
            f.name.split(".")[0]
            for f in (path / ".hoodie").iterdir()
            if f.name.split(".")[0].isdigit() and f.name.split(".")[0] not in before
        }
    )
    assert len(pending) == 1, pending
    failed = pending[0]
    markers = path / ".hoodie" / ".temp" / failed
    assert (markers / "MARKERS.type").read_text() == "TIMELINE_SERVER_BASED"
    listed = {
        line
        for f in markers.glob("MARKERS*")
        if f.name != "MARKERS.type"
        for line in f.read_text().splitlines()
        if line
    }
    written = {
        str(p.relative_to(path))
        for p in path.rglob(f"*{failed}*")
        if ".hoodie" not in p.relative_to(path).parts and not p.name.endswith(".crc")
    }
    assert written and {m.rsplit(".marker.", 1)[0] for m in listed} >= {w for w in written if w.endswith(".parquet")}
    check_snapshot(spark, h, path, model, f"{table_type} after the kill")

    rows = [t.row(i, 300, "h") for i in range(1, 45, 3)]
    h.write(path, t.SCHEMA, rows, opts("upsert"))
    model.upsert(rows)
    assert failed not in t.completed(path)
    assert not [f for f in (path / ".hoodie").iterdir() if f.name.startswith(failed)], (
        "Apache Hudi left the failed instant on the timeline"
    )
    left = [str(p) for p in path.rglob(f"*_{failed}.parquet")]
    assert not left, f"Apache Hudi's rollback left base files of the failed write: {left}"
    check_snapshot(spark, h, path, model, f"{table_type} after Apache Hudi rolled back pyhudi's failed write")
    rows = [t.row(i, 400, "p") for i in range(0, 45, 4)]
    t.pyhudi_write(spark, path, rows, opts("upsert"))
    model.upsert(rows)
    check_snapshot(spark, h, path, model, f"{table_type} pyhudi after Apache Hudi's rollback")


# ---- merge semantics of the tables pyhudi creates


@pytest.mark.parametrize("table_type", [COW, MOR])
@pytest.mark.parametrize("version", [HUDI_LATEST, HUDI_0X])
def test_event_time_ordering_is_kept_by_every_engine(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, version: str, table_type: str
) -> None:
    """pyhudi records DefaultHoodieRecordPayload in new tables: whichever engine writes, the version
    with the larger ``ts`` survives, in a batch, against the stored record and among log records."""
    h = hudi(version)
    path = tmp_path / "t"
    opts = lambda op: t.options("evt", table_type, op)  # noqa: E731
    model = t.Model(event_time=True)
    first = [t.row(i, 500, "a") for i in range(20)]
    t.pyhudi_write(spark, path, first, opts("insert"))
    model.upsert(first)
    assert t.table_property(path, "hoodie.compaction.payload.class") == t.EVENT_TIME
    # Older versions (ts 100) of some keys, newer ones (900) of others, and in-batch duplicates whose
    # later row is the older one.
    batches = [
        (
            "hudi",
            [t.row(i, 100, "old-h") for i in range(0, 20, 2)]
            + [t.row(i, 900, "new-h") for i in range(1, 20, 4)]
            + [t.row(30, 700, "dup-new"), t.row(30, 600, "dup-old")],
        ),
        (
            "pyhudi",
            [t.row(i, 100, "old-p") for i in range(1, 20, 2)]
            + [t.row(i, 950, "new-p") for i in range(0, 20, 6)]
            + [t.row(31, 700, "dup-new"), t.row(31, 600, "dup-old")],
        ),
        ("hudi", [t.row(i, 800, "mid-h") for i in range(0, 20, 3)]),
    ]
    for who, rows in batches:
        if who == "hudi":
            h.write(path, t.SCHEMA, rows, opts("upsert"))
        else:
            t.pyhudi_write(spark, path, rows, opts("upsert"))
        model.upsert(rows)
        check_snapshot(spark, h, path, model, f"{version} {table_type} after a {who} upsert")


# ---- partial-column log blocks (hoodie.write.conflict.granularity=COLUMN)


@pytest.mark.parametrize("version", [HUDI_LATEST, HUDI_0X])
def test_apache_hudi_never_reads_partial_column_blocks_wrong(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, version: str
) -> None:
    """A file slice with pyhudi's partial-column log blocks (IS_PARTIAL) fails Apache Hudi's read
    (0.15 does not know the header; 1.2 fails merging it) instead of returning the absent columns as
    null; once pyhudi has compacted it, Apache Hudi reads what pyhudi reads."""
    from hudi_client import HudiError

    h = hudi(version)
    path = tmp_path / "t"
    schema = "id string, part string, ts long, fare double, tip double"
    occ = {
        "hoodie.write.concurrency.mode": "OPTIMISTIC_CONCURRENCY_CONTROL",
        "hoodie.write.lock.provider": "org.apache.hudi.client.transaction.lock.InProcessLockProvider",
        "hoodie.write.conflict.granularity": "COLUMN",
        "hoodie.compact.inline": "false",
    }
    opts = t.options("partial", MOR, "upsert", **occ)
    first = [{"id": f"k{i}", "part": "p", "ts": 1, "fare": 10.0 + i, "tip": 1.0} for i in range(6)]
    frame(spark, schema, first).write.format("pyhudi").options(**opts).mode("append").save(str(path))
    tips = [{"id": f"k{i}", "part": "p", "tip": 5.0 + i} for i in range(3)]
    frame(spark, "id string, part string, tip double", tips).write.format("pyhudi").options(**opts).mode("append").save(
        str(path)
    )
    expected = {f"k{i}": (10.0 + i, 5.0 + i if i < 3 else 1.0) for i in range(6)}
    assert {r["id"]: (r["fare"], r["tip"]) for r in t.pyhudi_read(spark, path)} == expected
    with pytest.raises(HudiError):
        h.read(path)
    assert pyhudi.compact(spark, str(path)) is not None
    ours, theirs = t.pyhudi_read(spark, path), h.read(path)
    assert {r["id"]: (r["fare"], r["tip"]) for r in theirs} == expected
    assert t.data_of(ours, ["id", "ts", "fare", "tip"]) == t.data_of(theirs, ["id", "ts", "fare", "tip"])


# ---- a timestamp inside a struct, updated through a log file


def log_block_field_schema(path: Path, column: str) -> Any:
    """The Avro schema of ``column`` in the SCHEMA header of the table's first log block."""
    import json

    log = next(p for p in sorted((path / "p").glob(".*.log.*")) if not p.name.endswith(".crc"))
    data = log.read_bytes()
    start = data.find(b'{"type":"record"')
    depth = 0
    for end in range(start, len(data)):
        depth += {ord("{"): 1, ord("}"): -1}.get(data[end], 0)
        if depth == 0:
            break
    fields = json.loads(data[start : end + 1])["fields"]
    return next(f["type"] for f in fields if f["name"] == column)


def test_timestamp_in_struct_through_a_log_file(spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path) -> None:
    """pyhudi writes the same log-block schema as Apache Hudi for a struct holding a timestamp, and
    both engines read the updated table alike. (hudi-rs 0.5.0 fails on both engines' tables: it
    cannot merge the log's timestamp type into the base file's; see docs/interop.md.)"""
    h = hudi(HUDI_LATEST)
    schema = "id string, part string, ts long, s struct<name:string,at:timestamp>"
    first = [
        {"id": f"k{i}", "part": "p", "ts": 1, "s": {"name": f"n{i}", "at": "2026-01-01T00:00:00Z"}} for i in range(3)
    ]
    update = [{"id": "k1", "part": "p", "ts": 2, "s": {"name": "u", "at": "2026-02-01T10:00:00.5Z"}}]
    opts = lambda op: t.options("st", MOR, op, **{"hoodie.index.type": "SIMPLE"})  # noqa: E731
    ours, theirs = tmp_path / "pyhudi", tmp_path / "hudi"
    for rows, op in ((first, "insert"), (update, "upsert")):
        frame(spark, schema, rows).write.format("pyhudi").options(**opts(op)).mode("append").save(str(ours))
        h.write(theirs, schema, rows, opts(op))
    assert log_block_field_schema(ours, "s") == log_block_field_schema(theirs, "s")
    for path in (ours, theirs):
        read_ours, read_theirs = t.pyhudi_read(spark, path), h.read(path)
        assert t.data_of(read_ours, ["id", "s"]) == t.data_of(read_theirs, ["id", "s"])
        assert {r["id"]: r["s"]["name"] for r in read_ours} == {"k0": "n0", "k1": "u", "k2": "n2"}


# ---- savepoints, rollback and restore by pyhudi; Apache Hudi decodes the files, reads and writes on


@pytest.mark.parametrize("table_type", [COW, MOR])
@pytest.mark.parametrize("version", [HUDI_LATEST, HUDI_0X])
def test_apache_hudi_after_pyhudi_savepoint_and_restore(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, version: str, table_type: str
) -> None:
    import pyhudi

    h = hudi(version)
    path = tmp_path / "t"
    hoodie = path / ".hoodie"
    opts = lambda op: t.options("sp", table_type, op)  # noqa: E731
    model = t.Model()
    first = [t.row(i, 100, "a") for i in range(30)]
    t.pyhudi_write(spark, path, first, opts("insert"))
    model.upsert(first)
    savepointed = pyhudi.savepoint(spark, str(path), name="base", retain_days=7, comment="c")
    expected = model.expected()
    t.pyhudi_write(spark, path, [t.row(i, 200, "b") for i in range(0, 40, 3)], opts("upsert"))
    t.pyhudi_write(spark, path, [t.row(i, 300, "d") for i in range(2, 30, 7)], opts("delete"))

    sp = h.avro(hoodie / f"{savepointed}.savepoint", "HoodieSavepointMetadata")
    assert json.loads(sp["comments"]) == {
        "name": "base",
        "expiresAt": json.loads(sp["comments"])["expiresAt"],
        "comment": "c",
    }
    files = {f for m in sp["partitionMetadata"].values() for f in m["savepointDataFile"]}
    assert files and all(savepointed in f for f in files), files
    assert t.data(h.read(path, t.as_of(savepointed))) == expected

    restore = pyhudi.restore(spark, str(path), "base")
    plan = h.avro(hoodie / f"{restore}.restore.requested", "HoodieRestorePlan")
    assert plan["savepointToRestoreTimestamp"] == savepointed and len(plan["instantsToRollback"]) == 2
    done = h.avro(hoodie / f"{restore}.restore", "HoodieRestoreMetadata")
    assert done["instantsToRollback"] == [i["commitTime"] for i in plan["instantsToRollback"]]
    assert all(len(m) == 1 and m[0]["commitsRollback"] == [t_] for t_, m in done["hoodieRestoreMetadata"].items())
    model_after = t.Model()
    model_after.upsert(first)
    check_snapshot(spark, h, path, model_after, f"Apache Hudi {version} {table_type} after a pyhudi restore")

    # Apache Hudi writes on the restored table (its cleaner and archiver see the savepoint).
    more = [t.row(i, 400, "e") for i in range(5, 45, 4)]
    h.write(path, t.SCHEMA, more, opts("upsert"))
    model_after.upsert(more)
    check_snapshot(spark, h, path, model_after, f"Apache Hudi {version} {table_type} writing after a restore")
    assert [s["name"] for s in pyhudi.savepoints(spark, str(path))] == ["base"]


# ---- pyhudi clusters, Apache Hudi reads and writes on; Apache Hudi clusters, pyhudi reads


def clusterings(path: Path) -> List[str]:
    out = []
    for f in sorted((path / ".hoodie").iterdir()):
        stem, _, action = f.name.partition(".")
        if action == "replacecommit" and json.loads(f.read_text())["operationType"] == "CLUSTER":
            out.append(stem)
    return out


@pytest.mark.parametrize("table_type", [COW, MOR])
@pytest.mark.parametrize("version", [HUDI_LATEST, HUDI_0X])
def test_apache_hudi_after_a_pyhudi_clustering(
    spark: Any, hudi: Callable[[str], HudiWorker], tmp_path: Path, version: str, table_type: str
) -> None:
    """pyhudi writes small files and clusters them sorted by name; Apache Hudi decodes the plan
    with its own classes, reads every query like pyhudi, and upserts; then Apache Hudi clusters
    inline and pyhudi and hudi-rs read its result."""
    import pyhudi

    h = hudi(version)
    path = tmp_path / "t"
    small = {"hoodie.parquet.small.file.limit": "0"}
    opts = lambda op, **more: t.options("clus", table_type, op, **small, **more)  # noqa: E731
    model = t.Model()
    for step in range(4):
        rows = [t.row(i, 100 * (step + 1), f"s{step}") for i in range(step, 40, 4)]
        t.pyhudi_write(spark, path, rows, opts("insert"))
        model.upsert(rows)
    if table_type == MOR:
        rows = [t.row(i, 900, "u") for i in range(0, 40, 5)]
        t.pyhudi_write(spark, path, rows, opts("upsert"))
        model.upsert(rows)
    instant = pyhudi.cluster(spark, str(path), sort_columns=["name"])
    assert instant and clusterings(path) == [instant]
    plan = h.avro(path / ".hoodie" / f"{instant}.replacecommit.requested", "HoodieRequestedReplaceMetadata")
    assert plan["operationType"] == "CLUSTER" and plan["clusteringPlan"]["inputGroups"]
    context = f"Apache Hudi {version} {table_type} after a pyhudi clustering"
    check_snapshot(spark, h, path, model, context)
    check_queries(spark, h, path, context)

    rows = [t.row(i, 2000, "h") for i in range(0, 48, 3)]
    h.write(path, t.SCHEMA, rows, opts("upsert"))
    model.upsert(rows)
    check_snapshot(spark, h, path, model, f"{context}, Apache Hudi upsert")

    # Apache Hudi clusters inline after its next insert; pyhudi and hudi-rs read what it wrote.
    rows = [t.row(i, 3000, "n") for i in range(50, 70)]
    h.write(
        path,
        t.SCHEMA,
        rows,
        opts(
            "insert",
            **{
                "hoodie.clustering.inline": "true",
                "hoodie.clustering.inline.max.commits": "1",
                "hoodie.clustering.plan.strategy.sort.columns": "name",
            },
        ),
    )
    model.upsert(rows)
    assert len(clusterings(path)) == 2, f"Apache Hudi {version} did not cluster"
    check_snapshot(spark, h, path, model, f"{context}, Apache Hudi clustering")
    more = [t.row(i, 4000, "p") for i in range(0, 70, 7)]
    t.pyhudi_write(spark, path, more, opts("upsert"))
    model.upsert(more)
    check_snapshot(spark, h, path, model, f"{context}, pyhudi upsert after Apache Hudi's clustering")
