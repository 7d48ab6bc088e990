# SPDX-License-Identifier: Apache-2.0
"""Write round trips that also run on the oldest supported Spark (``-m compat``).

The write path uses Spark's parquet reader and writer internals; these tests make sure one jar
keeps working across every supported Spark 4.x. Each table is read back through pyhudi and
through hudi-rs (the ``hudi`` package), which must agree.
"""

from pathlib import Path
from typing import Any, List, Tuple

import pyarrow as pa
import pytest
from hudi import HudiTable
from pyspark.sql import Row

import pyhudi

pytestmark = pytest.mark.compat

OPTIONS = {
    "hoodie.table.name": "compat",
    "hoodie.datasource.write.recordkey.field": "id",
    "hoodie.datasource.write.partitionpath.field": "city",
    "hoodie.datasource.write.precombine.field": "ts",
}


def rows(spark: Any, ids: range, ts: int, tag: str) -> Any:
    return spark.createDataFrame([Row(id=i, city=("sf", "ny")[i % 2], ts=ts, v=f"{tag}{i}") for i in ids])


def pyhudi_rows(spark: Any, path: Path, **kw: Any) -> List[Tuple[Any, ...]]:
    df = pyhudi.read(spark, str(path), **kw)
    return sorted((r.id, r.city, r.v, r._hoodie_commit_time) for r in df.collect())


def hudi_rs_rows(path: Path) -> List[Tuple[Any, ...]]:
    t = pa.Table.from_batches(HudiTable(str(path)).read())
    cols = [t.column(c).to_pylist() for c in ("id", "city", "v", "_hoodie_commit_time")]
    return sorted(zip(*cols))


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_upsert_delete_round_trip(spark: Any, tmp_path: Path, table_type: str) -> None:
    path = tmp_path / "t"
    opts = dict(OPTIONS, **{"hoodie.datasource.write.table.type": table_type})
    rows(spark, range(10), 1, "a").write.format("pyhudi").options(**opts).save(str(path))
    rows(spark, range(5, 15), 2, "b").write.format("pyhudi").options(**opts).mode("append").save(str(path))
    (
        rows(spark, range(0, 2), 3, "x")
        .select("id", "city")
        .write.format("pyhudi")
        .options(**opts)
        .option("hoodie.datasource.write.operation", "delete")
        .mode("append")
        .save(str(path))
    )
    got = pyhudi_rows(spark, path)
    assert [(i, v) for i, _, v, _ in got] == [(i, "a%d" % i) for i in range(2, 5)] + [
        (i, "b%d" % i) for i in range(5, 15)
    ]
    assert got == hudi_rs_rows(path)
    if table_type == "MERGE_ON_READ":
        assert any(".log." in p.name for p in path.rglob(".*"))
        instant = pyhudi.compact(spark, str(path))
        assert instant is not None and (path / ".hoodie" / f"{instant}.commit").is_file()
        assert pyhudi_rows(spark, path, query_type="read_optimized") == got
        assert hudi_rs_rows(path) == got


def test_record_keys_are_written_without_a_dictionary(spark: Any, tmp_path: Path) -> None:
    """Record keys and sequence numbers are distinct in a file, so parquet's dictionary attempt
    only costs time; pyhudi writes them plain. Keys repeat here (bulk_insert keeps duplicates),
    which is the one case where a dictionary would have been kept, so the setting shows. The
    sequence numbers and file names have no min/max statistics either; the meta columns Apache
    Hudi's column stats index reads (commit time, record key, partition path) keep theirs."""
    import pyarrow.parquet as pq

    path = tmp_path / "t"
    opts = dict(OPTIONS, **{"hoodie.datasource.write.operation": "bulk_insert"})
    df = spark.createDataFrame([Row(id=i % 4, city="sf", ts=i, v=f"v{i}") for i in range(400)])
    df.write.format("pyhudi").options(**opts).save(str(path))
    files = sorted(path.rglob("*.parquet"))
    assert files
    for f in files:
        meta = pq.ParquetFile(f).metadata
        names = [meta.schema.column(i).name for i in range(meta.num_columns)]
        for g in range(meta.num_row_groups):
            chunks = {n: meta.row_group(g).column(i) for i, n in enumerate(names)}
            for plain in ("_hoodie_record_key", "_hoodie_commit_seqno"):
                assert not chunks[plain].has_dictionary_page, (f.name, plain, chunks[plain].encodings)
            # the other columns keep parquet's default, a dictionary
            assert chunks["_hoodie_partition_path"].has_dictionary_page
            assert chunks["city"].has_dictionary_page
            for unindexed in ("_hoodie_commit_seqno", "_hoodie_file_name"):
                assert not chunks[unindexed].is_stats_set, (f.name, unindexed)
            for indexed in ("_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path", "city"):
                stats = chunks[indexed].statistics
                assert chunks[indexed].is_stats_set and stats.has_min_max, (f.name, indexed)
            assert chunks["_hoodie_partition_path"].statistics.min == chunks["_hoodie_partition_path"].statistics.max
    assert sorted(r[0] for r in hudi_rs_rows(path)) == sorted(i % 4 for i in range(400))
