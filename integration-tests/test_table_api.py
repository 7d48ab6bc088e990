# SPDX-License-Identifier: Apache-2.0
"""pyhudi.HudiTable: reads, writes, history and file groups of one table through the Python object,
checked against what the connector reads and what the table's own files say."""

import os

import pytest
from hudi import HudiTableBuilder

import pyhudi
from pyhudi.errors import TableNotFoundError

SCHEMA = "key string, part string, ts long, v string"


def _create(spark, path, table_type):
    rows = [(f"k{i}", f"p{i % 2}", i, f"v{i}") for i in range(10)]
    pyhudi.write(
        spark.createDataFrame(rows, SCHEMA),
        str(path),
        table_name="tbl",
        record_key="key",
        partition_by="part",
        precombine="ts",
        table_type=table_type,
        operation="bulk_insert",
    )
    return pyhudi.HudiTable.for_path(spark, str(path))


def _snapshot(table):
    return sorted((r.key, r.part, r.ts, r.v) for r in table.to_df().select("key", "part", "ts", "v").collect())


@pytest.mark.parametrize("table_type", ["COPY_ON_WRITE", "MERGE_ON_READ"])
def test_writes_history_and_time_travel(spark, tmp_path, table_type):
    path = tmp_path / table_type.lower()
    table = _create(spark, path, table_type)
    assert table.name == "tbl" and table.table_type == table_type
    first = table.latest_instant()
    assert first is not None

    updates = spark.createDataFrame(
        [("k1", "p1", 100, "u1"), ("k2", "p0", 100, "u2"), ("k20", "p0", 100, "n20")], SCHEMA
    )
    second = table.upsert(updates)
    third = table.insert(spark.createDataFrame([("k30", "p1", 5, "n30")], SCHEMA))
    fourth = table.delete("v = 'v3' OR key = 'k4'")
    assert len({first, second, third, fourth}) == 4 and first < second < third < fourth
    assert table.delete("key = 'no-such-key'") is None

    model = {f"k{i}": (f"k{i}", f"p{i % 2}", i, f"v{i}") for i in range(10)}
    model.update({"k1": ("k1", "p1", 100, "u1"), "k2": ("k2", "p0", 100, "u2"), "k20": ("k20", "p0", 100, "n20")})
    model["k30"] = ("k30", "p1", 5, "n30")
    del model["k3"], model["k4"]
    assert _snapshot(table) == sorted(model.values())
    assert table.to_df(as_of=first).count() == 10
    assert {r.key for r in table.to_df(query_type="incremental", begin=third).collect()} == set()

    history = table.history().collect()
    completed = [h for h in history if h.state == "completed"]
    assert [h.instant for h in completed] == [first, second, third, fourth]
    ops = [h.operation for h in completed]
    assert ops == ["bulk_insert", "upsert", "insert", "delete"]
    assert completed[0].rows_inserted == 10 and completed[0].rows_updated == 0
    assert completed[1].rows_updated == 2 and completed[1].rows_inserted == 1
    assert completed[2].rows_inserted == 1
    assert completed[3].rows_deleted == 2
    for h in completed:
        assert h.files_written >= 1 and h.bytes_written > 0
        assert h.completed_at is not None and h.started_at <= h.completed_at and h.duration_ms >= 0

    # The files a write reports are on storage.
    on_disk = {f for _, _, fs in os.walk(path) for f in fs}
    groups = table.file_groups().collect()
    for g in groups:
        assert g.base_file is None or g.base_file in on_disk
        assert g.total_size == g.base_size + g.log_size
    if table_type == "MERGE_ON_READ":
        assert any(g.log_files > 0 for g in groups), "upserts and deletes of a MOR table go to log files"
        compacted = table.compact()
        assert compacted is not None and table.history().collect()[-1].operation == "compact"
        assert all(g.log_files == 0 for g in table.file_groups().collect())
        assert _snapshot(table) == sorted(model.values())

    # Every file group of the latest snapshot, as hudi-rs sees it.
    rs = HudiTableBuilder.from_base_uri(str(path)).build()
    rs_groups = {(s.partition_path, s.file_id) for s in rs.get_file_slices()}
    assert {(g.partition, g.file_id) for g in table.file_groups().collect()} == rs_groups


def test_for_path_of_a_missing_table(spark, tmp_path):
    with pytest.raises(TableNotFoundError) as err:
        pyhudi.HudiTable.for_path(spark, str(tmp_path / "nothing-here"))
    assert err.value.error_id == "PATH_NOT_FOUND"
    (tmp_path / "plain").mkdir()
    with pytest.raises(TableNotFoundError) as err:
        pyhudi.HudiTable.for_path(spark, str(tmp_path / "plain"))
    assert err.value.error_id == "NOT_A_HUDI_TABLE"


def test_history_of_a_corpus_table_lists_its_completed_instants(spark, corpus, load_expected):
    for name in ("cow/v6_nonpartitioned", "mor/v6_complexkeygen_hivestyle"):
        table = pyhudi.HudiTable.for_path(spark, str(corpus[name]))
        expected = [tuple(i) for i in load_expected(name)["completed_instants"]]
        writes = [(h.instant, h.action) for h in table.history().collect() if h.state == "completed"]
        assert [w for w in writes if w[1] != "rollback"] == [e for e in expected if e[1] != "rollback"]
