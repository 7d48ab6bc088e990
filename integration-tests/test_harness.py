# SPDX-License-Identifier: Apache-2.0
"""Checks of the test harness itself, independent of the pyhudi reader.

Copy-on-write tables without replace commits can be read without Hudi logic: the rows as of
instant T are the rows of the newest base file (by its instant in the file name) of every
file group written at or before T. Reading those files with Spark's own parquet reader and
comparing with the corpus' expected JSON validates the normaliser and the comparison, so a
failing conformance test points at the reader, not at the harness.
"""

import datetime as dt
import os
import time
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import harness
import pytest
from pyspark.sql.types import (
    ArrayType,
    IntegerType,
    MapType,
    StringType,
    StructField,
    StructType,
    TimestampNTZType,
    TimestampType,
)

# Plain COW tables (no replacecommit) whose queries a file-name oracle can answer.
ORACLE_TABLES = [
    "cow/v6_nonpartitioned",
    "cow/v6_simplekeygen_nonhivestyle",
    "cow/v6_complexkeygen_hivestyle",
    "cow/v6_timebasedkeygen_nonhivestyle",
    "cow/v6_simplekeygen_hivestyle_no_metafields",
]


# PySpark turns timestamps into local-time datetimes in Python: run each case in a time zone
# other than UTC, alternating between a negative and a positive offset.
ZONES = ("America/Chicago", "Asia/Kolkata")


def _oracle_cases() -> List[Tuple[str, str, str]]:
    cases = []
    for name in ORACLE_TABLES:
        expected = harness.load_expected(name)
        for query in ["snapshot", *expected["as_of"]]:
            cases.append((name, query, ZONES[len(cases) % len(ZONES)]))
    return cases


def _base_files_as_of(table: Path, as_of: str) -> List[str]:
    """Newest base file of each file group with instant <= as_of (file name grammar:
    ``<fileId>_<writeToken>_<instant>.parquet``; file ids contain no underscore)."""
    newest: Dict[Tuple[Path, str], Tuple[str, Path]] = {}
    for f in table.rglob("*.parquet"):
        if ".hoodie" in f.relative_to(table).parts:
            continue
        file_id, _token, instant = f.stem.split("_")
        if instant > as_of:
            continue
        key = (f.parent, file_id)
        if key not in newest or instant > newest[key][0]:
            newest[key] = (instant, f)
    return sorted(str(f) for _, f in newest.values())


@pytest.fixture
def local_tz(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test with the Python process in another local time zone."""
    zone = request.param
    saved = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        yield zone
    finally:
        if saved is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = saved
        time.tzset()


@pytest.mark.parametrize(
    "name,query,local_tz",
    _oracle_cases(),
    ids=[f"{n}-{q}-{z}" for n, q, z in _oracle_cases()],
    indirect=["local_tz"],
)
def test_normalizer_matches_expected_on_plain_parquet(spark, corpus, local_tz, name, query):
    expected = harness.load_expected(name)
    if query == "snapshot":
        as_of, rows = expected["completed_instants"][-1][0], expected["snapshot"]
    else:
        as_of, rows = query, expected["as_of"][query]
    files = _base_files_as_of(corpus[name], as_of)
    df = spark.read.parquet(*files)
    harness.assert_meta_columns_first(df.columns, name)
    if rows and not any(c.startswith("_hoodie_") for c in rows[0]):
        # hoodie.populate.meta.fields=false: the files still have (mostly null) meta columns,
        # readers leave them out.
        df = df.drop(*harness.META_COLUMNS)
    actual = harness.normalize_rows(df.collect(), df.schema)
    harness.assert_rows_equal(actual, rows, df.schema, f"{name} {query} (plain parquet)")


@pytest.mark.parametrize("local_tz", ["America/New_York"], indirect=True)
def test_timestamps_survive_repeated_wall_clock_hour(local_tz):
    # 2023-11-05 01:30 happens twice in New York; PySpark's naive datetimes carry `fold`.
    for utc_seconds, iso in (
        (1699162200, "2023-11-05T05:30:00+00:00"),
        (1699165800, "2023-11-05T06:30:00+00:00"),
    ):
        naive = TimestampType().fromInternal(utc_seconds * 1_000_000 + 123)
        assert naive.tzinfo is None
        assert harness.normalize_value(naive, TimestampType()) == iso.replace("+", ".000123+")


def test_timestamp_ntz_is_wall_clock():
    value = dt.datetime(2023, 4, 2, 18, 2)
    assert harness.normalize_value(value, TimestampNTZType()) == "2023-04-02T18:02:00+00:00"


def test_map_pair_order_is_ignored():
    schema = StructType(
        [
            StructField("m", MapType(StringType(), ArrayType(IntegerType()))),
            StructField("a", ArrayType(ArrayType(StringType()))),
        ]
    )
    row = (
        {"k2": [2], "k1": [1]},
        [["y", "x"], ["b", "a"]],
    )
    actual = [harness.normalize_value(row, schema)]
    harness.assert_rows_equal(actual, [{"m": [["k1", [1]], ["k2", [2]]], "a": [["y", "x"], ["b", "a"]]}], schema)
    # Arrays keep their order: an array of pairs is not a map.
    with pytest.raises(AssertionError):
        harness.assert_rows_equal(actual, [{"m": [["k2", [2]], ["k1", [1]]], "a": [["b", "a"], ["y", "x"]]}], schema)


def test_difference_report_names_the_column():
    schema = StructType([StructField("id", IntegerType()), StructField("fare", StringType())])
    with pytest.raises(AssertionError, match=r"(?s)fare: '25\.0' -> '33\.9'"):
        harness.assert_rows_equal([{"id": 1, "fare": "33.9"}], [{"id": 1, "fare": "25.0"}], schema, "t")


def _hudi_rs_cases() -> List[Tuple[str, str]]:
    cases = []
    for name in harness.table_names():
        expected = harness.load_expected(name)
        cases.append((name, "snapshot"))
        cases += [(name, f"as_of {i}") for i in expected["as_of"]]
        cases += [(name, f"incremental {r}") for r in expected["incremental"]]
    return cases


@pytest.mark.parametrize("name,query", _hudi_rs_cases())
def test_hudi_rs_oracle_reproduces_expected(corpus, name, query):
    # The write tests compare pyhudi with hudi-rs through normalize_arrow; the corpus'
    # expected JSON was produced by hudi-rs, so this pins the Arrow normaliser and the oracle.
    expected = harness.load_expected(name)
    kind, _, arg = query.partition(" ")
    if kind == "snapshot":
        actual, rows = harness.hudi_rs_read(corpus[name]), expected["snapshot"]
    elif kind == "as_of":
        actual, rows = harness.hudi_rs_read(corpus[name], as_of=arg), expected["as_of"][arg]
    else:
        begin, end = arg.split("..")
        actual = harness.hudi_rs_read(corpus[name], begin=begin, end=end)
        rows = expected["incremental"][arg]
    assert sorted(map(harness.canonical_json, actual)) == sorted(map(harness.canonical_json, rows))


def test_timeline_helpers(corpus):
    path = corpus["cow/v6_simplekeygen_nonhivestyle_overwritetable"]
    assert harness.completed_instants(path) == [
        ("20240707001301554", "commit"),
        ("20240707001302376", "commit"),
        ("20240707001303088", "replacecommit"),
    ]
    assert harness.pending_instants(path) == []
