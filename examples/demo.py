# SPDX-License-Identifier: Apache-2.0
"""pyhudi's main job: a copy-on-write pipeline on generated trips, then reads of real tables.

    python examples/demo.py [CORPUS_DIR]

Part 1 bulk-loads generated trips into a new table, upserts corrections and late arrivals,
deletes cancelled trips, and reads the table back: snapshot, time travel to every commit, and
incremental changes (cross-checked with hudi-rs when the `hudi` package is installed).
The table's history comes from ``pyhudi.HudiTable``. The merge-on-read part takes a named
savepoint, compacts, reads the savepoint by name, cleans, and ends with the Spark-free
``pyhudi`` command (timeline and validate).
Part 2 reads two tables written by Apache Hudi from the conformance corpus (CORPUS_DIR holds
cow/ and mor/ with the zipped tables, default <repo>/../shared/hudi-tables/v6), unzipped into a
temporary folder. Needs an installed pyhudi (with its jar) and PySpark 4.
"""

import argparse
import subprocess
import sys
import tempfile
import zipfile
from datetime import datetime
from pathlib import Path
from typing import List, Tuple

from pyspark.sql import DataFrame, SparkSession

import pyhudi
from pyhudi import QueryType

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "hudi-tables" / "v6"
TABLES = ("mor/v6_trips_8i1u", "cow/v6_simplekeygen_nonhivestyle")


def unzip_table(corpus: Path, name: str, target: Path) -> Path:
    with zipfile.ZipFile(corpus / f"{name}.zip") as zf:
        zf.extractall(target)
    return target / name.split("/")[1]


def completed_instants(table: Path) -> List[Tuple[str, str]]:
    """(instant, action) of the completed commits, oldest first, from ``.hoodie/``."""
    actions = ("commit", "deltacommit", "replacecommit")
    found = [
        tuple(f.name.split(".", 1))
        for f in (table / ".hoodie").iterdir()
        if f.is_file() and f.name.count(".") == 1 and f.name.split(".")[1] in actions
    ]
    return sorted(found)  # type: ignore[return-value]


def show(title: str, df: DataFrame, max_columns: int = 7) -> None:
    """Print the rows with the commit time and the first data columns."""
    data_columns = [c for c in df.columns if not c.startswith("_hoodie_")]
    meta = ["_hoodie_commit_time"] if "_hoodie_commit_time" in df.columns else []
    view = df.select(*meta, *data_columns[:max_columns]).orderBy(*data_columns[:1])
    rows = view.count()
    print(f"\n== {title}: {rows} rows")
    view.show(max(rows, 1), truncate=24)


def tour(spark: SparkSession, name: str, path: Path) -> None:
    instants = completed_instants(path)
    is_mor = name.startswith("mor/")
    print(f"\n######## {name} ({'merge-on-read' if is_mor else 'copy-on-write'})")
    print("completed instants: " + ", ".join(f"{i} ({a})" for i, a in instants))

    show("snapshot", pyhudi.read(spark, path))
    if is_mor:
        show("read_optimized (base files only)", pyhudi.read(spark, path, QueryType.READ_OPTIMIZED))
    for instant, _ in instants:
        show(f"time travel: as of {instant}", pyhudi.read(spark, path, as_of=instant))
    if len(instants) >= 2:
        (first, _), (second, _) = instants[0], instants[1]
        # A datetime works too: instants are wall-clock times (yyyyMMddHHmmssSSS).
        begin = datetime.strptime(first, "%Y%m%d%H%M%S%f")
        show(
            f"incremental: changes after {first} up to {second}",
            pyhudi.read(spark, path, QueryType.INCREMENTAL, begin=begin, end=second),
        )


CITIES = ("amsterdam", "chennai", "sao_paulo", "san_francisco")
TRIP_OPTIONS = {
    "hoodie.table.name": "trips",
    "hoodie.datasource.write.recordkey.field": "trip_id",
    "hoodie.datasource.write.partitionpath.field": "city",
    "hoodie.datasource.write.hive_style_partitioning": "true",
    "hoodie.datasource.write.precombine.field": "ts",
}


def trips(spark: SparkSession, first: int, count: int, ts: int, fare_shift: float) -> DataFrame:
    """Generated trips with ids first..first+count-1 (deterministic, no randomness)."""
    return spark.range(first, first + count).selectExpr(
        "concat('trip-', lpad(cast(id as string), 6, '0')) as trip_id",
        f"element_at(array{CITIES}, cast(id % {len(CITIES)} as int) + 1) as city",
        "concat('rider-', cast(id % 97 as string)) as rider",
        f"round(5 + (id * 7919 % 5000) / 100.0 + {fare_shift}, 2) as fare",
        f"cast({ts} + id as long) as ts",
        "date_add(date'2025-01-01', cast(id % 30 as int)) as trip_date",
    )


def pipeline(spark: SparkSession, path: Path) -> None:
    print(f"\n######## write pipeline: copy-on-write table at {path}")
    writer = lambda df, op, mode="append": (  # noqa: E731
        df.write.format("pyhudi")
        .options(**TRIP_OPTIONS)
        .option("hoodie.datasource.write.operation", op)
        .mode(mode)
        .save(str(path))
    )
    writer(trips(spark, 0, 2000, ts=1_000, fare_shift=0.0), "bulk_insert", mode="errorifexists")
    # Corrections for 100 existing trips plus 200 late arrivals, in one upsert.
    writer(trips(spark, 1900, 300, ts=2_000, fare_shift=1.5), "upsert")
    # Cancelled trips: only the key and partition columns are needed.
    writer(trips(spark, 0, 50, ts=3_000, fare_shift=0.0).select("trip_id", "city"), "delete")

    instants = completed_instants(path)
    table = pyhudi.HudiTable.for_path(spark, str(path))
    print("\n== history (pyhudi.HudiTable.history())")
    table.history().select(
        "instant", "action", "operation", "rows_inserted", "rows_updated", "rows_deleted", "files_written"
    ).show(truncate=False)
    snapshot = pyhudi.read(spark, path)
    print(f"snapshot: {snapshot.count()} trips (2000 loaded + 200 late - 50 cancelled)")
    snapshot.groupBy("city").count().orderBy("city").show()
    show("snapshot, corrected trips", snapshot.where("trip_id between 'trip-001898' and 'trip-001902'"))
    for instant, _ in instants:
        print(f"time travel as of {instant}: {pyhudi.read(spark, path, as_of=instant).count()} trips")
    show(
        f"incremental: changes after {instants[0][0]}",
        pyhudi.read(spark, path, QueryType.INCREMENTAL, begin=instants[0][0]).where("rider = 'rider-3'"),
    )
    try:
        from hudi import HudiTable  # the Rust reader, an independent check

        rows = sum(b.num_rows for b in HudiTable(str(path)).read())
        print(f"hudi-rs reads the same table: {rows} trips")
    except ImportError:
        pass


def mor_pipeline(spark: SparkSession, path: Path) -> None:
    print(f"\n######## merge-on-read pipeline at {path}")
    options = dict(TRIP_OPTIONS, **{"hoodie.datasource.write.table.type": "MERGE_ON_READ"})
    writer = lambda df, op: (  # noqa: E731
        df.write.format("pyhudi")
        .options(**options)
        .option("hoodie.datasource.write.operation", op)
        .mode("append")
        .save(str(path))
    )
    writer(trips(spark, 0, 1000, ts=1_000, fare_shift=0.0), "bulk_insert")
    # Updates of existing trips go to log files instead of rewriting the base files.
    writer(trips(spark, 0, 100, ts=2_000, fare_shift=10.0), "upsert")
    writer(trips(spark, 100, 20, ts=3_000, fare_shift=0.0).select("trip_id", "city"), "delete")
    logs = sorted(p.name for p in path.rglob(".*.log.*"))
    print(f"log files after the upsert and delete: {len(logs)}")
    fare = "round(sum(fare), 2) as total_fare"
    print("snapshot (base + logs):      ", pyhudi.read(spark, path).selectExpr("count(*) as trips", fare).first())
    print(
        "read_optimized (base only):  ",
        pyhudi.read(spark, path, QueryType.READ_OPTIMIZED).selectExpr("count(*) as trips", fare).first(),
    )
    # A named savepoint: a snapshot later jobs read by name (and that clean keeps).
    table = pyhudi.HudiTable.for_path(spark, str(path))
    table.savepoint(name="before-compaction", retain_days=30, comment="demo")
    instant = table.compact()
    print(f"compaction {instant}: log files folded into new base files")
    print(
        "read_optimized after compaction:",
        pyhudi.read(spark, path, QueryType.READ_OPTIMIZED).selectExpr("count(*) as trips", fare).first(),
    )
    writer(trips(spark, 0, 100, ts=4_000, fare_shift=20.0), "upsert")
    print("latest snapshot:             ", pyhudi.read(spark, path).selectExpr("count(*) as trips", fare).first())
    print(
        "savepoint 'before-compaction':",
        pyhudi.read(spark, path, as_of="before-compaction").selectExpr("count(*) as trips", fare).first(),
    )
    print("savepoints:", [(s["instant"], s["name"]) for s in table.savepoints()])
    table.delete_savepoint("before-compaction")
    # Clean keeping one commit: file slices the latest snapshot no longer needs are deleted.
    files_before = sum(1 for f in path.rglob("*") if f.is_file() and ".hoodie" not in f.parts)
    cleaned = table.clean({"hoodie.clean.commits.retained": "1"})
    files_after = sum(1 for f in path.rglob("*") if f.is_file() and ".hoodie" not in f.parts)
    print(f"clean {cleaned}: data files {files_before} -> {files_after}")
    print("latest snapshot after clean: ", pyhudi.read(spark, path).selectExpr("count(*) as trips", fare).first())
    print("\n== history")
    table.history().select("instant", "action", "state", "operation", "rows_updated", "files_written").show(
        truncate=False
    )
    print("completed instants: " + ", ".join(f"{i} ({a})" for i, a in completed_instants(path)))
    # The pyhudi command inspects a table without Spark or a JVM (pyarrow and fastavro).
    for command in (["timeline", str(path)], ["validate", str(path)]):
        print(f"\n$ pyhudi {' '.join(command)}", flush=True)
        subprocess.run([sys.executable, "-m", "pyhudi", *command], check=True)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    corpus = parser.parse_args(argv).corpus
    missing = [n for n in TABLES if not (corpus / f"{n}.zip").is_file()]
    if missing:
        print(f"{corpus}: missing {', '.join(m + '.zip' for m in missing)}", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="pyhudi-demo-") as tmp:
        paths = {name: unzip_table(corpus, name, Path(tmp)) for name in TABLES}
        builder = (
            SparkSession.builder.master("local[2]")
            .appName("pyhudi-demo")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.session.timeZone", "UTC")
        )
        spark = pyhudi.configure_spark(builder).getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
        try:
            print(f"pyhudi {pyhudi.__version__}, Spark {spark.version}, jar {pyhudi.jar_path()}")
            pipeline(spark, Path(tmp) / "trips")
            mor_pipeline(spark, Path(tmp) / "trips_mor")
            for name, path in paths.items():
                tour(spark, name, path)
        finally:
            spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
