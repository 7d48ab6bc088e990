# SPDX-License-Identifier: Apache-2.0
"""The workloads of the two Hudi writers, pyhudi (Spark 4) and Apache Hudi (Spark 3.5): the same
table options, the same steps, only the data source name, the extra options and compaction
differ."""

import os
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
    ORDERING,
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


class HudiFamily:
    """``fmt``: the data source; ``extra``: options added to every write; ``compact(path)``:
    schedule and run a compaction of a merge-on-read table; ``load_ops``: (label, operation,
    options) of the main load and of the alternative load."""

    def __init__(
        self,
        bench: Bench,
        fmt: str,
        extra: Dict[str, str],
        compact: Callable[[str], Any],
        load_ops: List[Tuple[str, str, Dict[str, str]]],
        index: str,
    ) -> None:
        self.b = bench
        self.fmt = fmt
        self.extra = extra
        self.compact = compact
        self.load_ops = load_ops
        self.index = index
        # an index sweep (bench/run.py --indexes) times only the steps that look keys up
        self.upserts_only = bench.spec.get("only") == "upserts"

    def options(self, table_type: str, operation: str, more: Optional[Dict[str, str]] = None) -> Dict[str, str]:
        opts = {
            "hoodie.table.name": f"bench_{table_type.lower()}",
            "hoodie.datasource.write.table.type": table_type,
            "hoodie.datasource.write.recordkey.field": KEY,
            "hoodie.datasource.write.partitionpath.field": PARTITION,
            "hoodie.datasource.write.precombine.field": ORDERING,
            "hoodie.datasource.write.operation": operation,
            "hoodie.index.type": self.index,
        }
        if self.index == "BUCKET":
            opts["hoodie.bucket.index.num.buckets"] = str(self.b.spec.get("buckets", 4))
        opts.update(self.extra)
        opts.update(more or {})
        return opts

    def write(self, df: Any, path: str, table_type: str, operation: str, more: Optional[Dict[str, str]] = None) -> None:
        df.write.format(self.fmt).options(**self.options(table_type, operation, more)).mode("append").save(path)

    def read(self, path: str, options: Optional[Dict[str, str]] = None) -> Any:
        return self.b.spark.read.format(self.fmt).options(**(options or {})).load(path).select(*self.b.columns)

    def commits(self, path: str) -> List[str]:
        meta = os.path.join(path, ".hoodie")
        done = [
            n.split(".")[0]
            for n in os.listdir(meta)
            if n.endswith((".commit", ".deltacommit")) and "." not in n.split(".", 1)[1]
        ]
        return sorted(done)

    # -- variants -----------------------------------------------------------------------------

    def cow(self, variant: str) -> None:
        """The main copy-on-write sequence: load, the four upserts, the incremental read of the
        last one, delete, scan, filter, then the scale upsert into this (1x) table. In an index
        sweep (``spec["only"] == "upserts"``) it stops after the delete: the reads do not depend
        on the index."""
        b = self.b
        path = b.table_path(variant)
        label, op, load_opts = self.load_ops[0]
        table = b.inputs["table"]
        b.load_step(
            variant,
            LOAD,
            lambda: self.write(table, path, "COPY_ON_WRITE", op, load_opts),
            path,
            b.floor_write("table"),
        )
        b.record(variant, LOAD, label=label)
        for w in UPSERTS:
            batch = b.batch(w)
            b.step(
                variant,
                w,
                lambda b_=batch: self.write(b_, path, "COPY_ON_WRITE", "upsert"),
                path,
                b.floor_write(BATCHES[w]),
            )
            self.after_upsert(variant, w, path)
        if not self.upserts_only:
            self.incremental(variant, path)
        deletes = b.batch(DELETE_1)
        b.step(
            variant,
            DELETE_1,
            lambda: self.write(deletes, path, "COPY_ON_WRITE", "delete"),
            path,
            b.floor_write("delete_1"),
        )
        if self.upserts_only:
            return
        rows = lambda: self.read(path)  # noqa: E731
        b.read_step(variant, SCAN, lambda: b.checksum(rows()), floor=b.floor_query(f"{variant} {SCAN}", rows))
        b.read_step(
            variant,
            FILTER,
            lambda: b.checksum(b.filtered(rows())),
            floor=b.floor_query(f"{variant} {SCAN}", rows, b.filtered),
        )
        scale = b.inputs["upsert_scale"]
        b.step(
            variant,
            SCALE_LARGE,
            lambda: self.write(scale, path, "COPY_ON_WRITE", "upsert"),
            path,
            b.floor_write("upsert_scale"),
        )

    def incremental(self, variant: str, path: str) -> None:
        """The incremental read of the last commit (the 10% skewed upsert)."""
        b = self.b
        commits = self.commits(path)
        inc = {"hoodie.datasource.query.type": "incremental", "hoodie.datasource.read.begin.instanttime": commits[-2]}
        b.read_step(
            variant,
            INCREMENTAL,
            lambda: b.checksum(self.read(path, inc)),
            floor=b.floor_read(BATCHES[UPSERT_10_SKEWED]),
        )

    def alt_load(self, variant: str) -> None:
        b = self.b
        path = b.table_path(variant)
        label, op, opts = self.load_ops[1]
        table = b.inputs["table"]
        b.step(
            variant, LOAD_ALT, lambda: self.write(table, path, "COPY_ON_WRITE", op, opts), path, b.floor_write("table")
        )
        b.record(variant, LOAD_ALT, label=label)

    def scale_small(self, variant: str, table_type: str = "COPY_ON_WRITE") -> None:
        b = self.b
        path = b.table_path(variant)
        label, op, opts = self.load_ops[0]
        self.write(b.inputs["small"], path, table_type, op, opts)  # untimed
        scale = b.inputs["upsert_scale"]
        b.step(
            variant,
            SCALE_SMALL,
            lambda: self.write(scale, path, table_type, "upsert"),
            path,
            b.floor_write("upsert_scale"),
        )

    def scale_small_mor(self, variant: str) -> None:
        self.scale_small(variant, "MERGE_ON_READ")

    def mor(self, variant: str) -> None:
        b = self.b
        path = b.table_path(variant)
        label, op, opts = self.load_ops[0]
        table = b.inputs["table"]
        b.load_step(
            variant,
            MOR_LOAD,
            lambda: self.write(table, path, "MERGE_ON_READ", op, opts),
            path,
            b.floor_write("table"),
        )
        batch = b.batch(UPSERT_10_UNIFORM)
        b.step(
            variant,
            MOR_UPSERT,
            lambda: self.write(batch, path, "MERGE_ON_READ", "upsert"),
            path,
            b.floor_write(BATCHES[UPSERT_10_UNIFORM]),
        )
        self.after_upsert(variant, MOR_UPSERT, path)
        if self.upserts_only:
            return
        rows = lambda: self.read(path)  # noqa: E731
        # compaction leaves the rows as they are: both merge-on-read scans share one copy
        floor = b.floor_query(f"{variant} {MOR_SCAN}", rows)
        b.read_step(variant, MOR_SCAN, lambda: b.checksum(rows()), floor=floor)
        before = len(self.commits(path))
        b.step(variant, MOR_COMPACT, lambda: self.compact(path), path, b.floor_write("table"))
        if len(self.commits(path)) == before:
            raise RuntimeError("the compaction committed nothing")
        b.read_step(variant, MOR_SCAN_COMPACTED, lambda: b.checksum(rows()), floor=floor)
        # the 1% upsert of the 0.1x table into the compacted 1x table (updates go to log files)
        scale = b.inputs["upsert_scale"]
        b.step(
            variant,
            SCALE_LARGE,
            lambda: self.write(scale, path, "MERGE_ON_READ", "upsert"),
            path,
            b.floor_write("upsert_scale"),
        )

    def warmup(self, path: str) -> None:
        small = self.b.inputs["upsert_1_uniform"].limit(2000)
        label, op, opts = self.load_ops[0]
        self.write(small, path + "_cow", "COPY_ON_WRITE", op, opts)
        self.write(small, path + "_cow", "COPY_ON_WRITE", "upsert")
        self.b.checksum(self.read(path + "_cow"))
        self.write(small, path + "_mor", "MERGE_ON_READ", op, opts)
        self.write(small, path + "_mor", "MERGE_ON_READ", "upsert")
        self.b.checksum(self.read(path + "_mor"))

    def after_upsert(self, variant: str, workload: str, path: str) -> None:
        """Hook: pyhudi adds what its commit says about the index (see pyhudi_system.py)."""

    def variants(self) -> List[Tuple[str, Callable[[str], None]]]:
        if self.upserts_only:
            return [("COW", self.cow), ("MOR", self.mor)]
        return [
            ("COW", self.cow),
            ("COW alt load", self.alt_load),
            ("COW 0.1x", self.scale_small),
            ("MOR 0.1x", self.scale_small_mor),
            ("MOR", self.mor),
        ]
