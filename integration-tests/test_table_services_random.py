# SPDX-License-Identifier: Apache-2.0
"""Every table service at once, over many random rounds (issue: table lifecycle).

Copy-on-write and merge-on-read tables take 30+ rounds of random upserts (updates and new
keys), deletes and inserts through ``format("pyhudi")`` with every automatic service on: clean
(``KEEP_LATEST_COMMITS``, 3 commits retained), archival (5/7 commits kept), inline compaction
every 3 delta commits (merge-on-read) and inline clustering sorted by key every 5 commits.
After every round the snapshot equals a model kept by this test (pyhudi and hudi-rs), time
travel to the retained writes equals the model as of them, and every few rounds
``pyhudi validate`` passes. At the end each service must have run: cleans, archived instants,
compactions (merge-on-read) and clustering replacecommits are on disk.
"""

import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import harness
import pytest
import write_support as ws

ROUNDS = 32
RETAINED = 3
KEY_SPACE = 200
COLUMNS = ("key", "part", "ts", "v")
Row = Tuple[str, str, int, str]

SERVICES = {
    "hoodie.clean.automatic": "true",
    "hoodie.clean.policy": "KEEP_LATEST_COMMITS",
    "hoodie.clean.commits.retained": str(RETAINED),
    "hoodie.archive.automatic": "true",
    "hoodie.keep.min.commits": "5",
    "hoodie.keep.max.commits": "7",
    "hoodie.clustering.inline": "true",
    "hoodie.clustering.inline.max.commits": "5",
    "hoodie.clustering.plan.strategy.sort.columns": "key",
}
MOR_SERVICES = {"hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "3"}


def _options(table_type: str) -> Dict[str, str]:
    options = {
        "hoodie.table.name": f"services_{table_type.lower()}",
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.recordkey.field": "key",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        **SERVICES,
        **ws.HEARTBEAT,
    }
    if table_type == "MERGE_ON_READ":
        options.update(MOR_SERVICES)
    return options


def _write(spark: Any, path: Path, rows: List[Row], options: Dict[str, str], operation: str) -> None:
    df = spark.createDataFrame(rows, "key string, part string, ts long, v string").repartition(2)
    df.write.format("pyhudi").options(**options).option("hoodie.datasource.write.operation", operation).mode(
        "append"
    ).save(str(path))


def _read(spark: Any, path: Path, as_of: Optional[str] = None) -> List[Row]:
    options = {"as.of.instant": as_of} if as_of else {}
    return sorted(tuple(r) for r in harness.read_table(spark, path, options).select(*COLUMNS).collect())


def _read_rs(path: Path, as_of: Optional[str] = None) -> List[Row]:
    return sorted(tuple(r[c] for c in COLUMNS) for r in harness.hudi_rs_read(path, as_of=as_of))


def _validate(path: Path, context: str) -> None:
    cli = Path(sys.executable).parent / "pyhudi"
    done = subprocess.run([str(cli), "validate", str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{context}: pyhudi validate failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}"


def _round(rng: random.Random, step: int, model: Dict[str, Row]) -> Tuple[str, List[Row]]:
    """A random write: upsert (updates and new keys), delete of stored keys, or insert of new keys."""
    stored = sorted(model)
    choice = rng.random()
    if step > 0 and choice < 0.2 and stored:
        keys = rng.sample(stored, min(len(stored), rng.randint(1, 12)))
        return "delete", [(k, model[k][1], step, "gone") for k in keys]
    if choice < 0.3:
        fresh = [i for i in range(KEY_SPACE) if f"k{i:03d}" not in model]
        keys = rng.sample(fresh, min(len(fresh), rng.randint(1, 15)))
        return "insert", [(f"k{i:03d}", f"p{i % 6}", step, f"i{step}") for i in keys]
    keys = rng.sample(range(KEY_SPACE), rng.randint(5, 40))
    return "upsert", [(f"k{i:03d}", f"p{i % 6}", step, f"u{step}") for i in keys]


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_random_rounds_with_every_service(spark, tmp_path, table_type):
    path = tmp_path / "table"
    options = _options(table_type)
    rng = random.Random(20261123 + len(table_type))
    model: Dict[str, Row] = {}
    history: Dict[str, List[Row]] = {}
    for step in range(ROUNDS):
        operation, rows = _round(rng, step, model)
        _write(spark, path, rows, options, "bulk_insert" if step == 0 else operation)
        for r in rows:
            if operation == "delete":
                model.pop(r[0], None)
            else:
                model[r[0]] = r
        expected = sorted(model.values())
        writes = [i for i, _ in harness.completed_instants(path)]
        for w in writes:  # the write's instant and the services' instants after it
            history.setdefault(w, expected)
        context = f"{table_type} round {step} ({operation} of {len(rows)})"

        assert _read(spark, path) == expected, f"{context}: pyhudi snapshot"
        assert _read_rs(path) == expected, f"{context}: hudi-rs snapshot"
        for instant in writes[-2:]:
            assert _read(spark, path, instant) == history[instant], f"{context}: pyhudi as of {instant}"
        if step % 8 == 7:
            earliest = writes[max(0, len(writes) - RETAINED)]
            assert _read_rs(path, earliest) == history[earliest], f"{context}: hudi-rs as of {earliest}"
            _validate(path, context)

    timeline = harness.timeline_files(path)
    assert any(n.endswith(".clean") for n in timeline), f"{table_type}: no clean ran"
    assert any(n.endswith(".replacecommit") for n in timeline), f"{table_type}: no clustering ran"
    assert list((path / ".hoodie" / "archived").glob(".commits_.archive.*")), f"{table_type}: nothing archived"
    active_writes = len(harness.completed_instants(path))
    assert active_writes <= 7 + 2, f"{table_type}: {active_writes} writes still active"
    if table_type == "MERGE_ON_READ":
        assert any(n.endswith(".commit") for n in timeline), "merge-on-read: no compaction ran"
    _validate(path, f"{table_type} at the end")
