# SPDX-License-Identifier: Apache-2.0
"""Options from the Spark session conf: ``spark.hoodie.<key>`` sets ``hoodie.<key>`` for every
pyhudi read and write of the session (as Apache Hudi 1.x accepts), and an option given to the
read or write itself wins."""

from contextlib import contextmanager
from typing import Any, Iterator

import harness
import write_support as ws

OPTIONS = {
    "hoodie.table.name": "session_conf",
    "hoodie.datasource.write.table.type": "MERGE_ON_READ",
    "hoodie.datasource.write.recordkey.field": "key",
    "hoodie.datasource.write.partitionpath.field": "part",
    "hoodie.datasource.write.precombine.field": "ts",
}


@contextmanager
def session_conf(spark: Any, key: str, value: str) -> Iterator[None]:
    spark.conf.set(key, value)
    try:
        yield
    finally:
        spark.conf.unset(key)


def _write(spark: Any, path: Any, rows: Any, **extra: str) -> None:
    df = spark.createDataFrame(rows, "key string, part string, ts long, v string")
    df.write.format("pyhudi").options(**OPTIONS).options(**extra).mode("append").save(str(path))


def _operation_of_last_commit(path: Any) -> str:
    instant, action = harness.completed_instants(path)[-1]
    return ws.commit_metadata(path, instant, action)["operationType"]


def test_session_conf_sets_write_options_and_a_given_option_wins(spark, tmp_path):
    path = tmp_path / "t"
    with session_conf(spark, "spark.hoodie.datasource.write.operation", "insert"):
        _write(spark, path, [("a", "p", 1, "x")])
        assert _operation_of_last_commit(path) == "INSERT"
        _write(spark, path, [("a", "p", 2, "y")], **{"hoodie.datasource.write.operation": "upsert"})
        assert _operation_of_last_commit(path) == "UPSERT"
    _write(spark, path, [("b", "p", 1, "z")])
    assert _operation_of_last_commit(path) == "UPSERT", "the default once the session conf is unset"


def test_session_conf_sets_the_query_type_and_a_given_option_wins(spark, tmp_path):
    path = tmp_path / "t"
    _write(spark, path, [("a", "p", 1, "base")], **{"hoodie.datasource.write.operation": "bulk_insert"})
    _write(spark, path, [("a", "p", 2, "log")])  # an update in a log file

    def values(**options: str) -> list:
        df = spark.read.format("pyhudi").options(**options).load(str(path))
        return [r["v"] for r in df.select("v").collect()]

    assert values() == ["log"]
    with session_conf(spark, "spark.hoodie.datasource.query.type", "read_optimized"):
        assert values() == ["base"]
        assert values(**{"hoodie.datasource.query.type": "snapshot"}) == ["log"]
