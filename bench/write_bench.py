# SPDX-License-Identifier: Apache-2.0
"""Write benchmark for the pyhudi connector (copy-on-write). Not a test: it prints timings.

Usage (from the repository root, with pyhudi installed in the venv)::

    python bench/write_bench.py                 # 200k rows
    python bench/write_bench.py --rows 1000000 --master 'local[4]'

In one SparkSession it times, on generated rows with every column type of the corpus:

a) ``df.write.parquet`` (the baseline),
b) pyhudi ``bulk_insert`` of the same rows into a new table,
c) an ``upsert`` of 10% of the keys into that table,
d) per index type, the same 10% upsert into a freshly loaded table with that index
   (the load is timed too),

and prints seconds, rows per second and the ratio against the parquet baseline.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time
from typing import Any, Callable, List, Optional, Tuple

INDEX_TYPES = ("BLOOM", "SIMPLE", "GLOBAL_BLOOM", "GLOBAL_SIMPLE", "BUCKET")
PARTITIONS = 8


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=200_000, help="rows of the initial load (default 200000)")
    parser.add_argument("--update-fraction", type=float, default=0.10, help="share of keys upserted (default 0.10)")
    parser.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    parser.add_argument(
        "--buckets", type=int, default=16, help="hoodie.bucket.index.num.buckets for BUCKET (default 16)"
    )
    parser.add_argument("--index", action="append", choices=INDEX_TYPES, help="index types for d) (default: all)")
    parser.add_argument("--dir", help="working folder (default: a temporary folder, removed at the end)")
    parser.add_argument("--keep", action="store_true", help="keep the written tables")
    return parser.parse_args(argv)


def session(master: str) -> Any:
    from pyspark.sql import SparkSession

    import pyhudi

    builder = (
        SparkSession.builder.master(master)
        .appName("pyhudi-write-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", str(max(2, os.cpu_count() or 2)))
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def generate(spark: Any, rows: int, salt: int = 0) -> Any:
    """``rows`` rows keyed by ``id`` with a column of every corpus type, cached."""
    df = spark.range(rows).selectExpr(
        "id",
        "concat('k', id) as key",
        f"concat('p', id % {PARTITIONS}) as part",
        f"id * 10 + {salt} as ts",
        f"cast((id * 7 + {salt}) % 2147483647 as int) as int_col",
        f"id * 1000003 + {salt} as long_col",
        f"concat('name-', cast(id * 31 + {salt} as string)) as str_col",
        f"(id + {salt}) % 2 = 0 as bool_col",
        f"cast((id + {salt}) / 4.0 as float) as float_col",
        f"(id + {salt}) * 1.000001 as double_col",
        f"cast(((id + {salt}) % 99999) + 0.12345 as decimal(10,5)) as dec_col",
        f"date_add(date'2020-01-01', cast((id + {salt}) % 3650 as int)) as date_col",
        f"timestamp_seconds(1600000000 + id + {salt}) as ts_col",
        f"unhex(sha1(cast(id + {salt} as string))) as bin_col",
        f"array(named_struct('a1', concat('e', cast(id as string)), 'a2', cast(id % 100 as int)),"
        f" named_struct('a1', 'x', 'a2', {salt})) as arr_col",
        "map('m1', named_struct('m1', id * 0.5, 'm2', id % 3 = 0)) as map_col",
        f"named_struct('s1', cast(id as string), 's2', cast(id % 1000 as int),"
        f" 'child', named_struct('c1', (id + {salt}) * 0.25, 'c2', id % 5 = 0)) as struct_col",
    )
    df = df.cache()
    df.count()
    return df


def hudi_options(name: str, operation: str, index: str, buckets: int) -> dict:
    options = {
        "hoodie.table.name": name,
        "hoodie.datasource.write.recordkey.field": "key",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        "hoodie.datasource.write.operation": operation,
        "hoodie.index.type": index,
    }
    if index == "BUCKET":
        options["hoodie.bucket.index.num.buckets"] = str(buckets)
    return options


def hudi_write(df: Any, path: str, name: str, operation: str, index: str, buckets: int) -> None:
    df.write.format("pyhudi").options(**hudi_options(name, operation, index, buckets)).mode("append").save(path)


def timed(fn: Callable[[], None]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    indexes = args.index or list(INDEX_TYPES)
    work = args.dir or tempfile.mkdtemp(prefix="pyhudi-bench-")
    os.makedirs(work, exist_ok=True)
    spark = session(args.master)
    results: List[Tuple[str, int, float, Optional[int]]] = []

    def table_rows(path: str) -> int:
        # Untimed sanity check: an upsert of existing keys must not change the row count.
        return spark.read.format("pyhudi").load(path).count()

    try:
        print(f"generating {args.rows} rows ...", file=sys.stderr)
        data = generate(spark, args.rows)
        modulus = max(1, round(1 / args.update_fraction))
        updates = generate(spark, args.rows, salt=1).where(f"id % {modulus} = 3").cache()
        n_updates = updates.count()

        # Warm-up: class loading and JIT, on a small table, untimed.
        print("warming up ...", file=sys.stderr)
        small = data.limit(2000)
        small.write.mode("overwrite").parquet(os.path.join(work, "warmup.parquet"))
        hudi_write(small, os.path.join(work, "warmup"), "warmup", "bulk_insert", "BLOOM", args.buckets)
        hudi_write(small.limit(200), os.path.join(work, "warmup"), "warmup", "upsert", "BLOOM", args.buckets)

        print("a) parquet baseline ...", file=sys.stderr)
        parquet_s = timed(lambda: data.write.mode("overwrite").parquet(os.path.join(work, "baseline.parquet")))
        results.append(("a) df.write.parquet", args.rows, parquet_s, None))

        base = os.path.join(work, "bloom_table")
        print("b) bulk_insert ...", file=sys.stderr)
        load_s = timed(lambda: hudi_write(data, base, "bench", "bulk_insert", "BLOOM", args.buckets))
        results.append(("b) pyhudi bulk_insert", args.rows, load_s, table_rows(base)))

        print("c) upsert of the update batch ...", file=sys.stderr)
        upsert_s = timed(lambda: hudi_write(updates, base, "bench", "upsert", "BLOOM", args.buckets))
        results.append((f"c) upsert {n_updates} keys (BLOOM)", n_updates, upsert_s, table_rows(base)))

        for index in indexes:
            path = os.path.join(work, f"table_{index.lower()}")
            print(f"d) {index}: load, then upsert ...", file=sys.stderr)
            t_load = timed(lambda: hudi_write(data, path, f"bench_{index.lower()}", "bulk_insert", index, args.buckets))
            results.append((f"d) {index} load (bulk_insert)", args.rows, t_load, table_rows(path)))
            t_up = timed(lambda: hudi_write(updates, path, f"bench_{index.lower()}", "upsert", index, args.buckets))
            results.append((f"d) {index} upsert {n_updates} keys", n_updates, t_up, table_rows(path)))
            if not args.keep:
                shutil.rmtree(path, ignore_errors=True)

        print_table(results, parquet_s, load_s, args)
    finally:
        spark.stop()
        if not args.keep and not args.dir:
            shutil.rmtree(work, ignore_errors=True)
        elif args.keep:
            print(f"tables kept in {work}", file=sys.stderr)
    return 0


def print_table(
    results: List[Tuple[str, int, float, Optional[int]]], parquet_s: float, load_s: float, args: argparse.Namespace
) -> None:
    import pyspark

    import pyhudi

    print(
        f"\npyhudi {pyhudi.__version__}, PySpark {pyspark.__version__}, master {args.master}, "
        f"{args.rows} rows, {PARTITIONS} partitions, update fraction {args.update_fraction}"
    )
    header = (
        f"{'step':<40} {'rows':>10} {'seconds':>9} {'rows/s':>11} {'x parquet':>10} {'x load':>8} {'table rows':>11}"
    )
    print(header)
    print("-" * len(header))
    for step, rows, seconds, after in results:
        rate = rows / seconds if seconds > 0 else float("inf")
        flag = "" if after is None or after == args.rows else "  <- expected " + str(args.rows)
        print(
            f"{step:<40} {rows:>10} {seconds:>9.2f} {rate:>11.0f} {seconds / parquet_s:>10.2f} {seconds / load_s:>8.2f}"
            f" {'' if after is None else after:>11}{flag}"
        )
    print(
        "\nx parquet: time / time of a); x load: time / time of b). table rows: rows read back after "
        "the step (untimed); upserts touch existing keys only, so it stays at the load's count.\n"
        "Timings vary run to run and with other load on the machine; compare within one run."
    )


if __name__ == "__main__":
    sys.exit(main())
