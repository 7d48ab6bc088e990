# SPDX-License-Identifier: Apache-2.0
"""Randomized differential test of copy-on-write writes.

For each index type and seed, a sequence of writes (bulk_insert, insert, upsert with in-batch
duplicates, delete of existing and unknown keys, insert_overwrite, and for global indexes
upserts that move records between partitions) goes into one table with a complex key, two
partition columns and a column of every corpus type. After every write the pyhudi snapshot,
the hudi-rs snapshot and an in-test model must agree; at the end, time travel to every
instant and incremental reads between consecutive instants are checked too.

Copy-on-write tables; ``test_mor_differential.py`` does the same for merge-on-read. Seeds 1
and 2, plus any in ``$PYHUDI_SEEDS`` (comma-separated), e.g.
``PYHUDI_SEEDS=3,4,5 python -m pytest integration-tests/test_write_differential.py``.
A failure names the seed, index type and write; rerun one case with ``-k "BLOOM-seed1"``.
"""

import os
import random
from pathlib import Path
from typing import Any, Dict, List

import harness
import pytest
import write_support as ws

import pyhudi
from pyhudi import IndexType, TableType, WriteOperation
from pyhudi.options import BUCKET_INDEX_NUM_BUCKETS, HIVE_STYLE_PARTITIONING

SEEDS = sorted({1, 2} | {int(s) for s in os.environ.get("PYHUDI_SEEDS", "").split(",") if s.strip()})
INDEXES = list(IndexType)
CASES = [(index, seed) for seed in SEEDS for index in INDEXES]

# After the first bulk_insert, each sequence shuffles these writes.
WRITES = ["insert", "upsert", "upsert", "delete", "insert_overwrite", "upsert", "bulk_insert"]


def _hive_style(index: IndexType, seed: int) -> bool:
    # Alternates over index types and seeds: with seeds 1 and 2 each index type is written
    # once hive style and once not.
    return (INDEXES.index(index) + seed) % 2 == 0


class Sequence(ws.Batches):
    """One table, its model and the generator of write batches."""

    def __init__(self, spark: Any, path: Path, index: IndexType, seed: int) -> None:
        self.spark = spark
        self.path = path
        self.index = index
        self.seed = seed
        self.rng = random.Random(seed * 1000 + INDEXES.index(index))
        self.gen = ws.RowGen(self.rng)
        self.hive = _hive_style(index, seed)
        self.model = ws.TableModel(index.is_global, self.hive)
        self.log: List[str] = []
        self.tag = f"seed={seed} index={index.value} hive={self.hive}"

    # ---- writing and checking

    def write(self, op: str, rows: List[ws.Row], step: int) -> str:
        context = f"{self.tag} write#{step} {op}"
        self.log.append(f"{context}: {len(rows)} rows")
        before = harness.completed_instants(self.path)
        df = self.spark.createDataFrame(rows, ws.SCHEMA)
        options: Dict[str, Any] = {HIVE_STYLE_PARTITIONING: self.hive, **ws.LATEST_WINS}
        if self.index is IndexType.BUCKET:
            options[BUCKET_INDEX_NUM_BUCKETS] = 4
        pyhudi.write(
            df,
            self.path,
            table_name=f"diff_{self.index.value.lower()}_{self.seed}",
            record_key=list(ws.KEY_FIELDS),
            partition_by=list(ws.PARTITION_FIELDS),
            precombine=ws.PRECOMBINE,
            operation=WriteOperation(op),
            index_type=self.index,
            table_type=TableType.COPY_ON_WRITE,
            options=options,
        )
        action = "replacecommit" if op == "insert_overwrite" else "commit"
        instant = ws.new_instant(self.path, before, action, context)
        getattr(self.model, "insert" if op == "bulk_insert" else op)(rows, instant)
        self.check_snapshot(context)
        return instant

    def check_snapshot(self, context: str) -> None:
        read = ws.assert_readers_agree(self.spark, self.path, context)
        ws.assert_meta_consistent(read, self.path, context)
        columns = ws.COLUMNS + list(ws.MODEL_META)
        ws.assert_same(ws.project(read, columns), self.model.snapshot(), f"{context}: pyhudi vs model")

    def run(self) -> None:
        self.write("bulk_insert", self.batch_insert(30), 0)
        writes = list(WRITES)
        self.rng.shuffle(writes)
        for step, op in enumerate(writes, start=1):
            rows = {
                "insert": lambda: self.batch_insert(self.rng.randrange(5, 12)),
                "bulk_insert": lambda: self.batch_insert(self.rng.randrange(5, 12)),
                "upsert": self.batch_upsert,
                "delete": self.batch_delete,
                "insert_overwrite": self.batch_insert_overwrite,
            }[op]()
            self.write(op, rows, step)


@pytest.mark.parametrize("index,seed", CASES, ids=[f"{i.value}-seed{s}" for i, s in CASES])
def test_write_sequence_matches_model(spark, tmp_path, index, seed):
    seq = Sequence(spark, tmp_path / "table", index, seed)
    seq.run()
    model = seq.model
    path = seq.path
    tag = seq.tag
    columns = ws.COLUMNS + list(ws.MODEL_META)
    instants = [i for i, _ in model.history]
    assert [i for i, _ in harness.completed_instants(path)] == instants

    # Time travel to every completed instant.
    for instant in instants:
        context = f"{tag} as.of.instant={instant}"
        ours = ws.pyhudi_rows(spark, path, {"as.of.instant": instant})
        ws.assert_same(ws.project(ours, columns), model.as_of(instant), f"{context}: pyhudi vs model")
        ws.assert_same(ours, harness.hudi_rs_read(path, as_of=instant), f"{context}: pyhudi vs hudi-rs")

    # Incremental reads between consecutive instants, and from the beginning.
    ranges = [("000", None)] + list(zip(instants, instants[1:]))
    for begin, end in ranges:
        context = f"{tag} incremental ({begin}, {end or 'latest'}]"
        options = {"hoodie.datasource.query.type": "incremental", "hoodie.datasource.read.begin.instanttime": begin}
        if end is not None:
            options["hoodie.datasource.read.end.instanttime"] = end
        ours = ws.pyhudi_rows(spark, path, options)
        ws.assert_same(ws.project(ours, columns), model.incremental(begin, end), f"{context}: pyhudi vs model")
        ws.assert_same(ours, harness.hudi_rs_read(path, begin=begin, end=end), f"{context}: pyhudi vs hudi-rs")
