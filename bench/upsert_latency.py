# SPDX-License-Identifier: Apache-2.0
"""Where an upsert spends its time before its instant exists. Not a test: it prints timings.

Usage (from the repository root, with pyhudi installed in the venv)::

    python bench/upsert_latency.py                     # 400k-row table, 200k-row upsert
    python bench/upsert_latency.py --rows 1000000 --upsert-rows 500000 --index SIMPLE

It loads a copy-on-write table with ``bulk_insert``, then upserts a batch in which half the rows
update existing keys and half are new, ``--repeat`` times into fresh copies of the table, and
prints per run: the whole write, the part before ``<instant>.commit.requested`` appears (key
generation, de-duplication, index lookup and write planning: Spark jobs that read the input and
the table before anything is written) and the part after it (writing and committing). The same
batch written with ``df.write.parquet`` in the same session is the baseline.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from typing import List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from write_bench import generate, hudi_write, session, timed  # noqa: E402


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=400_000, help="rows of the table (default 400000)")
    p.add_argument("--upsert-rows", type=int, default=200_000, help="rows of the upsert (default 200000)")
    p.add_argument("--index", default="BLOOM", help="hoodie.index.type (default BLOOM)")
    p.add_argument("--repeat", type=int, default=3, help="runs of the upsert (default 3)")
    p.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    return p.parse_args(argv)


def requested_mtime(path: str) -> float:
    """Modification time of the newest ``*.commit.requested`` in the table's timeline."""
    meta = os.path.join(path, ".hoodie")
    names = sorted(n for n in os.listdir(meta) if n.endswith(".commit.requested"))
    return os.path.getmtime(os.path.join(meta, names[-1]))


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    work = tempfile.mkdtemp(prefix="pyhudi-latency-")
    spark = session(args.master)
    try:
        table = generate(spark, args.rows)
        half = args.upsert_rows // 2
        # Updates of existing ids (spread over the table) plus new ids beyond it.
        batch = (
            generate(spark, args.rows + half, salt=1)
            .where(f"id >= {args.rows} or id % {max(1, args.rows // half)} = 0")
            .limit(args.upsert_rows)
            .cache()
        )
        n = batch.count()
        warm = os.path.join(work, "warm")
        hudi_write(table.limit(2000), warm, "warm", "bulk_insert", args.index, 16)
        hudi_write(batch.limit(500), warm, "warm", "upsert", args.index, 16)
        parquet_s = timed(lambda: batch.write.mode("overwrite").parquet(os.path.join(work, "baseline.parquet")))
        base = os.path.join(work, "base")
        hudi_write(table, base, "lat", "bulk_insert", args.index, 16)
        totals, befores = [], []
        for i in range(args.repeat):
            path = os.path.join(work, f"run{i}")
            shutil.copytree(base, path)
            start = time.time()
            hudi_write(batch, path, "lat", "upsert", args.index, 16)
            end = time.time()
            totals.append(end - start)
            befores.append(requested_mtime(path) - start)
            shutil.rmtree(path, ignore_errors=True)
            print(f"run {i}: {totals[-1]:.1f} s, {befores[-1]:.1f} s before the instant", file=sys.stderr)

        import pyspark

        import pyhudi

        med_total, med_before = statistics.median(totals), statistics.median(befores)
        print(
            f"\npyhudi {pyhudi.__version__}, PySpark {pyspark.__version__}, master {args.master}, "
            f"{args.index} index: upsert of {n} rows (half new) into a {args.rows}-row COW table, "
            f"{args.repeat} runs"
        )
        print(f"{'':<28} {'median s':>9} {'min':>7} {'max':>7}")
        print(f"{'whole upsert':<28} {med_total:>9.1f} {min(totals):>7.1f} {max(totals):>7.1f}")
        print(f"{'before the instant':<28} {med_before:>9.1f} {min(befores):>7.1f} {max(befores):>7.1f}")
        after = [t - b for t, b in zip(totals, befores)]
        print(f"{'after (write + commit)':<28} {statistics.median(after):>9.1f} {min(after):>7.1f} {max(after):>7.1f}")
        print(f"{'parquet write of the batch':<28} {parquet_s:>9.1f}")
        print(f"upsert / parquet: {med_total / parquet_s:.2f}")
    finally:
        spark.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
