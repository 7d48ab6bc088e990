# SPDX-License-Identifier: Apache-2.0
"""The ``pyhudi`` command (python/pyhudi/cli), run as the installed console script.

On every corpus table the command must report what hudi-rs and the table's own files say:
validate passes, the completed instants are the expected ones, the latest file slices are the
ones hudi-rs serves, and the footers' row counts add up to the rows of a read-optimized read. The
same holds for tables pyhudi writes (copy-on-write, merge-on-read with log files, compaction,
a pending compaction). Damaged copies (a deleted base file, a truncated log block, an orphan
parquet file, a bloom filter missing keys, a commit file that is not JSON) fail validate with exit
code 1, naming the file.
"""

import base64
import io
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import fastavro
import harness
import pyarrow.parquet as pq
import pytest

import pyhudi

PYHUDI = Path(sys.executable).parent / "pyhudi"
TABLES = harness.table_names()
WRITE_ACTIONS = ("commit", "deltacommit", "replacecommit")
SCHEMA = "id string, part string, ts long, v string"


def run(*args: str, code: int = 0) -> subprocess.CompletedProcess:
    """Runs the console script; asserts its exit code."""
    done = subprocess.run([str(PYHUDI), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == code, f"pyhudi {' '.join(args)} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def run_json(*args: str, code: int = 0) -> Dict[str, Any]:
    return json.loads(run(*args, "--json", code=code).stdout)


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A temporary folder removed after the test."""
    path = Path(tempfile.mkdtemp(prefix="pyhudi-cli-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def copy_table(corpus: Dict[str, Path], name: str, workdir: Path) -> Path:
    target = workdir / name.replace("/", "_")
    shutil.copytree(corpus[name], target)
    return target


# ------------------------------------------------------------------------------------------
# What other readers and the table's files say


def hudi_rs_latest_slices(path: Path) -> Set[Tuple[str, str, Optional[str], Tuple[str, ...]]]:
    """(partition, file id, base file name, log file names) of every slice hudi-rs serves."""
    from hudi import HudiTableBuilder

    slices = HudiTableBuilder.from_base_uri(str(path)).build().get_file_slices()
    return {(s.partition_path, s.file_id, s.base_file_name or None, tuple(s.log_file_names)) for s in slices}


def cli_latest_slices(doc: Dict[str, Any]) -> Set[Tuple[str, str, Optional[str], Tuple[str, ...]]]:
    return {
        (
            g["partition"],
            g["file_id"],
            s["base_file"]["name"] if s["base_file"] else None,
            tuple(lg["name"] for lg in s["log_files"]),
        )
        for g in doc["file_groups"]
        for s in g["slices"]
        if s["state"] == "latest"
    }


def file_ids(file_names: List[Optional[str]]) -> Set[str]:
    """File ids of ``_hoodie_file_name`` values: a base file name, or the bare file id in log records."""
    return {name.split("_")[0] for name in file_names if name}


def assert_consistent(path: Path, read_optimized_rows: int, snapshot_file_names: List[Optional[str]]) -> None:
    """validate, timeline, file-groups and stats agree with hudi-rs and the table's files."""
    assert run("validate", str(path)).stdout.startswith("ok"), path
    assert run_json("validate", str(path))["ok"] is True

    timeline = run_json("timeline", str(path))
    completed = [
        (i["instant"], i["action"])
        for i in timeline["instants"]
        if i["state"] == "completed" and i["action"] in WRITE_ACTIONS
    ]
    assert completed == harness.completed_instants(path)
    stems = {name.split(".")[0] for name in harness.timeline_files(path) if name.split(".")[0].isdigit()}
    assert [i["instant"] for i in timeline["instants"]] == sorted(stems)
    text = run("timeline", str(path)).stdout
    assert all(i in text for i in stems), text

    groups = run_json("file-groups", str(path))
    assert cli_latest_slices(groups) == hudi_rs_latest_slices(path)
    if any(snapshot_file_names):
        # Every group still holds a row in these tables, so the counts agree.
        assert len(groups["file_groups"]) == len(file_ids(snapshot_file_names))
    text = run("file-groups", str(path)).stdout
    assert all(g["file_id"] in text for g in groups["file_groups"]), text

    stats = run_json("stats", str(path))
    total = stats["total"]
    assert total["file_groups"] == len(groups["file_groups"])
    assert total["records"] == read_optimized_rows
    latest = [s for g in groups["file_groups"] for s in g["slices"] if s["state"] == "latest"]
    assert total["base_bytes"] == sum(s["base_file"]["size"] for s in latest if s["base_file"])
    assert total["log_files"] == sum(len(s["log_files"]) for s in latest)
    assert total["small_files"] == total["base_files"]  # every test file is far below 100 MB
    assert sum(p["records"] for p in stats["partitions"]) == total["records"]


# ------------------------------------------------------------------------------------------
# Packaging


def test_import_and_help_need_neither_pyspark_nor_pyarrow_nor_fastavro():
    blocked = "import sys\nfor m in ('pyspark', 'pyarrow', 'fastavro'):\n    sys.modules[m] = None\n"
    code = blocked + "import pyhudi, pyhudi.cli\nsys.exit(pyhudi.cli.main(['--version']))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == f"pyhudi {pyhudi.__version__}", done.stderr


def test_python_dash_m_runs_the_same_command(corpus):
    path = str(corpus["cow/v6_nonpartitioned"])
    done = subprocess.run([sys.executable, "-m", "pyhudi", "timeline", path, "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == run_json("timeline", path)


def test_not_a_table_and_unknown_instant_exit_2(corpus, workdir):
    done = run("timeline", str(workdir), code=2)
    assert "not a Hudi table" in done.stderr
    assert "error" in run_json("show", str(corpus["cow/v6_nonpartitioned"]), "20990101000000000", code=2)


# ------------------------------------------------------------------------------------------
# Corpus


@pytest.mark.parametrize("name", TABLES)
def test_corpus_table(corpus, name):
    expected = harness.load_expected(name)
    assert [list(i) for i in harness.completed_instants(corpus[name])] == expected["completed_instants"]
    rows = expected.get("read_optimized", expected["snapshot"])
    assert_consistent(corpus[name], len(rows), [r.get("_hoodie_file_name") for r in expected["snapshot"]])


@pytest.mark.parametrize("name", TABLES)
def test_show_every_instant_matches_its_file(corpus, name):
    path = corpus[name]
    for instant, action in harness.completed_instants(path):
        doc = run_json("show", str(path), instant)
        raw = json.loads((path / ".hoodie" / f"{instant}.{action}").read_text())
        stats = [s for ss in raw["partitionToWriteStats"].values() for s in ss]
        assert doc["files"] == len(stats)
        assert doc["records_written"] == sum(s["numWrites"] for s in stats)
        assert doc["operation"] == raw["operationType"]
        shown = {s["path"] for ss in doc["partitions"].values() for s in ss}
        assert shown == {s["path"] for s in stats}
        text = run("show", str(path), instant).stdout
        assert all(s["fileId"] in text for s in stats), text


def test_rollback_instant_lists_what_it_did(corpus):
    path = corpus["mor/v6_nonpartitioned_rollback"]
    timeline = run_json("timeline", str(path))
    (rollback,) = [i for i in timeline["instants"] if i["action"] == "rollback"]
    assert rollback["note"] == "rolled back 20250126040826878"
    doc = run_json("show", str(path), rollback["instant"])
    roles = {(f["file"], f["role"]) for f in doc["files"]}
    assert (".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.2_1-0-1", "rollback log") in roles
    assert any(role == "deleted" and file.endswith("_20250126040826878.parquet") for file, role in roles)


def test_replaced_groups_hidden_unless_asked(corpus):
    path = str(corpus["cow/v6_simplekeygen_nonhivestyle_overwritetable"])
    shown = run_json("file-groups", path)["file_groups"]
    everything = run_json("file-groups", path, "--include-replaced")["file_groups"]
    assert len(shown) == 1 and len(everything) == 4
    assert sum(g["replaced"] for g in everything) == 3
    assert run_json("file-groups", path, "--partition", "10")["file_groups"] == []


def test_all_slices_shows_older_versions(corpus):
    path = corpus["cow/v6_simplekeygen_nonhivestyle"]
    doc = run_json("file-groups", str(path), "--all-slices", "--partition", "10")
    (group,) = doc["file_groups"]
    names = sorted((p.name for p in (path / "10").glob("*.parquet")), key=lambda n: n.rsplit("_", 1)[1])
    assert [s["base_file"]["name"] for s in group["slices"]] == names
    assert [s["state"] for s in group["slices"]] == ["older", "latest"]


def test_savepoints(corpus, workdir):
    path = copy_table(corpus, "cow/v6_simplekeygen_nonhivestyle", workdir)
    assert run_json("savepoints", str(path))["savepoints"] == []
    assert run("savepoints", str(path)).stdout.strip() == "(no savepoints)"
    latest, _ = harness.completed_instants(path)[-1]
    files: Dict[str, List[str]] = {}
    for slice_ in run_json("file-groups", str(path))["file_groups"]:
        files.setdefault(slice_["partition"], []).append(slice_["slices"][0]["base_file"]["name"])
    assert SAVEPOINT_TIME > latest
    write_savepoint(path / ".hoodie", files)
    doc = run_json("savepoints", str(path))
    (sp,) = doc["savepoints"]
    assert sp["instant"] == SAVEPOINT_TIME and sp["state"] == "completed"
    assert (sp["savepointed_by"], sp["comments"], sp["savepointed_at"]) == ("alice", "before the backfill", 1713461000)
    assert sp["savepointed_at_iso"] == "2024-04-18T17:23:20.000Z"
    assert sp["files"] == sum(len(v) for v in files.values())
    assert "alice" in run("savepoints", str(path)).stdout
    shown = run_json("show", str(path), SAVEPOINT_TIME)
    assert {f["file"] for f in shown["files"]} == {n for v in files.values() for n in v}
    assert run_json("validate", str(path))["ok"] is True


SAVEPOINT_TIME = "20240418172805000"
SAVEPOINT_SCHEMA = {
    "type": "record",
    "name": "HoodieSavepointMetadata",
    "namespace": "org.apache.hudi.avro.model",
    "fields": [
        {"name": "savepointedBy", "type": "string"},
        {"name": "savepointedAt", "type": "long"},
        {"name": "comments", "type": "string"},
        {
            "name": "partitionMetadata",
            "type": {
                "type": "map",
                "values": {
                    "type": "record",
                    "name": "HoodieSavepointPartitionMetadata",
                    "fields": [
                        {"name": "partitionPath", "type": "string"},
                        {"name": "savepointDataFile", "type": {"type": "array", "items": "string"}},
                    ],
                },
            },
        },
        {"name": "version", "type": ["int", "null"], "default": 1},
    ],
}


def write_savepoint(hoodie: Path, files: Dict[str, List[str]]) -> None:
    """A completed savepoint of ``files`` as Hudi records it: empty inflight file, Avro metadata."""
    record = {
        "savepointedBy": "alice",
        "savepointedAt": 1713461000,
        "comments": "before the backfill",
        "partitionMetadata": {p: {"partitionPath": p, "savepointDataFile": names} for p, names in files.items()},
        "version": 1,
    }
    (hoodie / f"{SAVEPOINT_TIME}.savepoint.inflight").write_bytes(b"")
    out = io.BytesIO()
    fastavro.writer(out, fastavro.parse_schema(SAVEPOINT_SCHEMA), [record])
    (hoodie / f"{SAVEPOINT_TIME}.savepoint").write_bytes(out.getvalue())


CLEAN_SCHEMA = {
    "type": "record",
    "name": "HoodieCleanMetadata",
    "namespace": "org.apache.hudi.avro.model",
    "fields": [
        {"name": "startCleanTime", "type": "string"},
        {"name": "timeTakenInMillis", "type": "long"},
        {"name": "totalFilesDeleted", "type": "int"},
        {"name": "earliestCommitToRetain", "type": "string"},
        {
            "name": "partitionMetadata",
            "type": {
                "type": "map",
                "values": {
                    "type": "record",
                    "name": "HoodieCleanPartitionMetadata",
                    "fields": [
                        {"name": "partitionPath", "type": "string"},
                        {"name": "policy", "type": "string"},
                        {"name": "deletePathPatterns", "type": {"type": "array", "items": "string"}},
                        {"name": "successDeleteFiles", "type": {"type": "array", "items": "string"}},
                        {"name": "failedDeleteFiles", "type": {"type": "array", "items": "string"}},
                    ],
                },
            },
        },
        {"name": "version", "type": ["int", "null"], "default": 1},
    ],
}


def test_cleaned_older_slice_is_valid_and_the_clean_is_shown(corpus, workdir):
    path = copy_table(corpus, "cow/v6_simplekeygen_nonhivestyle", workdir)
    older = next((path / "10").glob("*_20240418172802262.parquet"))
    older.unlink()
    clean_time = "20240418172806000"
    record = {
        "startCleanTime": clean_time,
        "timeTakenInMillis": 12,
        "totalFilesDeleted": 1,
        "earliestCommitToRetain": "20240418172804498",
        "partitionMetadata": {
            "10": {
                "partitionPath": "10",
                "policy": "KEEP_LATEST_COMMITS",
                "deletePathPatterns": [older.name],
                "successDeleteFiles": [older.name],
                "failedDeleteFiles": [],
            }
        },
        "version": 2,
    }
    out = io.BytesIO()
    fastavro.writer(out, fastavro.parse_schema(CLEAN_SCHEMA), [record])
    (path / ".hoodie" / f"{clean_time}.clean").write_bytes(out.getvalue())
    assert run_json("validate", str(path))["ok"] is True
    (clean,) = [i for i in run_json("timeline", str(path))["instants"] if i["action"] == "clean"]
    assert clean["note"] == "deleted 1 files, retaining from 20240418172804498"
    assert run_json("show", str(path), clean_time)["files"] == [
        {"partition": "10", "file": older.name, "role": "deleted", "size": None}
    ]
    groups = run_json("file-groups", str(path), "--all-slices", "--partition", "10")["file_groups"]
    assert [s["state"] for s in groups[0]["slices"]] == ["latest"]


def test_small_file_limit_from_table_config(corpus, workdir):
    path = copy_table(corpus, "mor/v6_trips_8i1u", workdir)
    sizes = sorted(p.stat().st_size for p in path.glob("*/*.parquet"))
    limit = sizes[1]  # strictly smaller: only the smallest file (the sizes differ)
    assert sizes[0] < limit
    with open(path / ".hoodie" / "hoodie.properties", "a", encoding="utf-8") as f:
        f.write(f"hoodie.parquet.small.file.limit={limit}\n")
    stats = run_json("stats", str(path))
    assert stats["small_file_limit"] == limit
    assert stats["total"]["small_files"] == sum(size < limit for size in sizes) == 1


# ------------------------------------------------------------------------------------------
# Damaged copies


def assert_invalid(path: Path, check: str, file: Path, words: str) -> None:
    done = run("validate", str(path), code=1)
    assert str(file) in done.stdout and words in done.stdout, done.stdout
    doc = run_json("validate", str(path), code=1)
    assert (doc["ok"], doc["check"], doc["file"]) == (False, check, str(file)), doc
    assert words in doc["problem"], doc


def test_deleted_base_file(corpus, workdir):
    path = copy_table(corpus, "cow/v6_simplekeygen_nonhivestyle", workdir)
    latest = [p for p in (path / "10").glob("*.parquet") if p.name.endswith("_20240418172804498.parquet")]
    latest[0].unlink()
    assert_invalid(path, "missing-file", latest[0], "does not exist")


def test_deleted_log_file(corpus, workdir):
    path = copy_table(corpus, "mor/v6_trips_8i1u", workdir)
    (log,) = path.glob("*/.*.log.*")
    log.unlink()
    assert_invalid(path, "missing-file", log, "log file of the latest slice")


def test_truncated_log_block(corpus, workdir):
    path = copy_table(corpus, "mor/v6_trips_8i1u", workdir)
    (log,) = path.glob("*/.*.log.*")
    data = log.read_bytes()
    log.write_bytes(data[:-10])
    assert_invalid(path, "log-block", log, "truncated")


def test_log_block_with_bad_trailing_length(corpus, workdir):
    path = copy_table(corpus, "mor/v6_nonpartitioned_rollback", workdir)
    log = next(path.glob(".*.log.2_*"))  # the 105-byte rollback command block
    data = bytearray(log.read_bytes())
    data[-1] ^= 0x01
    log.write_bytes(bytes(data))
    assert_invalid(path, "log-block", log, "trailing length")


def test_orphan_parquet_file(corpus, workdir):
    path = copy_table(corpus, "cow/v6_nonpartitioned", workdir)
    source = next(path.glob("*.parquet"))
    orphan = path / f"{source.name.split('_')[0]}_0-1-1_20990101000000000.parquet"
    shutil.copyfile(source, orphan)
    # While its instant is pending the file belongs to a running (or failed, not yet rolled back) write.
    pending = [path / ".hoodie" / "20990101000000000.commit.requested", path / ".hoodie" / "20990101000000000.inflight"]
    for f in pending:
        f.write_bytes(b"")
    assert run_json("validate", str(path))["ok"] is True
    assert [i["state"] for i in run_json("timeline", str(path))["instants"]][-1] == "inflight"
    for f in pending:
        f.unlink()
    assert_invalid(path, "orphan-file", orphan, "orphan base file")


def test_data_file_of_an_archived_instant_is_not_an_orphan(corpus, workdir):
    path = copy_table(corpus, "cow/v6_nonpartitioned", workdir)
    source = next(path.glob("*.parquet"))
    shutil.copyfile(source, path / f"{source.name.split('_')[0]}_0-1-1_20200101000000000.parquet")
    assert run_json("validate", str(path))["ok"] is True


def test_corrupted_bloom_filter(corpus, workdir):
    path = copy_table(corpus, "cow/v6_simplekeygen_nonhivestyle", workdir)
    target = next((path / "20").glob("*.parquet"))
    table = pq.read_table(target)
    meta = dict(table.schema.metadata)
    raw = bytearray(base64.b64decode(meta[b"org.apache.hudi.bloomfilter"]))
    header = 13 + 12 + 13  # DYNAMIC_V0 header, row count fields, then the row's own header
    raw[header:] = bytes(len(raw) - header)  # clear every bit: no key is in the filter any more
    meta[b"org.apache.hudi.bloomfilter"] = base64.b64encode(bytes(raw))
    pq.write_table(table.replace_schema_metadata(meta), target)
    assert_invalid(path, "bloom-filter", target, "does not contain record key")


def test_bloom_filter_that_does_not_decode(corpus, workdir):
    path = copy_table(corpus, "mor/v6_trips_8i3d", workdir)
    target = next((path / "city=chennai").glob("*.parquet"))
    table = pq.read_table(target)
    meta = dict(table.schema.metadata)
    meta[b"org.apache.hudi.bloomfilter"] = meta[b"org.apache.hudi.bloomfilter"][:100]
    pq.write_table(table.replace_schema_metadata(meta), target)
    assert_invalid(path, "bloom-filter", target, "does not decode")


def test_commit_file_that_is_not_json(corpus, workdir):
    path = copy_table(corpus, "mor/v6_nonpartitioned", workdir)
    commit = path / ".hoodie" / "20250117083136333.deltacommit"
    commit.write_text('{"partitionToWriteStats": ')
    assert_invalid(path, "timeline", commit, "not valid JSON")


# ------------------------------------------------------------------------------------------
# Tables pyhudi writes


def _write(
    spark: Any, path: Path, rows: List[Tuple[str, str, int, str]], table_type: str, operation: str = "upsert"
) -> None:
    pyhudi.write(
        spark.createDataFrame(rows, SCHEMA),
        path,
        table_name="cli",
        record_key="id",
        partition_by="part",
        precombine="ts",
        table_type=table_type,
        operation=operation,
    )


def _check_written(spark: Any, path: Path) -> None:
    snapshot = harness.read_table(spark, path).select("_hoodie_file_name").collect()
    ro = harness.read_table(spark, path, {"hoodie.datasource.query.type": "read_optimized"}).count()
    assert_consistent(path, ro, [r[0] for r in snapshot])


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_written_tables(spark, workdir, table_type):
    path = workdir / table_type.lower()
    _write(spark, path, [(f"k{i}", f"p{i % 3}", i, "a") for i in range(30)], table_type, "bulk_insert")
    _check_written(spark, path)
    _write(spark, path, [(f"k{i}", f"p{i % 3}", 100 + i, "b") for i in range(0, 30, 4)], table_type)
    _write(spark, path, [(f"k{i}", f"p{i % 3}", 200 + i, "c") for i in range(1, 30, 7)], table_type, "delete")
    _check_written(spark, path)
    groups = run_json("file-groups", str(path))["file_groups"]
    logs = sum(len(s["log_files"]) for g in groups for s in g["slices"])
    assert (logs > 0) == (table_type == "MERGE_ON_READ"), groups
    timeline = run_json("timeline", str(path))["instants"]
    assert [i["operation"] for i in timeline] == ["BULK_INSERT", "UPSERT", "DELETE"]
    assert timeline[1]["records_updated"] == 8 and timeline[2]["records_deleted"] == 5
    if table_type == "MERGE_ON_READ":
        _compact_then_schedule(spark, path)


def _compact_then_schedule(spark: Any, path: Path) -> None:
    compaction = pyhudi.compact(spark, str(path))
    assert compaction is not None
    _check_written(spark, path)
    (entry,) = [i for i in run_json("timeline", str(path))["instants"] if i["instant"] == compaction]
    assert (entry["action"], entry["requested_action"], entry["operation"]) == ("commit", "compaction", "COMPACT")
    stats = run_json("stats", str(path))["total"]
    assert stats["log_files"] == 0 and stats["log_base_ratio"] == 0

    _write(spark, path, [("k2", "p2", 500, "d"), ("k5", "p2", 500, "d")], "MERGE_ON_READ")
    pending = pyhudi.schedule_compaction(spark, str(path))
    assert pending is not None
    _check_written(spark, path)  # the pending compaction changes no latest slice
    groups = run_json("file-groups", str(path))["file_groups"]
    planned = [g for g in groups if any(s["state"] == "pending compaction" for s in g["slices"])]
    assert planned and all(
        s["base_instant"] == pending and s["base_file"] is None
        for g in planned
        for s in g["slices"]
        if s["state"] == "pending compaction"
    )
    (entry,) = [i for i in run_json("timeline", str(path))["instants"] if i["instant"] == pending]
    assert entry["state"] == "requested" and entry["note"] == f"plans {len(planned)} file slices"
    plan = run_json("show", str(path), pending)
    assert {f["role"] for f in plan["files"]} == {"base to compact", "log to compact"}

    # A plan naming a log file that is gone: validate names it.
    planned_log = next(f for f in plan["files"] if f["role"] == "log to compact")
    log = path / planned_log["partition"] / planned_log["file"]
    log.unlink()
    assert_invalid(path, "missing-file", log, "does not exist")
