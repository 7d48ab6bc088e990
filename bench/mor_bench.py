# SPDX-License-Identifier: Apache-2.0
"""Merge-on-read benchmark for the pyhudi connector. Not a test: it prints timings.

Usage (from the repository root, with pyhudi installed in the venv)::

    python bench/mor_bench.py                   # 100k rows
    python bench/mor_bench.py --rows 1000000 --master 'local[4]'

In one SparkSession, on the generated rows of ``write_bench.py`` (a column of every corpus
type, 8 partitions), it measures:

a) write: ``bulk_insert`` of the rows into a copy-on-write and a merge-on-read table, then the
   same ``upsert`` of 10% of the keys into each (seconds and bytes of the files the write
   added under the table folder, ``.hoodie/`` included);
b) read, with the upsert's log files pending: merge-on-read ``snapshot``, ``read_optimized``,
   the copy-on-write snapshot and plain parquet (a ``df.write.parquet`` copy of the same rows):
   ``count()`` and a full scan of every column (``write.format("noop")``);
c) compaction of the merge-on-read table (``pyhudi.compact``), then its snapshot read again.
"""

import argparse
import os
import shutil
import sys
import tempfile
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from write_bench import PARTITIONS, generate, session, timed  # noqa: E402


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000, help="rows of the initial load (default 100000)")
    parser.add_argument("--update-fraction", type=float, default=0.10, help="share of keys upserted (default 0.10)")
    parser.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    parser.add_argument("--index", default="BLOOM", help="index type of both tables (default BLOOM)")
    parser.add_argument("--repeat", type=int, default=3, help="read timings: best of N runs (default 3)")
    parser.add_argument("--dir", help="working folder (default: a temporary folder, removed at the end)")
    parser.add_argument("--keep", action="store_true", help="keep the written tables")
    return parser.parse_args(argv)


def hudi_write(df: Any, path: str, table_type: str, operation: str, index: str) -> None:
    df.write.format("pyhudi").options(
        **{
            "hoodie.table.name": f"bench_{table_type.lower()}",
            "hoodie.datasource.write.table.type": table_type,
            "hoodie.datasource.write.recordkey.field": "key",
            "hoodie.datasource.write.partitionpath.field": "part",
            "hoodie.datasource.write.precombine.field": "ts",
            "hoodie.datasource.write.operation": operation,
            "hoodie.index.type": index,
            "hoodie.bucket.index.num.buckets": "16",
        }
    ).mode("append").save(path)


def file_sizes(path: str) -> Dict[str, int]:
    out: Dict[str, int] = {}
    for root, _, names in os.walk(path):
        for name in names:
            full = os.path.join(root, name)
            out[full] = os.path.getsize(full)
    return out


def written_bytes(path: str, before: Dict[str, int]) -> int:
    """Bytes of the files under ``path`` that are new or changed since ``before``."""
    return sum(size for name, size in file_sizes(path).items() if before.get(name) != size)


def best_of(repeat: int, fn: Any) -> float:
    return min(timed(fn) for _ in range(repeat))


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    work = args.dir or tempfile.mkdtemp(prefix="pyhudi-mor-bench-")
    os.makedirs(work, exist_ok=True)
    spark = session(args.master)
    results: List[Tuple[str, int, float, Optional[int]]] = []
    import pyhudi

    try:
        print(f"generating {args.rows} rows ...", file=sys.stderr)
        data = generate(spark, args.rows)
        modulus = max(1, round(1 / args.update_fraction))
        updates = generate(spark, args.rows, salt=1).where(f"id % {modulus} = 3").cache()
        n_updates = updates.count()

        print("warming up ...", file=sys.stderr)
        small = data.limit(2000)
        for table_type in ("COPY_ON_WRITE", "MERGE_ON_READ"):
            warm = os.path.join(work, f"warmup_{table_type.lower()}")
            hudi_write(small, warm, table_type, "bulk_insert", args.index)
            hudi_write(small.limit(200), warm, table_type, "upsert", args.index)
            spark.read.format("pyhudi").load(warm).write.format("noop").mode("overwrite").save()
        pyhudi.compact(spark, os.path.join(work, "warmup_merge_on_read"))

        parquet = os.path.join(work, "copy.parquet")
        t = timed(lambda: data.write.mode("overwrite").parquet(parquet))
        results.append(("a) df.write.parquet (baseline copy)", args.rows, t, written_bytes(parquet, {})))

        tables = {}
        for table_type, label in (("COPY_ON_WRITE", "COW"), ("MERGE_ON_READ", "MOR")):
            path = os.path.join(work, label.lower())
            tables[label] = path
            print(f"a) {label}: bulk_insert, then upsert ...", file=sys.stderr)
            t = timed(lambda: hudi_write(data, path, table_type, "bulk_insert", args.index))
            results.append((f"a) {label} bulk_insert", args.rows, t, written_bytes(path, {})))
            before = file_sizes(path)
            t = timed(lambda: hudi_write(updates, path, table_type, "upsert", args.index))
            results.append((f"a) {label} upsert {n_updates} keys", n_updates, t, written_bytes(path, before)))

        def reader(label: str, options: Dict[str, str]) -> Any:
            return lambda: spark.read.format("pyhudi").options(**options).load(tables[label])

        views = [
            ("MOR snapshot", reader("MOR", {})),
            ("MOR read_optimized", reader("MOR", {"hoodie.datasource.query.type": "read_optimized"})),
            ("COW snapshot", reader("COW", {})),
            ("parquet copy", lambda: spark.read.parquet(parquet)),
        ]
        print("b) reads ...", file=sys.stderr)
        for name, load in views:
            t = best_of(args.repeat, lambda: load().count())
            results.append((f"b) {name}: count()", args.rows, t, None))
            t = best_of(args.repeat, lambda: load().write.format("noop").mode("overwrite").save())
            results.append((f"b) {name}: full scan", args.rows, t, None))

        print("c) compaction ...", file=sys.stderr)
        before = file_sizes(tables["MOR"])
        instant: List[Optional[str]] = []
        t = timed(lambda: instant.append(pyhudi.compact(spark, tables["MOR"])))
        assert instant[0] is not None, "compaction found no log files"
        results.append(("c) MOR compaction", args.rows, t, written_bytes(tables["MOR"], before)))
        load = reader("MOR", {})
        t = best_of(args.repeat, lambda: load().count())
        results.append(("c) MOR snapshot after compaction: count()", args.rows, t, None))
        t = best_of(args.repeat, lambda: load().write.format("noop").mode("overwrite").save())
        results.append(("c) MOR snapshot after compaction: full scan", args.rows, t, None))

        print_table(results, args)
    finally:
        spark.stop()
        if not args.keep and not args.dir:
            shutil.rmtree(work, ignore_errors=True)
        elif args.keep:
            print(f"tables kept in {work}", file=sys.stderr)
    return 0


def print_table(results: List[Tuple[str, int, float, Optional[int]]], args: argparse.Namespace) -> None:
    import pyspark

    import pyhudi

    print(
        f"\npyhudi {pyhudi.__version__}, PySpark {pyspark.__version__}, master {args.master}, "
        f"{args.rows} rows, {PARTITIONS} partitions, update fraction {args.update_fraction}, "
        f"index {args.index}, reads best of {args.repeat}"
    )
    header = f"{'step':<46} {'rows':>8} {'seconds':>8} {'rows/s':>10} {'MB written':>11}"
    print(header)
    print("-" * len(header))
    for step, rows, seconds, size in results:
        rate = rows / seconds if seconds > 0 else float("inf")
        mb = f"{size / 1e6:>11.2f}" if size is not None else f"{'':>11}"
        print(f"{step:<46} {rows:>8} {seconds:>8.2f} {rate:>10.0f} {mb}")
    print(
        "\nMB written: files the step added or changed under the table folder (.hoodie/ included). "
        "Timings vary run to run; compare within one run."
    )


if __name__ == "__main__":
    sys.exit(main())
