# SPDX-License-Identifier: Apache-2.0
"""Partition pruning and column pruning on a table with two hive-style partition columns.

cow/v6_complexkeygen_hivestyle has three file groups in byteField=10/shortField=300,
byteField=20/shortField=100 and byteField=30/shortField=100. The connector describes its
scan in the physical plan as ``PyhudiScan(... fileSlices=N ... partitionFilters=[...],
pushedFilters=[...])``.
"""

import re

import harness

TABLE = "cow/v6_complexkeygen_hivestyle"


def _plan(df) -> str:
    return df._jdf.queryExecution().executedPlan().toString()


def _file_slices(plan: str) -> int:
    match = re.search(r"fileSlices=(\d+)", plan)
    assert match, f"no fileSlices=N in the scan description:\n{plan}"
    return int(match.group(1))


def test_partition_filter_rows(spark, corpus):
    df = harness.read_table(spark, corpus[TABLE]).filter("byteField = 10")
    actual = harness.normalize_rows(df.collect(), df.schema)
    expected = [r for r in harness.load_expected(TABLE)["snapshot"] if r["byteField"] == 10]
    assert sorted(r["id"] for r in expected) == [1, 3]
    harness.assert_rows_equal(actual, expected, df.schema, f"{TABLE} byteField = 10")


def test_partition_filter_is_pushed_and_prunes_file_slices(spark, corpus):
    full = harness.read_table(spark, corpus[TABLE])
    filtered = full.filter("byteField = 10")
    full_plan, filtered_plan = _plan(full), _plan(filtered)
    assert "PyhudiScan" in filtered_plan, filtered_plan
    pushed = re.findall(r"(?:pushedFilters|partitionFilters)=\[([^\]]*)\]", filtered_plan)
    assert any("byteField" in p for p in pushed), f"filter on byteField not pushed:\n{filtered_plan}"
    assert _file_slices(full_plan) == 3, full_plan
    assert _file_slices(filtered_plan) == 1, filtered_plan


def test_select_one_column(spark, corpus):
    df = harness.read_table(spark, corpus[TABLE]).select("id")
    assert df.columns == ["id"]
    assert sorted(r.id for r in df.collect()) == [1, 2, 3, 4]
