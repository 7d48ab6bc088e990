# SPDX-License-Identifier: Apache-2.0
"""The workloads of the formats that upsert and delete through SQL ``MERGE INTO`` (Delta Lake,
Apache Iceberg): plain append for the load, ``MERGE`` on (partition, key) for upserts and
deletes, so the join can prune partitions as a Hudi non-global index does."""

import shutil
from typing import Any, Callable, Dict, List, Optional, Tuple

from common import (
    BATCHES,
    DELETE_1,
    FILTER,
    INCREMENTAL,
    KEY,
    LOAD,
    LOAD_ALT,
    MOR_COMPACT,
    MOR_LOAD,
    MOR_SCAN,
    MOR_SCAN_COMPACTED,
    MOR_UPSERT,
    PARTITION,
    SCALE_LARGE,
    SCALE_SMALL,
    SCAN,
    UPSERT_1_SKEWED,
    UPSERT_1_UNIFORM,
    UPSERT_10_SKEWED,
    UPSERT_10_UNIFORM,
    Bench,
)

UPSERTS = [UPSERT_1_UNIFORM, UPSERT_1_SKEWED, UPSERT_10_UNIFORM, UPSERT_10_SKEWED]
ON = f"t.{PARTITION} = s.{PARTITION} AND t.{KEY} = s.{KEY}"


class MergeFamily:
    """Subclasses say how a table is named, created, read and compacted."""

    incremental_na = "no incremental read of an overwrite commit"
    mor_na: Optional[str] = None  # why the system has no merge-on-read variant, if it has none

    def __init__(self, bench: Bench) -> None:
        self.b = bench

    # -- per system ---------------------------------------------------------------------------

    def ident(self, variant: str) -> str:
        raise NotImplementedError

    def folder(self, variant: str) -> str:
        raise NotImplementedError

    def create(self, df: Any, variant: str, mode: str) -> None:
        raise NotImplementedError

    def read(self, variant: str) -> Any:
        raise NotImplementedError

    def drop(self, variant: str) -> None:
        """Remove the table, so the load can be timed again (untimed)."""
        shutil.rmtree(self.folder(variant))

    def compact(self, variant: str) -> None:
        raise NotImplementedError

    # -- steps --------------------------------------------------------------------------------

    def merge(self, df: Any, variant: str, delete: bool = False) -> None:
        df.createOrReplaceTempView("bench_src")
        action = (
            "WHEN MATCHED THEN DELETE" if delete else "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"
        )
        self.b.spark.sql(f"MERGE INTO {self.ident(variant)} t USING bench_src s ON {ON} {action}").collect()

    def sequence(self, variant: str, mode: str) -> None:
        b = self.b
        path = self.folder(variant)
        table = b.inputs["table"]
        b.load_step(
            variant,
            LOAD,
            lambda: self.create(table, variant, mode),
            path,
            b.floor_write("table"),
            lambda: self.drop(variant),
        )
        b.record(variant, LOAD, label="append")
        for w in UPSERTS:
            batch = b.batch(w)
            b.step(variant, w, lambda b_=batch: self.merge(b_, variant), path, b.floor_write(BATCHES[w]))
        b.na(variant, INCREMENTAL, self.incremental_na)
        deletes = b.batch(DELETE_1)
        b.step(variant, DELETE_1, lambda: self.merge(deletes, variant, delete=True), path, b.floor_write("delete_1"))
        rows = lambda: self.read(variant)  # noqa: E731
        b.read_step(variant, SCAN, lambda: b.checksum(rows()), floor=b.floor_query(f"{variant} {SCAN}", rows))
        b.read_step(
            variant,
            FILTER,
            lambda: b.checksum(b.filtered(rows())),
            floor=b.floor_query(f"{variant} {SCAN}", rows, b.filtered),
        )
        scale = b.inputs["upsert_scale"]
        b.step(variant, SCALE_LARGE, lambda: self.merge(scale, variant), path, b.floor_write("upsert_scale"))

    def scale_small(self, variant: str, mode: str) -> None:
        b = self.b
        path = self.folder(variant)
        self.create(b.inputs["small"], variant, mode)  # untimed
        scale = b.inputs["upsert_scale"]
        b.step(variant, SCALE_SMALL, lambda: self.merge(scale, variant), path, b.floor_write("upsert_scale"))

    def mor(self, variant: str) -> None:
        b = self.b
        path = self.folder(variant)
        table = b.inputs["table"]
        b.load_step(
            variant,
            MOR_LOAD,
            lambda: self.create(table, variant, "merge-on-read"),
            path,
            b.floor_write("table"),
            lambda: self.drop(variant),
        )
        batch = b.batch(UPSERT_10_UNIFORM)
        b.step(variant, MOR_UPSERT, lambda: self.merge(batch, variant), path, b.floor_write(BATCHES[UPSERT_10_UNIFORM]))
        rows = lambda: self.read(variant)  # noqa: E731
        # compaction leaves the rows as they are: both merge-on-read scans share one copy
        floor = b.floor_query(f"{variant} {MOR_SCAN}", rows)
        b.read_step(variant, MOR_SCAN, lambda: b.checksum(rows()), floor=floor)
        b.step(variant, MOR_COMPACT, lambda: self.compact(variant), path, b.floor_write("table"))
        b.read_step(variant, MOR_SCAN_COMPACTED, lambda: b.checksum(rows()), floor=floor)

    def warmup(self, _path: str) -> None:
        small = self.b.inputs["upsert_1_uniform"].limit(2000)
        for variant, mode in self.modes()[:1] + ([] if self.mor_na else [("warmup mor", "merge-on-read")]):
            name = "warmup " + variant
            self.create(small, name, mode)
            self.merge(small, name)
            self.b.checksum(self.read(name))

    def modes(self) -> List[Tuple[str, str]]:
        """(variant, write mode) of the copy-on-write sequences."""
        return [("COW", "copy-on-write")]

    def variants(self) -> List[Tuple[str, Callable[[str], None]]]:
        out: List[Tuple[str, Callable[[str], None]]] = []
        for variant, mode in self.modes():
            out.append((variant, lambda v, m=mode: self.sequence(v, m)))
            out.append((f"{variant} 0.1x", lambda v, m=mode: self.scale_small(v, m)))
        if self.mor_na is None:
            out.append(("MOR", self.mor))
        return out

    def not_applicable(self) -> Dict[str, str]:
        """Workloads this system lacks, with the reason, recorded once per run."""
        out = {LOAD_ALT: "one load path (append)"}
        if self.mor_na:
            for w in (MOR_LOAD, MOR_UPSERT, MOR_SCAN, MOR_COMPACT, MOR_SCAN_COMPACTED):
                out[w] = self.mor_na
        return out
