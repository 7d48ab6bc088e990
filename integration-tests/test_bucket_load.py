# SPDX-License-Identifier: Apache-2.0
"""A bulk_insert under the bucket index into a table without data: the one-pass load.

Each record's bucket is computed from its key as the records stream, and one shuffle sends every
(partition, bucket) to the task that writes it. The bucket must be Apache Hudi's (Java's
``List<String>.hashCode`` of the key, sign bit cleared, modulo the bucket count), or later
writes, pyhudi's or Apache Hudi's, would route a key to another file group than the one holding
it. The bucket numbers are recomputed here, independently of the connector.
"""

from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import harness
import pytest
from pyspark.sql import functions as F

BUCKETS = 4
PARTS = 5


def _options(name: str, table_type: str, op: str) -> Dict[str, str]:
    return harness.write_options(
        name,
        table_type,
        **{
            "hoodie.datasource.write.operation": op,
            "hoodie.index.type": "BUCKET",
            "hoodie.bucket.index.num.buckets": str(BUCKETS),
        },
    )


def _rows(spark: Any, ids: range, ts: int) -> Any:
    return spark.range(ids.start, ids.stop, ids.step, 3).selectExpr(
        "concat('k', cast(id as string)) as id",
        f"concat('p', cast(id % {PARTS} as string)) as part",
        f"cast({ts} as long) as ts",
        f"id * {ts} as v",
    )


def _java_string_hash(s: str) -> int:
    """Java's ``String.hashCode``: over UTF-16 code units, in wrapping 32-bit arithmetic."""
    units = s.encode("utf-16-be")
    h = 0
    for i in range(0, len(units), 2):
        h = (31 * h + int.from_bytes(units[i : i + 2], "big")) & 0xFFFFFFFF
    return h


def hudi_bucket(key: str, buckets: int) -> int:
    """Apache Hudi's simple bucket of a simple record key: ``[key].hashCode()``, sign bit cleared."""
    list_hash = (31 * 1 + _java_string_hash(key)) & 0xFFFFFFFF
    return (list_hash & 0x7FFFFFFF) % buckets


def _placement(spark: Any, path: Path) -> Tuple[Dict[Tuple[str, int], set], List[Tuple[Any, ...]]]:
    """Each (partition, bucket of the key)'s file ids, and the table's rows."""
    df = spark.read.format("pyhudi").load(str(path))
    got = df.select("_hoodie_record_key", "_hoodie_partition_path", "_hoodie_file_name", "id", "part", "ts", "v")
    groups: Dict[Tuple[str, int], set] = defaultdict(set)
    rows = []
    for key, part, name, *values in got.collect():
        file_id = name.split("_")[0]
        assert int(file_id[:8]) == hudi_bucket(key, BUCKETS), (key, name)
        groups[(part, hudi_bucket(key, BUCKETS))].add(file_id)
        rows.append(tuple(values))
    return groups, sorted(rows)


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_a_first_bulk_insert_writes_each_bucket_once_where_apache_hudi_routes_its_keys(
    spark: Any, tmp_path: Path, table_type: str
) -> None:
    path = tmp_path / "t"
    _rows(spark, range(0, 3000), 1).write.format("pyhudi").options(
        **_options("bucket_load", table_type, "bulk_insert")
    ).mode("overwrite").save(str(path))
    groups, rows = _placement(spark, path)
    # every (partition, bucket) is one file group, written as one base file
    assert len(groups) == PARTS * BUCKETS
    assert all(len(ids) == 1 for ids in groups.values())
    assert len(list(path.glob("p*/*.parquet"))) == PARTS * BUCKETS
    assert rows == sorted((f"k{i}", f"p{i % PARTS}", 1, i) for i in range(3000))

    # An upsert after the load finds every key's group by its bucket: no new file group, and the
    # updated and new rows are where Apache Hudi would look for them.
    updates = _rows(spark, range(0, 3600, 4), 2)
    updates.write.format("pyhudi").options(**_options("bucket_load", table_type, "upsert")).mode("append").save(
        str(path)
    )
    after, rows = _placement(spark, path)
    assert after == groups
    expected = {i: (f"k{i}", f"p{i % PARTS}", 1, i) for i in range(3000)}
    expected.update({i: (f"k{i}", f"p{i % PARTS}", 2, 2 * i) for i in range(0, 3600, 4)})
    assert rows == sorted(expected.values())


def _jobs(spark: Any, group: str, write: Any) -> int:
    """The Spark jobs ``write()`` ran."""
    sc = spark.sparkContext
    sc.setJobGroup(group, group)
    try:
        write()
    finally:
        sc.setLocalProperty("spark.jobGroup.id", None)
    return len(sc.statusTracker().getJobIdsForGroup(group))


def test_the_first_load_skips_the_planning_pass_and_later_bulk_inserts_plan(spark: Any, tmp_path: Path) -> None:
    """The one-pass load runs fewer jobs than the same load planned (de-duplication on), and a
    bulk_insert into the loaded table is planned: its keys land in the existing buckets."""
    opts = _options("bucket_load", "COPY_ON_WRITE", "bulk_insert")

    def save(df: Any, path: Path, **more: str) -> Callable[[], None]:
        return lambda: df.write.format("pyhudi").options(**opts, **more).mode("append").save(str(path))

    one_pass = _jobs(spark, "one_pass_load", save(_rows(spark, range(0, 1000), 1), tmp_path / "a"))
    planned = _jobs(
        spark,
        "planned_load",
        save(_rows(spark, range(0, 1000), 1), tmp_path / "b", **{"hoodie.combine.before.insert": "true"}),
    )
    assert one_pass < planned, (one_pass, planned)
    groups, _ = _placement(spark, tmp_path / "a")
    save(_rows(spark, range(1000, 1500), 2), tmp_path / "a")()
    after, rows = _placement(spark, tmp_path / "a")
    assert after == groups  # the second bulk_insert wrote into the buckets the first one made
    ts = lambda i: 1 if i < 1000 else 2  # noqa: E731
    assert rows == sorted((f"k{i}", f"p{i % PARTS}", ts(i), i * ts(i)) for i in range(1500))


def test_a_first_bucket_load_with_a_null_key_fails_and_leaves_no_table(spark: Any, tmp_path: Path) -> None:
    path = tmp_path / "t"
    bad = _rows(spark, range(0, 500), 1).withColumn("id", F.when(F.col("v") == 321, None).otherwise(F.col("id")))
    with pytest.raises(Exception) as failure:
        bad.write.format("pyhudi").options(**_options("bucket_load", "COPY_ON_WRITE", "bulk_insert")).mode(
            "overwrite"
        ).save(str(path))
    assert "id" in str(failure.value) and "null" in str(failure.value).lower()
    # the failed first write leaves no table behind, and no data file
    assert not (path / ".hoodie").exists()
    assert not list(path.rglob("*.parquet"))
