# SPDX-License-Identifier: Apache-2.0
"""Scan of a table of many small file groups. Not a test: it prints timings.

Usage (from the repository root)::

    bench/.envs/spark4/bin/python bench/small_slices_bench.py --dir /tmp/small_slices
    bench/.envs/hudi/bin/python bench/small_slices_bench.py --dir /tmp/small_slices --system hudi

A Hudi table partitioned finely has a file group per partition, each a few hundred KiB. The
first run writes such a table with pyhudi (``bulk_insert``, ``--partitions`` partitions, one
file group each) and the same rows as plain parquet partitioned the same way (``--dir``, kept
for the next run). Every run then reads the table with ``--system`` (pyhudi, or Apache Hudi
1.2 on Spark 3.5 in its own environment) and the parquet copy in the same process, alternately,
``--repeat`` times, and prints the median seconds of each and their ratio. Both scans compute
the row count and the xor of a hash of every column, and must agree.
"""

import argparse
import os
import shutil
import statistics
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "systems"))

from hudi_system import session_conf  # noqa: E402
from run import HUDI_VERSION  # noqa: E402

COLUMNS = ["id", "part", "v", "d", "s", "ts"]


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", required=True, help="folder of the table and its parquet copy (written when missing)")
    p.add_argument("--system", choices=["pyhudi", "hudi"], default="pyhudi", help="reader of the table")
    p.add_argument("--rows", type=int, default=1_000_000, help="rows written (default 1000000)")
    p.add_argument("--partitions", type=int, default=400, help="partitions, one file group each (default 400)")
    p.add_argument("--repeat", type=int, default=7, help="scans of each (default 7; the first two are warm-up)")
    p.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    return p.parse_args(argv)


def session(args: argparse.Namespace) -> Any:
    from pyspark.sql import SparkSession

    b = (
        SparkSession.builder.master(args.master)
        .appName(f"small-slices-{args.system}")
        .config("spark.driver.memory", "4g")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    if args.system == "hudi":
        for k, v in session_conf(HUDI_VERSION).items():
            b = b.config(k, v)
    else:
        import pyhudi

        b = pyhudi.configure_spark(b)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def build(spark: Any, args: argparse.Namespace, table: str, copy: str) -> None:
    shutil.rmtree(table, ignore_errors=True)
    shutil.rmtree(copy, ignore_errors=True)
    df = (
        spark.range(0, args.rows)
        .selectExpr(
            "concat('k', cast(id as string)) as id",
            f"concat('p', lpad(cast(id % {args.partitions} as string), 4, '0')) as part",
            "id as v",
            "cast(id * 1.5 as double) as d",
            "concat('name-', cast(id as string)) as s",
            "id as ts",
        )
        .repartition(args.partitions, "part")
        .cache()
    )
    df.count()
    df.write.format("pyhudi").options(
        **{
            "hoodie.table.name": "small_slices",
            "hoodie.datasource.write.table.type": "COPY_ON_WRITE",
            "hoodie.datasource.write.recordkey.field": "id",
            "hoodie.datasource.write.partitionpath.field": "part",
            "hoodie.datasource.write.precombine.field": "ts",
            "hoodie.datasource.write.operation": "bulk_insert",
        }
    ).mode("overwrite").save(table)
    df.write.partitionBy("part").parquet(copy)
    df.unpersist()


def scan(spark: Any, df: Any) -> Tuple[float, Tuple[int, int]]:
    from pyspark.sql import functions as F

    t = time.perf_counter()
    row = df.select(*COLUMNS).agg(F.count(F.lit(1)), F.expr(f"bit_xor(xxhash64({', '.join(COLUMNS)}))")).first()
    return time.perf_counter() - t, (int(row[0]), int(row[1] or 0))


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    table, copy = os.path.join(args.dir, "table"), os.path.join(args.dir, "parquet")
    spark = session(args)
    if not os.path.isdir(os.path.join(table, ".hoodie")):
        if args.system != "pyhudi":
            sys.exit(f"no table at {table}: write it first with --system pyhudi")
        build(spark, args, table, copy)
    fmt = "pyhudi" if args.system == "pyhudi" else "hudi"
    seconds: Dict[str, List[float]] = {fmt: [], "parquet": []}
    tasks: Dict[str, int] = {}
    last: Optional[Tuple[int, int]] = None
    for _ in range(args.repeat):
        for name in (fmt, "parquet"):
            df = spark.read.format(fmt).load(table) if name != "parquet" else spark.read.parquet(copy)
            tasks[name] = df.rdd.getNumPartitions()
            s, check = scan(spark, df)
            seconds[name].append(s)
            if name == "parquet" and check != last:
                sys.exit(f"{fmt} and parquet disagree: {last} against {check}")
            last = check
    spark.stop()
    kept = {k: v[2:] if len(v) > 2 else v for k, v in seconds.items()}
    med = {k: statistics.median(v) for k, v in kept.items()}
    print(f"{args.partitions} file groups, {args.rows} rows, medians of {len(kept[fmt])} scans after warm-up")
    for name in (fmt, "parquet"):
        runs = " ".join(f"{s:.2f}" for s in kept[name])
        print(f"  {name:8s} {med[name]:6.2f} s  ({tasks[name]} tasks; runs {runs})")
    print(f"  {fmt} / parquet: {med[fmt] / med['parquet']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
