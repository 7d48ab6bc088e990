# SPDX-License-Identifier: Apache-2.0
"""How a snapshot scan divides a table's file slices among Spark tasks.

Small file slices are packed into a few tasks (a multiple of the cores, as evenly as their bytes
allow) instead of a task each, and a large base file without log files is read in byte ranges
by several tasks. Either way every row must come out exactly once, merged slices included.
"""

from pathlib import Path
from typing import Any, Dict, List, Tuple

import harness
from pyspark.sql import functions as F

COLUMNS = ["id", "part", "ts", "v", "note"]


def _rows(spark: Any, ids: range, ts: int, parts: int, note: str = "") -> Any:
    return spark.range(ids.start, ids.stop).selectExpr(
        "concat('k', cast(id as string)) as id",
        f"concat('p', cast(id % {parts} as string)) as part",
        f"cast({ts} as long) as ts",
        f"id * {ts} as v",
        note or f"concat('note-', cast(id as string), '-{ts}') as note",
    )


def _scan(spark: Any, path: Path) -> Tuple[int, List[Tuple[Any, ...]]]:
    df = spark.read.format("pyhudi").load(str(path)).select(*COLUMNS)
    return df.rdd.getNumPartitions(), sorted(tuple(r) for r in df.collect())


def _file_slices(path: Path) -> int:
    """File groups on disk: each base file's or log file's file id, counted once."""
    files = [f.name for f in path.glob("p*/*") if f.name.endswith(".parquet") or ".log." in f.name]
    ids = {name.lstrip(".").split("_")[0] for name in files}
    return len(ids)


def test_small_file_slices_share_tasks_and_every_row_is_read_once(spark: Any, tmp_path: Path) -> None:
    path = tmp_path / "many_slices"
    parts = 24
    opts = harness.write_options(
        "many_slices", "MERGE_ON_READ", **{"hoodie.index.type": "BUCKET", "hoodie.bucket.index.num.buckets": "2"}
    )
    _rows(spark, range(0, 2400), 1, parts).write.format("pyhudi").options(**opts).option(
        "hoodie.datasource.write.operation", "bulk_insert"
    ).mode("overwrite").save(str(path))
    # Updates of a third of the keys and new keys go to log files; a fifth of the keys are deleted.
    updates = _rows(spark, range(0, 2400, 3), 2, parts).union(_rows(spark, range(2400, 2600), 2, parts))
    updates.write.format("pyhudi").options(**opts).option("hoodie.datasource.write.operation", "upsert").mode(
        "append"
    ).save(str(path))
    deletes = _rows(spark, range(1, 2400, 5), 3, parts)
    deletes.write.format("pyhudi").options(**opts).option("hoodie.datasource.write.operation", "delete").mode(
        "append"
    ).save(str(path))

    expected: Dict[str, Tuple[Any, ...]] = {}
    for df in (_rows(spark, range(0, 2400), 1, parts), updates):
        for r in df.collect():
            expected[r.id] = tuple(r)
    for r in deletes.collect():
        expected.pop(r.id, None)

    slices = _file_slices(path)
    assert slices == parts * 2
    tasks, rows = _scan(spark, path)
    cores = spark.sparkContext.defaultParallelism
    assert tasks < slices, f"{slices} small file slices should share tasks, got {tasks} tasks"
    assert tasks % cores == 0, f"{tasks} tasks on {cores} cores"
    assert rows == sorted(expected.values())


def test_a_large_base_file_is_read_in_ranges_by_several_tasks(spark: Any, tmp_path: Path) -> None:
    path = tmp_path / "one_large_file"
    opts = harness.write_options(
        "one_large_file",
        "COPY_ON_WRITE",
        **{"hoodie.parquet.block.size": str(64 * 1024), "hoodie.datasource.write.operation": "bulk_insert"},
    )
    # Hashes do not compress: 60,000 rows make a base file of a few MiB.
    data = _rows(spark, range(0, 60000), 1, 1, note="sha2(cast(id as string), 256) as note").coalesce(1)
    data.write.format("pyhudi").options(**opts).mode("overwrite").save(str(path))
    base_files = list(path.glob("p0/*.parquet"))
    assert len(base_files) == 1
    size = base_files[0].stat().st_size

    before = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(max(1 << 20, size // 4)))
    try:
        tasks, rows = _scan(spark, path)
        # A range under 1 MiB is never cut, so the file must be larger than two of them.
        assert size > 2 << 20, f"the base file is {size} bytes, too small to be cut"
        assert tasks >= 2, f"a {size}-byte file read by {tasks} task(s)"
        assert rows == sorted(tuple(r) for r in data.collect())
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", before)
    assert spark.read.format("pyhudi").load(str(path)).agg(F.count("*")).first()[0] == 60000
