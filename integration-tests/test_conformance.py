# SPDX-License-Identifier: Apache-2.0
"""Every corpus table, every query of its expected JSON, read through format("pyhudi")."""

import re
from typing import Dict, List, NamedTuple

import harness
import pytest
from pyspark.sql.types import BooleanType, IntegerType, StringType

from pyhudi.options import (
    AS_OF_INSTANT,
    BEGIN_INSTANTTIME,
    END_INSTANTTIME,
    QUERY_TYPE,
    QueryType,
)

pytestmark = pytest.mark.conformance


class Query(NamedTuple):
    table: str  # "<kind>/<name>"
    kind: str  # snapshot | read_optimized | as_of | incremental
    arg: str  # instant or "A..B"; empty for snapshot / read_optimized

    @property
    def id(self) -> str:
        return f"{self.table}-{self.kind}" + (f"={self.arg}" if self.arg else "")

    def options(self) -> Dict[str, str]:
        if self.kind == "snapshot":
            return {}  # the default query type
        if self.kind == "read_optimized":
            return {QUERY_TYPE: QueryType.READ_OPTIMIZED.value}
        if self.kind == "as_of":
            return {AS_OF_INSTANT: self.arg}
        begin, end = self.arg.split("..")
        return {QUERY_TYPE: QueryType.INCREMENTAL.value, BEGIN_INSTANTTIME: begin, END_INSTANTTIME: end}

    def expected_rows(self, expected: dict) -> List[dict]:
        if self.kind in ("snapshot", "read_optimized"):
            return expected[self.kind]
        return expected[self.kind][self.arg]


def _queries() -> List[Query]:
    queries = []
    for table in harness.table_names():
        expected = harness.load_expected(table)
        queries.append(Query(table, "snapshot", ""))
        if "read_optimized" in expected:
            queries.append(Query(table, "read_optimized", ""))
        queries += [Query(table, "as_of", instant) for instant in expected["as_of"]]
        queries += [Query(table, "incremental", span) for span in expected["incremental"]]
    return queries


QUERIES = _queries()
EMPTY_TABLE_COLUMNS = [("id", IntegerType()), ("name", StringType()), ("isActive", BooleanType())]


def test_corpus_is_complete():
    assert len(harness.table_names()) == 16
    assert {q.kind for q in QUERIES} == {"snapshot", "read_optimized", "as_of", "incremental"}


@pytest.mark.parametrize("query", QUERIES, ids=[q.id for q in QUERIES])
def test_query_matches_expected(spark, corpus, query):
    df = harness.read_table(spark, corpus[query.table], query.options())
    harness.assert_meta_columns_first(df.columns, query.id)
    actual = harness.normalize_rows(df.collect(), df.schema)
    expected = query.expected_rows(harness.load_expected(query.table))
    harness.assert_rows_equal(actual, expected, df.schema, query.id)


MOR_SNAPSHOTS = [q for q in QUERIES if q.table.startswith("mor/") and q.kind in ("snapshot", "as_of")]


@pytest.mark.parametrize("query", MOR_SNAPSHOTS, ids=[q.id for q in MOR_SNAPSHOTS])
def test_data_columns_match_expected(spark, corpus, query):
    """Without the meta columns, a merge may key rows by the record key field (docs/reading.md)."""
    df = harness.read_table(spark, corpus[query.table], query.options())
    data = [c for c in df.columns if not c.startswith("_hoodie_")]
    df = df.select(*data)
    actual = harness.normalize_rows(df.collect(), df.schema)
    rows = query.expected_rows(harness.load_expected(query.table))
    expected = [{k: v for k, v in r.items() if k in data} for r in rows]
    harness.assert_rows_equal(actual, expected, df.schema, query.id)


def test_apache_hudi_merge_on_read_tables_merge_by_the_key_field(spark, corpus):
    """Apache Hudi's simple-key tables merge by the key field; the complex-key table never does."""
    keys = {}
    for table in ("mor/v6_simplekeygen_nonhivestyle", "mor/v6_complexkeygen_hivestyle"):
        df = harness.read_table(spark, corpus[table], {})
        df = df.select(*[c for c in df.columns if not c.startswith("_hoodie_")])
        plan = df._jdf.queryExecution().executedPlan().toString()
        keys[table] = re.search(r"mergeKey=([\w+]+)", plan).group(1) if "mergeKey=" in plan else None
    assert keys["mor/v6_simplekeygen_nonhivestyle"] not in (None, "_hoodie_record_key"), keys
    assert keys["mor/v6_complexkeygen_hivestyle"] == "_hoodie_record_key", keys


@pytest.mark.parametrize("table", ["cow/v6_empty", "mor/v6_empty"])
@pytest.mark.parametrize("kind", ["snapshot", "read_optimized"])
def test_empty_table_has_create_schema(spark, corpus, table, kind):
    # hoodie.table.create.schema: id int, name string, isActive boolean (all nullable).
    query = Query(table, kind, "")
    df = harness.read_table(spark, corpus[table], query.options())
    data_fields = [(f.name, f.dataType) for f in df.schema.fields if not f.name.startswith("_hoodie_")]
    assert data_fields == EMPTY_TABLE_COLUMNS, df.schema.simpleString()
    harness.assert_meta_columns_first(df.columns, query.id)
    assert df.count() == 0
    assert df.collect() == []
