# SPDX-License-Identifier: Apache-2.0
"""The driver's timeline service against its alternatives. Not a test: it prints timings.

Usage (from the repository root, with pyhudi installed in the venv)::

    python bench/timeline_service_bench.py                        # 1000 partitions x 100 groups
    python bench/timeline_service_bench.py --partitions 200 --groups 20 --lookups 2000 --markers 2000

a) File-system view: a table of ``--partitions`` x ``--groups`` file groups (small files; the view
   reads names only), then ``--lookups`` random (partition, file id) latest-base-file lookups from
   ``--tasks`` Spark tasks, (1) each task building its own view of the partitions it asks about,
   (2) every task asking the timeline service, whose view is shared and cached.
b) Markers: ``--markers`` markers created from Spark tasks and then deleted, (1) one file each
   (DIRECT), (2) through the service (TIMELINE_SERVER_BASED, batched into MARKERS<n> files).
c) The driver's listing of every partition of that table, (1) one folder after another, (2) on
   the lister's pool (what the driver's planning and the service's view use).

Each case runs ``--repeat`` times; the median is printed with the ratio service / alternative.
``--plot FILE`` also draws the medians as a PNG (needs matplotlib).
"""

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from write_bench import session  # noqa: E402


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--partitions", type=int, default=1000)
    p.add_argument("--groups", type=int, default=100, help="file groups per partition")
    p.add_argument("--lookups", type=int, default=5000)
    p.add_argument("--tasks", type=int, default=50)
    p.add_argument("--markers", type=int, default=10000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--plot", help="write a PNG of the medians here")
    return p.parse_args(argv)


def synthesize(spark: Any, root: Path, partitions: int, groups: int) -> Tuple[Path, List[Tuple[str, str]]]:
    """A real pyhudi table, then one more completed commit whose base files are empty files with
    Hudi names in ``partitions`` folders (the view lists names and reads the timeline only)."""
    path = root / "table"
    df = spark.createDataFrame([("k", "seed", 1)], "key string, part string, ts long")
    df.write.format("pyhudi").options(
        **{
            "hoodie.table.name": "tls_bench",
            "hoodie.datasource.write.recordkey.field": "key",
            "hoodie.datasource.write.partitionpath.field": "part",
            "hoodie.datasource.write.precombine.field": "ts",
        }
    ).mode("overwrite").save(str(path))
    meta = next((path / "seed").glob(".hoodie_partition_metadata*"))
    instant = time.strftime("%Y%m%d%H%M%S", time.gmtime(time.time() + 5)) + "000"
    ids: List[Tuple[str, str]] = []
    for p in range(partitions):
        part = f"p{p:04d}"
        folder = path / part
        folder.mkdir()
        shutil.copy(meta, folder / meta.name)
        for _ in range(groups):
            fid = f"{uuid.uuid4()}-0"
            (folder / f"{fid}_0-1-0_{instant}.parquet").touch()
            ids.append((part, fid))
    hoodie = path / ".hoodie"
    (hoodie / f"{instant}.commit.requested").touch()
    (hoodie / f"{instant}.inflight").write_text("{}")
    (hoodie / f"{instant}.commit").write_text(json.dumps({"partitionToWriteStats": {}, "operationType": "INSERT"}))
    return path, ids


def median(runs: List[float]) -> float:
    return statistics.median(runs)


def plot(rows: List[Tuple[str, float, float, float]], out: str) -> None:
    """Pairs of bars, the alternative beside the service (or the parallel listing)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pairs = [
        ("latest-base-file lookups", rows[0], rows[1]),
        ("marker create", rows[2], rows[4]),
        ("marker delete", rows[3], rows[5]),
        ("driver partition listing", rows[6], rows[7]),
    ]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 0.38
    for i, (_name, alt, new) in enumerate(pairs):
        for j, (row, colour) in enumerate([(alt, "#999999"), (new, "#2f6db5")]):
            x = i + (j - 0.5) * width
            ax.bar(x, row[1], width, color=colour, yerr=[[row[1] - row[2]], [row[3] - row[1]]], capsize=3)
            ax.annotate(f"{row[1]:.2f}", (x, row[1]), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(pairs)), [p[0] for p in pairs])
    ax.set_ylabel("seconds (median, min-max)")
    ax.legend(
        handles=[plt.Rectangle((0, 0), 1, 1, color="#999999"), plt.Rectangle((0, 0), 1, 1, color="#2f6db5")],
        labels=["each task / direct / serial", "timeline service / parallel"],
        fontsize=8,
    )
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main(argv: Optional[List[str]] = None) -> None:
    args = parse_args(argv)
    spark = session(args.master)
    jvm = spark._jvm.io.pyhudi.spark.services
    root = Path(tempfile.mkdtemp(prefix="pyhudi-tls-bench-"))
    try:
        started = time.time()
        path, ids = synthesize(spark, root, args.partitions, args.groups)
        print(
            f"table: {args.partitions} partitions x {args.groups} file groups ({len(ids)} files), "
            f"made in {time.time() - started:.1f} s"
        )
        rng = random.Random(1)
        asks = [list(rng.choice(ids)) for _ in range(args.lookups)]
        rows = []
        for label, use in [("each task builds its view", False), ("through the service", True)]:
            runs = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                answers = list(jvm.ViewLookups.latestBaseFiles(spark._jsparkSession, str(path), asks, args.tasks, use))
                runs.append(time.perf_counter() - t)
                assert all(answers), "a lookup found no base file"
            rows.append((f"a) {args.lookups} lookups, {label}", median(runs), min(runs), max(runs)))
        for label, use in [("DIRECT", False), ("TIMELINE_SERVER_BASED", True)]:
            create, delete, files = [], [], []
            for i in range(args.repeat):
                instant = f"2099010100000{i}{int(use)}00"
                c, d, f = jvm.MarkerLoad.run(spark._jsparkSession, str(path), instant, args.markers, args.tasks, use)
                create.append(c / 1000.0)
                delete.append(d / 1000.0)
                files.append(int(f))
            rows.append((f"b) {args.markers} markers {label}: create", median(create), min(create), max(create)))
            rows.append(
                (
                    f"b) {args.markers} markers {label}: delete ({files[0]} files)",
                    median(delete),
                    min(delete),
                    max(delete),
                )
            )
        storage = spark._jvm.io.pyhudi.storage.Storage(spark._jsc.hadoopConfiguration())
        lister = spark._jvm.io.pyhudi.filegroup.PartitionLister
        for label, parallelism in [("one folder after another", 1), ("in parallel", 16)]:
            runs = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                listed = lister.list(storage, str(path), parallelism)
                runs.append(time.perf_counter() - t)
                assert listed.size() == args.partitions + 1, "the listing missed partitions"
            rows.append((f"c) listing {args.partitions + 1} partitions, {label}", median(runs), min(runs), max(runs)))
        print(f"{'case':62} {'median s':>9} {'min':>7} {'max':>7}")
        for name, med, lo, hi in rows:
            print(f"{name:62} {med:9.2f} {lo:7.2f} {hi:7.2f}")
        print(f"ratio lookups service/local: {rows[1][1] / rows[0][1]:.2f}")
        print(
            f"ratio marker create server/direct: {rows[4][1] / rows[2][1]:.2f}; "
            f"delete: {rows[5][1] / max(rows[3][1], 1e-3):.2f}"
        )
        print(f"ratio driver listing parallel/serial: {rows[7][1] / rows[6][1]:.2f}")
        if args.plot:
            plot(rows, args.plot)
    finally:
        shutil.rmtree(root, ignore_errors=True)
        spark.stop()


if __name__ == "__main__":
    main()
