# SPDX-License-Identifier: Apache-2.0
"""Randomized differential test of merge-on-read writes and compaction.

The structure of ``test_write_differential.py`` on ``MERGE_ON_READ`` tables: per index type
and seed, a sequence of writes (bulk_insert, insert, upsert with in-batch duplicates, delete of
existing and unknown keys, insert_overwrite, and for global indexes upserts that move records
between partitions) goes into one table with a complex key, two partition columns and a column
of every corpus type. Inline compaction is on (``hoodie.compact.inline.max.delta.commits=3``)
and one explicit ``pyhudi.compact`` runs in the middle of the sequence.

After every write: pyhudi snapshot == hudi-rs snapshot == model (data and meta columns), and the
read_optimized view (pyhudi == hudi-rs) holds only versions the table has had, including every
record the model knows to be in a base file. After every compaction read_optimized == snapshot
== model. At the end: time travel to every completed instant (compactions included) and
incremental reads between consecutive instants, against the model and hudi-rs.

Precombine values grow from write to write (see ``write_support.GrowingTsRowGen``), so Java
Hudi's and hudi-rs' log merge rules give the same table.

Seeds: seed 1 runs every index type, seed 2 a rotating pair (the budget of the suite on two
cores); seeds in ``$PYHUDI_SEEDS`` (comma-separated) run every index type, e.g.
``PYHUDI_SEEDS=3,4 python -m pytest integration-tests/test_mor_differential.py``.
A failure names the seed, index type and write; rerun one case with ``-k "BLOOM-seed1"``.
"""

import os
import random
from pathlib import Path
from typing import Any, Dict, List, Optional

import harness
import pytest
import write_support as ws

import pyhudi
from pyhudi import IndexType, TableType, WriteOperation
from pyhudi.options import BUCKET_INDEX_NUM_BUCKETS, CLEAN_AUTOMATIC, HIVE_STYLE_PARTITIONING

INDEXES = list(IndexType)
EXTRA_SEEDS = sorted({int(s) for s in os.environ.get("PYHUDI_SEEDS", "").split(",") if s.strip()} - {1, 2})
CASES = (
    [(index, 1) for index in INDEXES]
    + [(IndexType.GLOBAL_SIMPLE, 2), (IndexType.BUCKET, 2)]
    + [(index, seed) for seed in EXTRA_SEEDS for index in INDEXES]
)

# After the first bulk_insert, each sequence shuffles these writes.
WRITES = ["insert", "upsert", "upsert", "delete", "insert_overwrite", "upsert", "bulk_insert"]
INLINE_MAX_DELTA_COMMITS = 3
# The final checks time travel to every instant and read incrementally from the first one; with
# compactions the sequence passes the 10 commits automatic clean retains, so clean is off here
# (test_clean.py covers reads within the retained window).
NO_CLEAN = {CLEAN_AUTOMATIC: "false"}
BUCKETS = 2
COLUMNS = ws.COLUMNS + list(ws.MODEL_META)


def _hive_style(index: IndexType, seed: int) -> bool:
    return (INDEXES.index(index) + seed) % 2 == 1


class MorSequence(ws.Batches):
    """One merge-on-read table, its model and the generator of write batches."""

    UPSERT_UPDATES = (6, 12)

    def __init__(self, spark: Any, path: Path, index: IndexType, seed: int) -> None:
        self.spark = spark
        self.path = path
        self.index = index
        self.seed = seed
        self.rng = random.Random(seed * 1000 + INDEXES.index(index) + 500)
        self.gen = ws.GrowingTsRowGen(self.rng)
        self.hive = _hive_style(index, seed)
        self.model = ws.MorTableModel(index.is_global, self.hive, bucket_index=index is IndexType.BUCKET)
        self.tag = f"seed={seed} index={index.value} hive={self.hive}"
        self.log: List[str] = []

    # ---- compaction bookkeeping

    def deltacommits_since_compaction(self) -> int:
        last = self.model.compactions[-1] if self.model.compactions else ""
        return sum(1 for i, a in harness.completed_instants(self.path) if a == "deltacommit" and i > last)

    # ---- writing and checking

    def write(self, op: str, rows: List[ws.Row], step: int) -> None:
        context = f"{self.tag} write#{step} {op}"
        self.log.append(f"{context}: {len(rows)} rows")
        before = harness.completed_instants(self.path)
        df = self.spark.createDataFrame(rows, ws.SCHEMA)
        options: Dict[str, Any] = {
            HIVE_STYLE_PARTITIONING: self.hive,
            **ws.LATEST_WINS,
            "hoodie.compact.inline": "true",
            "hoodie.compact.inline.max.delta.commits": str(INLINE_MAX_DELTA_COMMITS),
            **NO_CLEAN,
        }
        if self.index is IndexType.BUCKET:
            options[BUCKET_INDEX_NUM_BUCKETS] = BUCKETS
        pyhudi.write(
            df,
            self.path,
            table_name=f"mor_{self.index.value.lower()}_{self.seed}",
            record_key=list(ws.KEY_FIELDS),
            partition_by=list(ws.PARTITION_FIELDS),
            precombine=ws.PRECOMBINE,
            operation=WriteOperation(op),
            index_type=self.index,
            table_type=TableType.MERGE_ON_READ,
            options=options,
        )
        added = ws.new_instants(self.path, before, context)
        action = "replacecommit" if op == "insert_overwrite" else "deltacommit"
        assert added and added[0][1] == action, f"{context}: expected a {action} first, the write added {added}"
        assert len(added) <= 2 and all(a == "commit" for _, a in added[1:]), (
            f"{context}: expected the {action} and at most one inline compaction, got {added}"
        )
        instant = added[0][0]
        getattr(self.model, "insert" if op == "bulk_insert" else op)(rows, instant)
        self.check_snapshot(context)

        if len(added) == 2:
            compaction = added[1][0]
            self.log.append(f"{context}: inline compaction {compaction}")
            # Counted with replacecommits too: a lower bound whatever the trigger counts.
            since = sum(1 for i, a in before + added[:1] if a != "commit" and i > self.last_compaction())
            assert since >= INLINE_MAX_DELTA_COMMITS, (
                f"{context}: inline compaction {compaction} after only {since} delta/replace commits "
                f"since the last compaction (max.delta.commits={INLINE_MAX_DELTA_COMMITS})"
            )
            self.after_compaction(compaction, f"{context} inline compaction {compaction}")
        elif self.deltacommits_since_compaction() >= INLINE_MAX_DELTA_COMMITS:
            # No compaction although the trigger is reached: there must be nothing to compact.
            self.assert_nothing_to_compact(
                f"{context}: {self.deltacommits_since_compaction()} delta commits since the last compaction "
                "and no inline compaction"
            )

    def last_compaction(self) -> str:
        return self.model.compactions[-1] if self.model.compactions else ""

    def compact(self, step: int) -> Optional[str]:
        context = f"{self.tag} pyhudi.compact after write#{step}"
        before = harness.completed_instants(self.path)
        snapshot = ws.pyhudi_rows(self.spark, self.path)
        read_optimized = ws.read_optimized_rows(self.spark, self.path)
        logs_pending = sorted(map(harness.canonical_json, ws.project(snapshot, COLUMNS))) != sorted(
            map(harness.canonical_json, ws.project(read_optimized, COLUMNS))
        )
        instant = pyhudi.compact(self.spark, str(self.path), NO_CLEAN)
        added = ws.new_instants(self.path, before, context)
        self.log.append(f"{context}: {instant}")
        if instant is None:
            assert not logs_pending, f"{context}: returned None but read_optimized != snapshot before it"
            assert added == [], f"{context}: returned None but added {added}"
            self.assert_nothing_to_compact(f"{context} (returned None)")
            return None
        assert added == [(instant, "commit")], f"{context}: returned {instant}, the timeline gained {added}"
        self.after_compaction(instant, f"{context} {instant}")
        return instant

    def after_compaction(self, instant: str, context: str) -> None:
        ws.assert_compaction_instant(self.path, instant, context)
        self.model.compaction(instant)
        read = self.check_snapshot(context)
        read_optimized = ws.assert_read_optimized_agree(self.spark, self.path, context)
        ws.assert_same(read_optimized, read, f"{context}: pyhudi read_optimized vs pyhudi snapshot")

    def assert_nothing_to_compact(self, context: str) -> None:
        read = ws.pyhudi_rows(self.spark, self.path)
        read_optimized = ws.read_optimized_rows(self.spark, self.path)
        ws.assert_same(
            ws.project(read_optimized, COLUMNS), ws.project(read, COLUMNS), f"{context}: read_optimized vs snapshot"
        )

    def check_snapshot(self, context: str) -> List[Dict[str, Any]]:
        read = ws.assert_readers_agree(self.spark, self.path, context)
        ws.assert_meta_consistent_mor(read, self.path, context)
        ws.assert_same(ws.project(read, COLUMNS), self.model.snapshot(), f"{context}: pyhudi vs model")
        self.check_read_optimized(context)
        return read

    def check_read_optimized(self, context: str) -> None:
        """read_optimized: both readers agree; only versions the table has had; every record
        known to be in a base file; one row per (partition, key) with a non-global index."""
        read_optimized = ws.project(ws.assert_read_optimized_agree(self.spark, self.path, context), COLUMNS)
        versions = self.model.versions()
        strays = [r for r in read_optimized if harness.canonical_json(r) not in versions]
        assert not strays, (
            f"{context}: {len(strays)} read_optimized rows are no version the table ever had, e.g. "
            f"{harness.canonical_json(strays[0])[:600]}"
        )
        got = {harness.canonical_json(r) for r in read_optimized}
        missing = [r for r in self.model.base_rows() if harness.canonical_json(r) not in got]
        assert not missing, (
            f"{context}: {len(missing)} records written to base files are missing from read_optimized, e.g. "
            f"{harness.canonical_json(missing[0])[:600]}"
        )
        if not self.index.is_global:
            idents = [(r["_hoodie_partition_path"], r["_hoodie_record_key"]) for r in read_optimized]
            dupes = sorted({i for i in idents if idents.count(i) > 1})
            assert not dupes, f"{context}: read_optimized holds these records twice: {dupes[:5]}"

    def run(self) -> None:
        self.gen.floor = 0
        self.write("bulk_insert", self.batch_insert(30), 0)
        writes = list(WRITES)
        self.rng.shuffle(writes)
        explicit_done = False
        for step, op in enumerate(writes, start=1):
            self.gen.floor = step * ws.GrowingTsRowGen.TS_STEP
            rows = {
                "insert": lambda: self.batch_insert(self.rng.randrange(5, 12)),
                "bulk_insert": lambda: self.batch_insert(self.rng.randrange(5, 12)),
                "upsert": self.batch_upsert,
                "delete": self.batch_delete,
                "insert_overwrite": self.batch_insert_overwrite,
            }[op]()
            self.write(op, rows, step)
            # One explicit compaction in the middle, after an update or delete that the inline
            # trigger did not compact (so that it has log files to fold).
            if (
                not explicit_done
                and step >= 2
                and op in ("upsert", "delete")
                and self.deltacommits_since_compaction() > 0
            ):
                self.compact(step)
                explicit_done = True
        if not explicit_done:
            self.compact(len(writes))


@pytest.mark.parametrize("index,seed", CASES, ids=[f"{i.value}-seed{s}" for i, s in CASES])
def test_mor_sequence_matches_model(spark, tmp_path, index, seed):
    seq = MorSequence(spark, tmp_path / "table", index, seed)
    seq.run()
    model, path, tag = seq.model, seq.path, seq.tag
    instants = [i for i, _ in model.history]
    timeline = harness.completed_instants(path)
    assert [i for i, _ in timeline] == instants, f"{tag}: timeline {timeline} vs model {instants}"
    assert model.compactions, f"{tag}: the sequence never compacted: {seq.log}"
    assert {i for i, a in timeline if a == "commit"} == set(model.compactions)
    assert not harness.pending_instants(path), f"{tag}: pending instants left: {harness.pending_instants(path)}"

    # Time travel to every completed instant (a compaction's state is its predecessor's).
    for instant in instants:
        context = f"{tag} as.of.instant={instant}"
        ours = ws.pyhudi_rows(spark, path, {"as.of.instant": instant})
        ws.assert_same(ws.project(ours, COLUMNS), model.as_of(instant), f"{context}: pyhudi vs model")
        ws.assert_same(ours, harness.hudi_rs_read(path, as_of=instant), f"{context}: pyhudi vs hudi-rs")

    # Incremental reads between consecutive instants, and from the beginning; a range that
    # holds only a compaction returns nothing (commit times are preserved).
    ranges = [("000", None)] + list(zip(instants, instants[1:]))
    for begin, end in ranges:
        context = f"{tag} incremental ({begin}, {end or 'latest'}]"
        options = {"hoodie.datasource.query.type": "incremental", "hoodie.datasource.read.begin.instanttime": begin}
        if end is not None:
            options["hoodie.datasource.read.end.instanttime"] = end
        ours = ws.pyhudi_rows(spark, path, options)
        expected = model.incremental(begin, end)
        if end in model.compactions:
            assert expected == [], f"{context}: test bug: the model returns rows for a compaction range"
        ws.assert_same(ws.project(ours, COLUMNS), expected, f"{context}: pyhudi vs model")
        ws.assert_same(ours, harness.hudi_rs_read(path, begin=begin, end=end), f"{context}: pyhudi vs hudi-rs")
