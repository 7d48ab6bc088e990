# SPDX-License-Identifier: Apache-2.0
"""Files that a completed instant's commit metadata lists but that are gone from storage.

Deleting the latest base file of a group must not make pyhudi serve the previous slice, deleting
a group's only base file must not silently drop its rows, and deleting the log file of the latest
deltacommit must not revert its update. Reads fail naming the file and the instant that wrote it
(or, with ``hoodie.datasource.read.missing.files=skip``, leave the file's rows out); writes that
would merge into such a slice fail before anything is committed.
"""

import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import harness
import pytest

import pyhudi
from pyhudi import errors
from pyhudi.options import (
    AS_OF_INSTANT,
    BEGIN_INSTANTTIME,
    END_INSTANTTIME,
    MISSING_FILES,
    QUERY_TYPE,
    MissingFiles,
    QueryType,
)

SCHEMA = "id string, part string, ts long, v string"


def _write(spark: Any, path: Path, rows: Sequence[Tuple[str, str, int, str]], table_type: str) -> str:
    """Upserts ``rows`` and returns the instant of the new completed commit."""
    before = set(harness.completed_instants(path)) if path.exists() else set()
    pyhudi.write(
        spark.createDataFrame(list(rows), SCHEMA),
        path,
        table_name="t",
        record_key="id",
        partition_by="part",
        precombine="ts",
        table_type=table_type,
    )
    new = sorted(set(harness.completed_instants(path)) - before)
    assert len(new) == 1, new
    return new[0][0]


def _written(path: Path, instant: str) -> List[Dict[str, Any]]:
    """The write stats (one per file) in the completed instant's commit metadata."""
    (action,) = [a for i, a in harness.completed_instants(path) if i == instant]
    meta = path / ".hoodie" / f"{instant}.{action}"
    stats = json.loads(meta.read_text())["partitionToWriteStats"]
    return [s for ss in stats.values() for s in ss]


def _table_files(path: Path) -> List[str]:
    """Every file and folder outside .hoodie, relative to the base path."""
    return sorted(str(p.relative_to(path)) for p in path.rglob("*") if ".hoodie" not in p.parts)


def _read(spark: Any, path: Path, options: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """id -> v of every row a read returns."""
    return {r["id"]: r["v"] for r in harness.read_table(spark, path, options).collect()}


def _missing_error(spark: Any, path: Path, options: Dict[str, str], file: str, instant: str) -> None:
    with pytest.raises(errors.MissingFileError) as caught:
        with errors.translated():
            harness.read_table(spark, path, options).collect()
    assert caught.value.error_id == "MISSING_FILE"
    assert file in caught.value.message and instant in caught.value.message, caught.value.message


@pytest.fixture
def cow_two_commits(spark, tmp_path) -> Tuple[Path, str, str, str]:
    """COW: c1 inserts a1, a2 (part a) and b1 (part b); c2 updates a1. Returns the table, c1, c2 and
    the relative path of c2's base file, which is then deleted."""
    path = tmp_path / "cow"
    c1 = _write(spark, path, [("a1", "a", 1, "v1"), ("a2", "a", 1, "v1"), ("b1", "b", 1, "v1")], "COPY_ON_WRITE")
    c2 = _write(spark, path, [("a1", "a", 2, "v2")], "COPY_ON_WRITE")
    (stat,) = _written(path, c2)
    assert stat["path"].endswith(f"_{c2}.parquet")
    assert _read(spark, path) == {"a1": "v2", "a2": "v1", "b1": "v1"}
    (path / stat["path"]).unlink()
    return path, c1, c2, stat["path"]


def test_cow_latest_base_file_deleted_fails_every_query(spark, cow_two_commits):
    path, c1, c2, gone = cow_two_commits
    _missing_error(spark, path, {}, gone, c2)
    _missing_error(spark, path, {QUERY_TYPE: QueryType.READ_OPTIMIZED.value}, gone, c2)
    _missing_error(spark, path, {AS_OF_INSTANT: c2}, gone, c2)
    _missing_error(spark, path, {QUERY_TYPE: QueryType.INCREMENTAL.value, BEGIN_INSTANTTIME: c1}, gone, c2)
    # Before c2 the table is whole: time travel and incremental ranges that end at c1 still work.
    assert _read(spark, path, {AS_OF_INSTANT: c1}) == {"a1": "v1", "a2": "v1", "b1": "v1"}
    assert _read(
        spark, path, {QUERY_TYPE: QueryType.INCREMENTAL.value, BEGIN_INSTANTTIME: "000", END_INSTANTTIME: c1}
    ) == {"a1": "v1", "a2": "v1", "b1": "v1"}


def test_skip_leaves_the_missing_files_rows_out_and_never_serves_the_older_slice(spark, cow_two_commits):
    path, _, _, _ = cow_two_commits
    # Not a1 = v1 and a2 = v1 from c1's base file: that slice is no longer the table's content.
    assert _read(spark, path, {MISSING_FILES: MissingFiles.SKIP.value}) == {"b1": "v1"}


def test_only_base_file_of_a_group_deleted(spark, tmp_path):
    path = tmp_path / "cow"
    c1 = _write(spark, path, [("a1", "a", 1, "v1"), ("b1", "b", 1, "v1")], "COPY_ON_WRITE")
    gone = next(s["path"] for s in _written(path, c1) if s["partitionPath"] == "a")
    (path / gone).unlink()
    _missing_error(spark, path, {}, gone, c1)
    _missing_error(spark, path, {AS_OF_INSTANT: c1}, gone, c1)
    _missing_error(spark, path, {QUERY_TYPE: QueryType.INCREMENTAL.value, BEGIN_INSTANTTIME: "000"}, gone, c1)
    assert _read(spark, path, {MISSING_FILES: "SKIP"}) == {"b1": "v1"}
    # Partition pruning keeps the check to the partitions read.
    assert {r["id"] for r in harness.read_table(spark, path).where("part = 'b'").collect()} == {"b1"}


def test_mor_log_file_of_latest_deltacommit_deleted(spark, tmp_path):
    path = tmp_path / "mor"
    c1 = _write(spark, path, [("a1", "a", 1, "v1"), ("a2", "a", 1, "v1")], "MERGE_ON_READ")
    c2 = _write(spark, path, [("a1", "a", 2, "v2")], "MERGE_ON_READ")
    (stat,) = _written(path, c2)
    gone = stat["path"]
    assert ".log." in gone
    assert _read(spark, path) == {"a1": "v2", "a2": "v1"}
    (path / gone).unlink()
    _missing_error(spark, path, {}, gone, c2)
    _missing_error(spark, path, {AS_OF_INSTANT: c2}, gone, c2)
    _missing_error(spark, path, {QUERY_TYPE: QueryType.INCREMENTAL.value, BEGIN_INSTANTTIME: c1}, gone, c2)
    # Read-optimized queries read base files only: the log is not part of what they serve.
    assert _read(spark, path, {QUERY_TYPE: QueryType.READ_OPTIMIZED.value}) == {"a1": "v1", "a2": "v1"}
    assert _read(spark, path, {AS_OF_INSTANT: c1}) == {"a1": "v1", "a2": "v1"}
    # skip: the slice is read without the lost log (its update is gone, with a warning).
    assert _read(spark, path, {MISSING_FILES: MissingFiles.SKIP.value}) == {"a1": "v1", "a2": "v1"}


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_upsert_into_a_table_with_a_missing_file_fails_and_commits_nothing(spark, tmp_path, table_type):
    path = tmp_path / "t"
    _write(spark, path, [("a1", "a", 1, "v1"), ("a2", "a", 1, "v1")], table_type)
    c2 = _write(spark, path, [("a1", "a", 2, "v2")], table_type)
    (stat,) = _written(path, c2)
    (path / stat["path"]).unlink()
    before = harness.completed_instants(path)
    files_before = _table_files(path)
    with pytest.raises(errors.MissingFileError) as caught:
        pyhudi.write(
            spark.createDataFrame([("a2", "a", 3, "v3")], SCHEMA),
            path,
            record_key="id",
            partition_by="part",
            precombine="ts",
        )
    assert caught.value.error_id == "MISSING_FILE"
    assert stat["path"] in caught.value.message and c2 in caught.value.message
    assert harness.completed_instants(path) == before
    assert harness.pending_instants(path) == []
    files_after = _table_files(path)
    assert files_after == files_before


def test_compaction_of_a_slice_with_a_missing_log_fails(spark, tmp_path):
    path = tmp_path / "mor"
    _write(spark, path, [("a1", "a", 1, "v1"), ("a2", "a", 1, "v1")], "MERGE_ON_READ")
    c2 = _write(spark, path, [("a1", "a", 2, "v2")], "MERGE_ON_READ")
    (stat,) = _written(path, c2)
    (path / stat["path"]).unlink()
    before = harness.timeline_files(path)
    with pytest.raises(errors.MissingFileError) as caught:
        pyhudi.compact(spark, str(path))
    assert caught.value.error_id == "MISSING_FILE"
    assert stat["path"] in caught.value.message and c2 in caught.value.message
    assert harness.timeline_files(path) == before


def test_invalid_option_value(spark, cow_two_commits):
    path = cow_two_commits[0]
    with pytest.raises(errors.InvalidOptionError) as caught:
        with errors.translated():
            harness.read_table(spark, path, {MISSING_FILES: "ignore"}).collect()
    assert caught.value.error_id == "INVALID_OPTION_VALUE"
    assert MISSING_FILES in caught.value.message and "ignore" in caught.value.message


@pytest.mark.parametrize("operation", ["insert_overwrite", "delete_partition"])
def test_replacing_a_partition_retires_the_group_that_lost_its_file(spark, tmp_path, operation):
    """Writes that replace file groups without reading them need no lost file: they are the way
    out, and the group that lost its file is retired with the others."""
    path = tmp_path / "cow"
    c1 = _write(spark, path, [("a1", "a", 1, "v1"), ("b1", "b", 1, "v1")], "COPY_ON_WRITE")
    gone = next(s for s in _written(path, c1) if s["partitionPath"] == "a")
    (path / gone["path"]).unlink()
    options = {"hoodie.datasource.write.partitions.to.delete": "a"} if operation == "delete_partition" else {}
    pyhudi.write(
        spark.createDataFrame([("a9", "a", 2, "v9")], SCHEMA),
        path,
        record_key="id",
        partition_by="part",
        precombine="ts",
        operation=operation,
        options=options,
    )
    (c2, action) = harness.completed_instants(path)[-1]
    assert action == "replacecommit"
    replaced = json.loads((path / ".hoodie" / f"{c2}.replacecommit").read_text())["partitionToReplaceFileIds"]
    assert replaced == {"a": [gone["fileId"]]}
    expected = {"b1": "v1"} if operation == "delete_partition" else {"a9": "v9", "b1": "v1"}
    assert _read(spark, path) == expected
