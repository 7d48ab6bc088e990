# SPDX-License-Identifier: Apache-2.0
"""Base-file codec of pyhudi against plain parquet. Not a test: it prints timings.

Usage (from the repository root, with pyhudi installed in the venv)::

    python bench/codec_bench.py                       # 1,000,000 rows, 3 rounds
    python bench/codec_bench.py --rows 200000 --rounds 1

In one SparkSession, for each round, in turn: ``df.write.parquet`` (Spark's default codec,
snappy) and a scan of it, then for every ``hoodie.parquet.compression.codec`` a pyhudi
``bulk_insert`` of the same rows into a new copy-on-write table and a snapshot scan of it. A scan
is a count plus a hash of every column, so every value is decoded. It prints the medians, the
bytes written and the ratios against parquet: what ``bench/run.py`` calls "x parquet" for the
load and the COW scan, here with the codec as the only change.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from write_bench import generate, session  # noqa: E402

CODECS = ("gzip", "snappy", "zstd")


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--codec", action="append", choices=CODECS, help="codecs to time (default: all)")
    return p.parse_args(argv)


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and ".hoodie" not in f.parts)


def main(argv: Optional[List[str]] = None) -> None:
    args = parse_args(argv)
    codecs = args.codec or list(CODECS)
    spark = session(args.master)
    root = Path(tempfile.mkdtemp(prefix="pyhudi-codec-bench-"))
    try:
        data = generate(spark, args.rows)
        # hash() refuses maps; their values go in through map_values().
        columns = [f"map_values({c})" if c == "map_col" else c for c in data.columns]

        def scan(df: Any) -> None:
            df.selectExpr("count(*)", f"sum(hash({', '.join(columns)}))").collect()

        def pyhudi_write(codec: str, path: Path) -> None:
            data.write.format("pyhudi").options(
                **{
                    "hoodie.table.name": "codec_bench",
                    "hoodie.datasource.write.recordkey.field": "key",
                    "hoodie.datasource.write.partitionpath.field": "part",
                    "hoodie.datasource.write.precombine.field": "ts",
                    "hoodie.datasource.write.operation": "bulk_insert",
                    "hoodie.parquet.compression.codec": codec,
                }
            ).mode("overwrite").save(str(path))

        # Warm-up (class loading, JIT), untimed.
        small = data.limit(5000)
        small.write.mode("overwrite").partitionBy("part").parquet(str(root / "warm.parquet"))
        scan(spark.read.parquet(str(root / "warm.parquet")))
        for codec in codecs:
            pyhudi_write(codec, root / f"warm-{codec}")
            scan(spark.read.format("pyhudi").load(str(root / f"warm-{codec}")))

        times: Dict[str, List[float]] = {}
        sizes: Dict[str, int] = {}
        for r in range(args.rounds):
            print(f"round {r + 1}/{args.rounds} ...", file=sys.stderr)
            path = root / f"parquet-{r}"
            times.setdefault("parquet write", []).append(
                timed(lambda: data.write.partitionBy("part").parquet(str(path)))
            )
            times.setdefault("parquet scan", []).append(timed(lambda: scan(spark.read.parquet(str(path)))))
            sizes["parquet"] = size(path)
            shutil.rmtree(path)
            for codec in codecs:
                path = root / f"{codec}-{r}"
                times.setdefault(f"pyhudi {codec} bulk_insert", []).append(timed(lambda: pyhudi_write(codec, path)))
                times.setdefault(f"pyhudi {codec} scan", []).append(
                    timed(lambda: scan(spark.read.format("pyhudi").load(str(path))))
                )
                sizes[codec] = size(path)
                shutil.rmtree(path)

        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"{args.rows} rows, {args.rounds} round(s), master {args.master}")
        print(f"{'case':34} {'median s':>9} {'min':>7} {'max':>7} {'x parquet':>10} {'MB':>8}")
        for name, runs in times.items():
            kind = "write" if ("write" in name or "bulk_insert" in name) else "scan"
            ratio = med[name] / med[f"parquet {kind}"]
            key = "parquet" if name.startswith("parquet") else name.split()[1]
            print(f"{name:34} {med[name]:9.2f} {min(runs):7.2f} {max(runs):7.2f} {ratio:10.2f} {sizes[key] / 1e6:8.1f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
        spark.stop()


if __name__ == "__main__":
    main()
