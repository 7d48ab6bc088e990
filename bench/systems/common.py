# SPDX-License-Identifier: Apache-2.0
"""What every system worker of ``bench/run.py`` shares: the Spark session, the inputs, timing,
the plain-parquet floor and the bytes and files a step wrote.

A worker is started as ``python bench/systems/<name>_system.py SPEC.json`` in the environment of
its system and writes one JSON file (``spec["out"]``) with a record per (variant, workload).
Each run replays every variant on fresh table folders; the records keep the time of every run
and the parquet floor measured in the same process, so ``run.py`` can take medians and ratios.
"""

import json
import os
import shutil
import statistics
import sys
import time
import traceback
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

# The workloads in the order of the results table; a system that lacks one reports it as n/a.
LOAD = "load"
LOAD_ALT = "load (alternative)"
UPSERT_1_UNIFORM = "upsert 1% uniform"
UPSERT_1_SKEWED = "upsert 1% skewed to recent partitions"
UPSERT_10_UNIFORM = "upsert 10% uniform"
UPSERT_10_SKEWED = "upsert 10% skewed to recent partitions"
INCREMENTAL = "incremental read of the last commit"
DELETE_1 = "delete 1%"
SCAN = "full snapshot scan"
FILTER = "selective filter (partition + column)"
MOR_LOAD = "MOR load"
MOR_UPSERT = "MOR upsert 10% uniform"
MOR_SCAN = "MOR snapshot scan, 10% in logs"
MOR_COMPACT = "MOR compaction"
MOR_SCAN_COMPACTED = "MOR snapshot scan after compaction"
SCALE_SMALL = "upsert 1% of 0.1x table into 0.1x table"
SCALE_LARGE = "same upsert into 1x table"

# Inputs written by bench/generate.py, one parquet folder each under spec["data"].
BATCHES = {
    UPSERT_1_UNIFORM: "upsert_1_uniform",
    UPSERT_1_SKEWED: "upsert_1_skewed",
    UPSERT_10_UNIFORM: "upsert_10_uniform",
    UPSERT_10_SKEWED: "upsert_10_skewed",
    DELETE_1: "delete_1",
}
KEY = "trip_id"
PARTITION = "day"
ORDERING = "ts"


class Bench:
    """One worker's session, inputs and collected records."""

    def __init__(self, spec: Dict[str, Any], system: str, extra_conf: Dict[str, str]) -> None:
        from pyspark.sql import SparkSession

        self.spec = spec
        self.system = system
        builder = (
            SparkSession.builder.master(spec["master"])
            .appName(f"bench-{system}")
            .config("spark.driver.memory", spec["driver_memory"])
            .config("spark.sql.shuffle.partitions", str(spec["shuffle_partitions"]))
            .config("spark.default.parallelism", str(spec["shuffle_partitions"]))
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.session.timeZone", "UTC")
        )
        for k, v in extra_conf.items():
            builder = builder.config(k, v)
        if system == "pyhudi":
            import pyhudi

            builder = pyhudi.configure_spark(builder)
        self.spark = builder.getOrCreate()
        self.spark.sparkContext.setLogLevel("ERROR")
        self.work = spec["work"]
        self.data = spec["data"]
        # a read is timed this many times per run, alternating with its parquet floor
        self.read_repeats = max(1, int(spec.get("read_repeats", 1)))
        # a load is timed this many times per run, alternating with its parquet floor
        self.load_repeats = max(1, int(spec.get("load_repeats", 1)))
        self.records: Dict[Tuple[str, str], Dict[str, Any]] = {}
        self.floors: Dict[Tuple[int, str], float] = {}
        self.run = 0
        self.inputs: Dict[str, Any] = {}
        for name in ["table", "small"] + sorted(set(BATCHES.values())) + ["upsert_scale"]:
            df = self.spark.read.parquet(os.path.join(spec["data"], name)).cache()
            df.count()  # cached before timing: reading the generated input is not measured
            self.inputs[name] = df
        self.columns = [c for c in self.inputs["table"].columns]
        self.filter_day = spec["filter_day"]

    # -- inputs -------------------------------------------------------------------------------

    def batch(self, workload: str) -> Any:
        return self.inputs[BATCHES[workload]]

    def table_path(self, variant: str) -> str:
        return os.path.join(self.work, f"run{self.run}", variant.replace(" ", "_").replace("/", "_"))

    # -- queries: the same for every system, so counts and checksums must agree -----------------

    def checksum(self, df: Any) -> Tuple[int, int]:
        """Row count and the xor of a hash of every data column (forces all columns to be read)."""
        from pyspark.sql import functions as F

        row = df.agg(
            F.count(F.lit(1)).alias("n"), F.expr(f"bit_xor(xxhash64({', '.join(self.columns)}))").alias("h")
        ).collect()[0]
        return int(row["n"]), int(row["h"] or 0)

    def filtered(self, df: Any) -> Any:
        from pyspark.sql import functions as F

        return df.where((F.col(PARTITION) == self.filter_day) & (F.col("fare") > 40))

    # -- recording ----------------------------------------------------------------------------

    def record(self, variant: str, workload: str, **fields: Any) -> Dict[str, Any]:
        if self.run < 0:  # the warm-up is not measured
            return {}
        rec = self.records.setdefault(
            (variant, workload),
            {
                "system": self.system,
                "variant": variant,
                "workload": workload,
                "times": [],
                "floor": [],
                "bytes": [],
                "files": [],
            },
        )
        for k, v in fields.items():
            if k in ("times", "floor", "bytes", "files"):
                rec[k].append(v)
            else:
                rec[k] = v
        return rec

    def na(self, variant: str, workload: str, why: str) -> None:
        self.record(variant, workload, na=why)

    def step(
        self,
        variant: str,
        workload: str,
        fn: Callable[[], Any],
        path: Optional[str] = None,
        floor: Optional["Floor"] = None,
        result: Optional[Callable[[], Any]] = None,
    ) -> Any:
        """Time ``fn``; with ``path``, the bytes and files it added or changed there; with
        ``floor``, the plain-parquet equivalent right after, in this process."""
        before = _listing(path) if path else {}
        self.started = time.time()  # wall clock, comparable with file modification times
        start = time.perf_counter()
        out = fn()
        seconds = time.perf_counter() - start
        fields: Dict[str, Any] = {"times": seconds}
        if path:
            fields["bytes"], fields["files"] = _changed(before, path)
        if floor is not None:
            fields["floor"] = self.parquet_floor(floor)
        if result is not None:
            fields["result"] = result()
        elif isinstance(out, tuple):
            fields["result"] = list(out)
        self.record(variant, workload, **fields)
        print(f"[{self.system}] run {self.run} {variant} / {workload}: {seconds:.2f}s", file=sys.stderr, flush=True)
        return out

    def load_step(
        self,
        variant: str,
        workload: str,
        fn: Callable[[], Any],
        path: str,
        floor: Optional["Floor"] = None,
        reset: Optional[Callable[[], Any]] = None,
    ) -> None:
        """Time the load ``fn`` ``load_repeats`` times, alternating with its parquet floor (load,
        floor, floor, load, ...), and record the medians, as ``read_step`` does for a query. A
        load is timed once per run otherwise, beside one floor: over nine runs of the same code
        the floor alone took 8 to 14 seconds, wider than the differences the ratio is read for.
        ``reset()`` (untimed; by default removing ``path``) removes the table before a repetition;
        the last one's table stays for the steps after, and its bytes and files are recorded."""
        times: List[float] = []
        floors: List[float] = []
        fields: Dict[str, Any] = {}
        for which in _alternation(self.load_repeats):
            if which == "floor":
                if floor is not None:
                    floors.append(self._time_floor_write(floor))
                continue
            if times and reset is not None:
                reset()
            elif times:
                shutil.rmtree(path)
            before = _listing(path)
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
            fields["bytes"], fields["files"] = _changed(before, path)
        fields["times"] = statistics.median(times)
        if floor is not None:
            fields["floor"] = statistics.median(floors)
            # later steps on the same input (compaction, the other loads) share this floor
            self.floors.setdefault((self.run, floor.key), fields["floor"])
        rec = self.record(variant, workload, **fields)
        if rec:  # empty for the warm-up
            rec.setdefault("repeats", []).append({"times": times, "floor": floors})
        shown = ", ".join(f"{t:.2f}" for t in times)
        print(f"[{self.system}] run {self.run} {variant} / {workload}: {shown}s", file=sys.stderr, flush=True)

    def read_step(self, variant: str, workload: str, fn: Callable[[], Any], floor: Optional["Floor"] = None) -> Any:
        """Time the query ``fn`` ``read_repeats`` times, alternating with its parquet floor (step,
        floor, floor, step, ...), and record the medians. A scan takes seconds, so one timing is
        at the mercy of a GC pause or a page-cache miss; pairing each repetition with its floor
        in the same stretch of time keeps the ratio from drifting with the machine."""
        if floor is not None:
            floor.prepare()
        times: List[float] = []
        floors: List[float] = []
        out: Any = None
        results: List[Any] = []  # every repetition's, the floor's too, when they must agree
        for which in _alternation(self.read_repeats):
            if which == "floor" and floor is None:
                continue
            start = time.perf_counter()
            if which == "step":
                out = fn()
                times.append(time.perf_counter() - start)
                results.append(out)
            else:
                floor_out = floor.fn("")
                floors.append(time.perf_counter() - start)
                results.append(floor_out)
        if floor is not None and floor.same_rows and len(set(results)) > 1:
            raise RuntimeError(f"the table and its parquet copy read different rows: {results}")
        fields: Dict[str, Any] = {"times": statistics.median(times)}
        if floors:
            fields["floor"] = statistics.median(floors)
        if isinstance(out, tuple):
            fields["result"] = list(out)
        rec = self.record(variant, workload, **fields)
        if rec:  # empty for the warm-up
            rec.setdefault("repeats", []).append({"times": times, "floor": floors})
        shown = ", ".join(f"{t:.2f}" for t in times)
        print(f"[{self.system}] run {self.run} {variant} / {workload}: {shown}s", file=sys.stderr, flush=True)
        return out

    def parquet_floor(self, floor: "Floor") -> float:
        """Time ``floor``, the plain-parquet equivalent of a step, into a scratch folder; once per
        run and kind (steps on the same input share it, so the floor does not dominate a run)."""
        key = (self.run, floor.key)
        if key not in self.floors:
            self.floors[key] = self._time_floor_write(floor)
        return self.floors[key]

    def _time_floor_write(self, floor: "Floor") -> float:
        """Seconds of one write of ``floor`` into the run's scratch folder, emptied first (untimed)."""
        folder = os.path.join(self.work, f"run{self.run}", "parquet_floor")
        shutil.rmtree(folder, ignore_errors=True)
        floor.prepare()
        start = time.perf_counter()
        floor.fn(folder)
        return time.perf_counter() - start

    # -- the plain-parquet floors of each kind of step ------------------------------------------

    def floor_write(self, name: str) -> "Floor":
        """A partitioned ``df.write.parquet`` of the input ``name`` (the rows the step writes)."""
        df = self.inputs[name]
        return Floor(f"write {name}", lambda folder: df.write.partitionBy(PARTITION).parquet(folder))

    def floor_query(self, copy: str, rows: Callable[[], Any], query: Callable[[Any], Any] = lambda df: df) -> "Floor":
        """``query`` on a parquet copy of the rows the system's read returns (``rows()``, the
        table as it stands), so both read the same values."""
        folder = lambda: self._floor_copy(copy, rows)  # noqa: E731
        return Floor(f"query {copy}", lambda _: self.checksum(query(self._read_copy(folder()))), folder, True)

    def floor_read(self, name: str) -> "Floor":
        """The same query on the generated parquet files of the input ``name`` (the rows an
        incremental read returns), read from disk as the system reads its table, not from the
        cached input."""
        files = os.path.join(self.data, name)
        return Floor(f"read {name}", lambda folder: self.checksum(self.spark.read.parquet(files)))

    def _read_copy(self, folder: str) -> Any:
        # the table's schema: Spark would otherwise infer the partition folders' `day` as a date
        return self.spark.read.schema(self.inputs["table"].schema).parquet(folder)

    def _floor_copy(self, copy: str, rows: Callable[[], Any]) -> str:
        """A partitioned parquet copy of ``rows()``, written untimed the first time the worker
        needs it. Every run replays the same steps on the same inputs, so the table holds the
        same rows when later runs read it (``read_step`` checks the checksums agree)."""
        slug = "".join(ch if ch.isalnum() else "_" for ch in copy)
        folder = os.path.join(self.work, "parquet_copy", slug)
        if not os.path.exists(os.path.join(folder, "_SUCCESS")):
            rows().select(*self.columns).write.mode("overwrite").partitionBy(PARTITION).parquet(folder)
        return folder

    # -- driving ------------------------------------------------------------------------------

    def runs(
        self,
        variants: List[Tuple[str, Callable[[str], None]]],
        warmup: Callable[[str], None],
        after_run: Callable[[], None] = lambda: None,
    ) -> None:
        self.run = -1
        warm = self.table_path("warmup")
        try:
            warmup(warm)
        finally:
            shutil.rmtree(os.path.join(self.work, "run-1"), ignore_errors=True)
            after_run()
        for r in range(self.spec["runs"]):
            self.run = r
            for name, fn in variants:
                try:
                    fn(name)
                except Exception as e:  # one failing variant must not hide the others
                    traceback.print_exc()
                    lines = str(e).splitlines() or [""]
                    # a Py4J error's first line names only the call; the Java exception follows
                    cause = next((x for x in lines if "Exception: " in x or "Error: " in x), lines[0])
                    self.record(name, "error", error=f"{type(e).__name__}: {cause.strip()[:300]}")
            shutil.rmtree(os.path.join(self.work, f"run{r}"), ignore_errors=True)
            after_run()

    def finish(self, versions: Dict[str, str]) -> None:
        out = {"system": self.system, "versions": versions, "records": list(self.records.values())}
        with open(self.spec["out"], "w") as f:
            json.dump(out, f, indent=1)
        self.spark.stop()


class Floor:
    """A plain-parquet step: ``key`` names what it does, ``fn(folder)`` does it, ``prepare()``
    runs untimed before it; ``same_rows``: it queries a copy of the step's table, so its result
    must be the step's."""

    def __init__(
        self, key: str, fn: Callable[[str], Any], prepare: Callable[[], Any] = lambda: None, same_rows: bool = False
    ) -> None:
        self.key = key
        self.fn = fn
        self.prepare = prepare
        self.same_rows = same_rows


def _alternation(repeats: int) -> Iterator[str]:
    """A step and its floor in turns that swap each repetition (step, floor, floor, step, ...),
    so neither always runs first."""
    for i in range(repeats):
        yield from ("step", "floor") if i % 2 == 0 else ("floor", "step")


def _changed(before: Dict[str, int], path: str) -> Tuple[int, int]:
    """Bytes and files under ``path`` added or changed since the listing ``before``."""
    after = _listing(path)
    changed = [n for n, size in after.items() if before.get(n) != size]
    return sum(after[n] for n in changed), len(changed)


def _listing(path: str) -> Dict[str, int]:
    out: Dict[str, int] = {}
    for root, _, names in os.walk(path):
        for name in names:
            full = os.path.join(root, name)
            try:
                out[full] = os.path.getsize(full)
            except OSError:
                pass
    return out


def load_spec() -> Dict[str, Any]:
    with open(sys.argv[1]) as f:
        spec: Dict[str, Any] = json.load(f)
    return spec
