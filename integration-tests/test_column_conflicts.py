# SPDX-License-Identifier: Apache-2.0
"""Column-level conflicts (``hoodie.write.conflict.granularity=COLUMN``) on a merge-on-read table
under optimistic concurrency control: two writers update other columns of the same keys (so of
the same file groups) in the interleaving "A starts, B starts, A commits, B commits".

Each writer is a thread of the session's Spark held just before its commit
(``io.pyhudi.table.PausePoint``), as in ``test_optimistic_concurrency.py``. Expected outcomes:

* disjoint columns (A sets ``fare``/``fare_ts``, B sets ``tip``/``tip_ts``; with the in-process,
  file-system and ZooKeeper lock providers): both commit; a
  snapshot read, and the same read after compaction, hold both updates and the other columns
  as they were;
* a shared column (B also sets ``fare``): B fails with ``CONCURRENT_WRITE_CONFLICT`` naming A's
  instant, and nothing of it is visible;
* each column group is ordered by its own column: a later-committed update with an older
  ``fare_ts`` leaves ``fare`` as it was, while ``tip`` changes.

hudi-rs reads the partial-column log blocks (Apache Hudi's ``IS_PARTIAL`` header) and agrees
with pyhudi on disjoint columns; it orders them by commit only, so it agrees on ordered column
groups once compaction has stitched them.
"""

from pathlib import Path
from typing import Any, Dict, List, Optional

import harness
import pytest
import write_support as ws

import pyhudi
from pyhudi import errors

FS = "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider"
IN_PROCESS = "org.apache.hudi.client.transaction.lock.InProcessLockProvider"
ZK = "org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider"
SCHEMA = "key string, part string, ts long, fare double, fare_ts long, tip double, tip_ts long"
FARE = "key string, part string, fare double, fare_ts long"
TIP = "key string, part string, tip double, tip_ts long"


def _options(provider: str, ordering: Optional[str] = None, zookeeper: Optional[Any] = None) -> Dict[str, str]:
    """Writer options; under ZooKeeper the lock lives under ``/pyhudi-tests/columns`` of the
    session's server, ``zookeeper`` being its ``(host, port)``."""
    options = {
        "hoodie.table.name": "columns",
        "hoodie.datasource.write.table.type": "MERGE_ON_READ",
        "hoodie.datasource.write.recordkey.field": "key",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        "hoodie.datasource.write.operation": "upsert",
        "hoodie.write.concurrency.mode": "OPTIMISTIC_CONCURRENCY_CONTROL",
        "hoodie.write.conflict.granularity": "COLUMN",
        "hoodie.write.lock.provider": provider,
        "hoodie.write.lock.wait_time_ms": "5000",
        "hoodie.write.lock.num_retries": "2",
        "hoodie.clean.automatic": "false",
        "hoodie.compact.inline": "false",
    }
    if ordering:
        options["hoodie.write.partial.ordering.field"] = ordering
    if provider == ZK:
        host, port = zookeeper
        options.update(
            {
                "hoodie.write.lock.zookeeper.url": host,
                "hoodie.write.lock.zookeeper.port": str(port),
                "hoodie.write.lock.zookeeper.base_path": "/pyhudi-tests/columns",
            }
        )
    return options


KEYS = 20
UPDATED = range(0, 10)


def _seed(spark: Any, path: Path, provider: str, zookeeper: Optional[Any] = None) -> None:
    rows = [(f"k{i}", f"p{i % 2}", 1, 10.0 + i, 1, 1.0, 1) for i in range(KEYS)]
    options = _options(provider, zookeeper=zookeeper)
    spark.createDataFrame(rows, SCHEMA).write.format("pyhudi").options(**options).mode("append").save(str(path))


def _table(spark: Any, path: Path) -> Dict[str, Dict[str, Any]]:
    rows = ws.pyhudi_rows(spark, path)

    def value(r: Dict[str, Any], c: str) -> Any:  # the harness normalises doubles to text
        return float(r[c]) if c in ("fare", "tip") and r[c] is not None else r[c]

    table = {r["key"]: {c: value(r, c) for c in ("part", "ts", "fare", "fare_ts", "tip", "tip_ts")} for r in rows}
    assert len(table) == len(rows) == KEYS, "a key is missing or appears twice"
    return table


def _deltacommits(path: Path) -> List[str]:
    return sorted(f.name for f in (path / ".hoodie").iterdir() if f.name.endswith(".deltacommit"))


@pytest.mark.parametrize("provider", [IN_PROCESS, FS, ZK])
def test_disjoint_columns_of_one_file_group_both_commit(spark, tmp_path, request, provider):
    path = tmp_path / "t"
    zk = request.getfixturevalue("zookeeper") if provider == ZK else None
    _seed(spark, path, provider, zk)
    fares = [(f"k{i}", f"p{i % 2}", 100.0 + i, 5) for i in UPDATED]
    tips = [(f"k{i}", f"p{i % 2}", 7.0 + i, 3) for i in UPDATED]
    a = ws.PausedWriter(spark, path, tmp_path / "a", _options(provider, "fare_ts", zk), fares, FARE).started()
    b = ws.PausedWriter(spark, path, tmp_path / "b", _options(provider, "tip_ts", zk), tips, TIP).started()
    assert a.commit() == "committed"
    assert b.commit() == "committed"
    assert len(_deltacommits(path)) == 3

    def expected(i: int) -> Dict[str, Any]:
        if i in UPDATED:
            return {"part": f"p{i % 2}", "ts": 1, "fare": 100.0 + i, "fare_ts": 5, "tip": 7.0 + i, "tip_ts": 3}
        return {"part": f"p{i % 2}", "ts": 1, "fare": 10.0 + i, "fare_ts": 1, "tip": 1.0, "tip_ts": 1}

    want = {f"k{i}": expected(i) for i in range(KEYS)}
    assert _table(spark, path) == want
    ws.assert_readers_agree(spark, path, "two partial-column commits")
    # Reading some columns only still merges by column: the ordering columns are read as well.
    pruned = harness.spark_rows(harness.read_table(spark, path).select("key", "tip"))
    assert {r["key"]: float(r["tip"]) for r in pruned} == {k: v["tip"] for k, v in want.items()}
    # Compaction stitches the columns into new base files; the read is the same.
    assert pyhudi.compact(spark, str(path)) is not None
    assert _table(spark, path) == want
    logs = [p for p in path.rglob("*.log.*") if ".hoodie" not in p.parts]
    bases = [p for p in path.rglob("*.parquet") if ".hoodie" not in p.parts]
    assert logs and bases, "the table has log files and base files"


def test_a_shared_column_conflicts_and_the_loser_leaves_nothing(spark, tmp_path):
    path = tmp_path / "t"
    _seed(spark, path, IN_PROCESS)
    before = _table(spark, path)
    fares = [(f"k{i}", f"p{i % 2}", 100.0 + i, 5) for i in UPDATED]
    both = [(f"k{i}", f"p{i % 2}", 200.0 + i, 6, 9.0, 6) for i in UPDATED]
    options = _options(IN_PROCESS, "fare_ts")
    a = ws.PausedWriter(spark, path, tmp_path / "a", options, fares, FARE).started()
    b = ws.PausedWriter(
        spark,
        path,
        tmp_path / "b",
        options,
        both,
        "key string, part string, fare double, fare_ts long, tip double, tip_ts long",
    ).started()
    assert a.commit() == "committed"
    outcome = b.commit()
    assert isinstance(outcome, errors.WriteConflictError), outcome
    assert outcome.error_id == "CONCURRENT_WRITE_CONFLICT", outcome
    a_instant = _deltacommits(path)[-1].split(".")[0]
    assert a_instant in str(outcome), str(outcome)
    after = _table(spark, path)
    for i in range(KEYS):
        row = dict(before[f"k{i}"])
        if i in UPDATED:
            row.update(fare=100.0 + i, fare_ts=5)
        assert after[f"k{i}"] == row, f"k{i}: only A's update is visible"


def test_each_column_group_is_ordered_by_its_own_column(spark, tmp_path):
    path = tmp_path / "t"
    _seed(spark, path, IN_PROCESS)

    def write(schema: str, rows: List[Any], ordering: str) -> None:
        df = spark.createDataFrame(rows, schema)
        df.write.format("pyhudi").options(**_options(IN_PROCESS, ordering)).mode("append").save(str(path))

    write(FARE, [("k0", "p0", 50.0, 9)], "fare_ts")
    # Committed later but older by fare_ts: fare stays; tip (its own group) still changes.
    write(FARE, [("k0", "p0", 40.0, 8)], "fare_ts")
    write(TIP, [("k0", "p0", 4.0, 2)], "tip_ts")
    want = {"part": "p0", "ts": 1, "fare": 50.0, "fare_ts": 9, "tip": 4.0, "tip_ts": 2}
    assert _table(spark, path)["k0"] == want
    # hudi-rs applies partial-column blocks in commit order only (docs/concurrency.md) ...
    theirs = next(r for r in harness.hudi_rs_read(path) if r["key"] == "k0")
    assert (float(theirs["fare"]), theirs["fare_ts"]) == (40.0, 8)
    # ... and reads what compaction stitched as pyhudi does.
    pyhudi.compact(spark, str(path))
    assert _table(spark, path)["k0"] == want
    ws.assert_readers_agree(spark, path, "ordered column groups, compacted")
    # After compaction the stored fare_ts still orders the group.
    write(FARE, [("k0", "p0", 45.0, 8)], "fare_ts")
    assert _table(spark, path)["k0"] == want


def test_a_partial_input_is_refused_without_column_granularity(spark, tmp_path):
    path = tmp_path / "t"
    _seed(spark, path, IN_PROCESS)
    before = sorted(p.name for p in (path / ".hoodie").iterdir())
    options = {**_options(IN_PROCESS), "hoodie.write.conflict.granularity": "FILE_GROUP"}
    df = spark.createDataFrame([("k0", "p0", 2, 1.0, 2)], "key string, part string, ts long, tip double, tip_ts long")
    with pytest.raises(errors.PyhudiError) as e:
        with errors.translated():
            df.write.format("pyhudi").options(**options).mode("append").save(str(path))
    assert e.value.error_id == "MISSING_TABLE_COLUMNS", e.value
    assert "fare" in str(e.value), str(e.value)
    assert sorted(p.name for p in (path / ".hoodie").iterdir()) == before, "nothing was committed"
