# SPDX-License-Identifier: Apache-2.0
"""pyhudi.compact's return value: None when there is nothing to compact (a copy-on-write table,
a merge-on-read table without log files), else the completed compaction instant."""

import harness
import write_support as ws

import pyhudi

OPTIONS = {
    "hoodie.table.name": "services",
    "hoodie.datasource.write.recordkey.field": "key",
    "hoodie.datasource.write.partitionpath.field": "part",
    "hoodie.datasource.write.precombine.field": "ts",
}


def _write(spark, path, rows, table_type, operation="upsert"):
    df = spark.createDataFrame(rows, "key string, part string, ts long, v string")
    df.write.format("pyhudi").options(**OPTIONS).option("hoodie.datasource.write.table.type", table_type).option(
        "hoodie.datasource.write.operation", operation
    ).mode("append").save(str(path))


ROWS = [(f"k{i}", f"p{i % 2}", i, f"v{i}") for i in range(10)]


def test_compact_copy_on_write_returns_none(spark, tmp_path):
    path = tmp_path / "cow"
    _write(spark, path, ROWS, "COPY_ON_WRITE", "bulk_insert")
    _write(spark, path, [("k1", "p1", 100, "new")], "COPY_ON_WRITE")
    before = harness.timeline_files(path)
    assert pyhudi.compact(spark, str(path)) is None
    assert pyhudi.run_pending_compactions(spark, str(path)) == []
    assert harness.timeline_files(path) == before


def test_compact_merge_on_read(spark, tmp_path):
    path = tmp_path / "mor"
    _write(spark, path, ROWS, "MERGE_ON_READ", "bulk_insert")
    before = harness.timeline_files(path)
    assert pyhudi.compact(spark, str(path)) is None, "a table without log files has nothing to compact"
    assert harness.timeline_files(path) == before

    _write(spark, path, [("k1", "p1", 100, "new")], "MERGE_ON_READ")  # a log file
    instant = pyhudi.compact(spark, str(path))
    assert isinstance(instant, str) and instant.isdigit() and len(instant) == 17, instant
    assert harness.completed_instants(path)[-1] == (instant, "commit")
    ws.assert_compaction_instant(path, instant, "pyhudi.compact")
    assert pyhudi.compact(spark, str(path)) is None, "everything is compacted already"
