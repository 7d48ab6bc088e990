# SPDX-License-Identifier: Apache-2.0
"""pyhudi's Python surface: read() equals the raw reader, jar and builder helpers."""

import json
import os
import subprocess
import sys
import textwrap
from datetime import datetime

import harness
import pytest

import pyhudi
from pyhudi import IndexType, QueryType, TableType, WriteOperation
from pyhudi.options import AS_OF_INSTANT, BEGIN_INSTANTTIME, END_INSTANTTIME, QUERY_TYPE
from pyhudi.session import KRYO_REGISTRATOR

TRIPS = "mor/v6_trips_8i1u"
FIRST, SECOND = "20250331030642808", "20250331030645735"


def _rows(df):
    return sorted(harness.canonical_json(r) for r in harness.normalize_rows(df.collect(), df.schema))


def _raw(spark, path, **options):
    return spark.read.format("pyhudi").options(**options).load(str(path))


def test_exports_and_version():
    assert set(pyhudi.__all__) == {
        "__version__",
        "errors",
        "jar_path",
        "configure_spark",
        "read",
        "write",
        "HudiTable",
        "QueryType",
        "WriteOperation",
        "IndexType",
        "TableType",
        "compact",
        "schedule_compaction",
        "run_pending_compactions",
        "clean",
        "archive",
        "savepoint",
        "savepoints",
        "delete_savepoint",
        "rollback",
        "restore",
        "cluster",
    }
    version_sbt = (harness.REPO_ROOT / "version.sbt").read_text()
    assert f'"{pyhudi.__version__}"' in version_sbt, "installed pyhudi is stale: pip install ."


def test_jar_path_exists():
    path = pyhudi.jar_path()
    assert os.path.isfile(path)
    assert os.path.basename(path) == f"pyhudi-spark4_2.13-{pyhudi.__version__}.jar"


def test_read_default_is_snapshot(spark, corpus):
    path = corpus[TRIPS]
    assert _rows(pyhudi.read(spark, path)) == _rows(_raw(spark, path))


def test_read_query_type_enum_and_str(spark, corpus):
    path = corpus[TRIPS]
    raw = _rows(_raw(spark, path, **{QUERY_TYPE: "read_optimized"}))
    assert _rows(pyhudi.read(spark, path, QueryType.READ_OPTIMIZED)) == raw
    assert _rows(pyhudi.read(spark, str(path), query_type="read_optimized")) == raw


def test_read_as_of_datetime_and_str(spark, corpus):
    path = corpus[TRIPS]
    raw = _rows(_raw(spark, path, **{AS_OF_INSTANT: FIRST}))
    as_of = datetime(2025, 3, 31, 3, 6, 42, 808000)
    assert _rows(pyhudi.read(spark, path, as_of=as_of)) == raw
    assert _rows(pyhudi.read(spark, path, as_of=FIRST)) == raw
    # Time travel must actually travel: the first instant differs from the latest snapshot.
    assert raw != _rows(pyhudi.read(spark, path))


def test_read_incremental(spark, corpus):
    path = corpus[TRIPS]
    raw = _rows(_raw(spark, path, **{QUERY_TYPE: "incremental", BEGIN_INSTANTTIME: FIRST, END_INSTANTTIME: SECOND}))
    begin = datetime(2025, 3, 31, 3, 6, 42, 808000)
    end = datetime(2025, 3, 31, 3, 6, 45, 735000)
    assert _rows(pyhudi.read(spark, path, QueryType.INCREMENTAL, begin=begin, end=end)) == raw
    assert _rows(pyhudi.read(spark, path, "incremental", begin=FIRST, end=SECOND)) == raw


def test_read_raw_options_pass_through(spark, corpus):
    path = corpus[TRIPS]
    options = {QUERY_TYPE: "incremental", BEGIN_INSTANTTIME: FIRST}
    assert _rows(pyhudi.read(spark, path, options=options)) == _rows(_raw(spark, path, **options))


def test_read_rejects_wrong_types(spark, corpus):
    path = corpus[TRIPS]
    with pytest.raises(TypeError, match="query_type"):
        pyhudi.read(spark, path, query_type=1)
    with pytest.raises(TypeError, match="as_of"):
        pyhudi.read(spark, path, as_of=20250331030642808)
    with pytest.raises(TypeError, match="path"):
        pyhudi.read(spark, 42)
    with pytest.raises(TypeError, match="option"):
        pyhudi.read(spark, path, options={QUERY_TYPE: ["snapshot"]})
    with pytest.raises(ValueError, match="given twice"):
        pyhudi.read(spark, path, QueryType.SNAPSHOT, options={QUERY_TYPE: "incremental"})


def test_datetime_formatting_is_milliseconds():
    from pyhudi.reader import _instant_value

    assert _instant_value("as_of", datetime(2025, 3, 31, 3, 6, 42, 808999)) == "2025-03-31 03:06:42.808"
    assert _instant_value("as_of", datetime(2025, 1, 2)) == "2025-01-02 00:00:00.000"


def test_configure_spark_refuses_a_running_context(spark):
    from pyspark.sql import SparkSession

    with pytest.raises(RuntimeError, match="before the first SparkSession"):
        pyhudi.configure_spark(SparkSession.builder)


def test_configure_spark_keeps_existing_jars_and_kryo_registrators(tmp_path):
    # A separate interpreter with no SparkContext: only builder options are inspected, no JVM.
    script = textwrap.dedent(
        """
        import json, warnings
        from pyspark.sql import SparkSession
        import pyhudi
        user = "/opt/libs/a.jar,/opt/libs/b.jar"
        builder = SparkSession.builder.config("spark.jars", user)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the installed pyspark is a supported version
            returned = pyhudi.configure_spark(builder)
        again = pyhudi.configure_spark(returned)  # idempotent
        fresh = pyhudi.configure_spark(SparkSession.builder)
        fresh_registrator = fresh._options.get("spark.kryo.registrator")
        kryo = (SparkSession.builder.config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .config("spark.kryo.registrator", "org.example.Mine"))
        kryo = pyhudi.configure_spark(pyhudi.configure_spark(kryo))
        print(json.dumps({
            "same_builder": returned is builder,
            "jars": again._options["spark.jars"],
            "fresh": fresh._options["spark.jars"],
            "fresh_registrator": fresh_registrator,
            "kryo_registrator": kryo._options["spark.kryo.registrator"],
            "jvm_started": __import__("pyspark").SparkContext._gateway is not None,
        }))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    jar = pyhudi.jar_path()
    assert result["same_builder"]
    assert result["jars"] == f"/opt/libs/a.jar,/opt/libs/b.jar,{jar}"
    assert result["fresh"] == jar
    # Kryo's registrators are kept and the connector's appended once, only when the builder uses Kryo.
    assert result["fresh_registrator"] is None
    assert result["kryo_registrator"] == f"org.example.Mine,{KRYO_REGISTRATOR}"
    assert not result["jvm_started"]


@pytest.mark.parametrize(
    "version,supported",
    [("4.0.0", True), ("4.3.1", True), ("4.2.0.dev0", True), ("3.5.4", False), ("4.4.0", False), ("5.0.0", False)],
)
def test_pyspark_version_check_warns_outside_range(monkeypatch, version, supported):
    import warnings

    import pyspark

    from pyhudi.session import _check_pyspark_version

    monkeypatch.setattr(pyspark, "__version__", version)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _check_pyspark_version()
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    assert (messages == []) == supported, messages
    if not supported:
        assert version in messages[0] and "4.0.0" in messages[0]


def test_jar_path_explains_a_missing_jar(monkeypatch):
    import pyhudi.session

    monkeypatch.setattr(pyhudi.session, "JAR_NAME", "pyhudi-spark4_2.13-0.0.0-missing.jar")
    with pytest.raises(FileNotFoundError, match=r"build/sbt connector/assembly.*reinstall"):
        pyhudi.jar_path()


def test_query_type_is_a_str():
    assert QueryType.SNAPSHOT == "snapshot"
    assert QueryType("incremental") is QueryType.INCREMENTAL
    assert f"{QueryType.READ_OPTIMIZED}" == "read_optimized"
    assert {q.value for q in QueryType} == {"snapshot", "read_optimized", "incremental"}


# --------------------------------------------------------------------------------------------
# pyhudi.write


class _RecordingWriter:
    """Stands in for ``DataFrame.write``: records what pyhudi.write asks of it."""

    def __init__(self):
        self.calls = {}

    def format(self, name):
        self.calls["format"] = name
        return self

    def options(self, **options):
        self.calls["options"] = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()}
        return self

    def mode(self, mode):
        self.calls["mode"] = mode
        return self

    def save(self, path):
        self.calls["path"] = path


class _FakeFrame:
    def __init__(self):
        self.write = _RecordingWriter()


def _write_calls(**kwargs):
    df = _FakeFrame()
    pyhudi.write(df, kwargs.pop("path", "/t"), **kwargs)
    return df.write.calls


def test_write_builds_hudi_options():
    from pyhudi import options as o

    calls = _write_calls(
        table_name="trips",
        record_key=["id", "name"],
        partition_by="year,month",
        precombine="ts",
        operation=WriteOperation.BULK_INSERT,
        index_type=IndexType.GLOBAL_BLOOM,
        table_type=TableType.COPY_ON_WRITE,
        mode="Overwrite",
        options={o.HIVE_STYLE_PARTITIONING: True, o.BUCKET_INDEX_NUM_BUCKETS: 4},
    )
    assert calls == {
        "format": "pyhudi",
        "options": {
            "hoodie.table.name": "trips",
            "hoodie.datasource.write.recordkey.field": "id,name",
            "hoodie.datasource.write.partitionpath.field": "year,month",
            "hoodie.datasource.write.precombine.field": "ts",
            "hoodie.datasource.write.operation": "bulk_insert",
            "hoodie.index.type": "GLOBAL_BLOOM",
            "hoodie.datasource.write.table.type": "COPY_ON_WRITE",
            "hoodie.datasource.write.hive_style_partitioning": "true",
            "hoodie.bucket.index.num.buckets": "4",
        },
        "mode": "overwrite",
        "path": "/t",
    }


def test_write_defaults_are_append_and_no_options(tmp_path):
    calls = _write_calls(path=tmp_path / "t")
    assert calls == {"format": "pyhudi", "options": {}, "mode": "append", "path": str(tmp_path / "t")}


def test_write_columns_forms():
    key = "hoodie.datasource.write.recordkey.field"
    part = "hoodie.datasource.write.partitionpath.field"
    assert _write_calls(record_key="id")["options"][key] == "id"
    assert _write_calls(record_key=" id , name ")["options"][key] == "id,name"
    assert _write_calls(record_key=("a", "b"))["options"][key] == "a,b"
    assert _write_calls(partition_by=[])["options"][part] == ""  # non-partitioned
    assert _write_calls(partition_by="")["options"][part] == ""
    # Plain strings pass through: the connector validates operation and index values.
    assert _write_calls(operation="upsert", index_type="bucket")["options"] == {
        "hoodie.datasource.write.operation": "upsert",
        "hoodie.index.type": "bucket",
    }


def test_write_rejects_bad_arguments():
    with pytest.raises(TypeError, match="record_key"):
        _write_calls(record_key=3)
    with pytest.raises(ValueError, match="record_key"):
        _write_calls(record_key=[])
    with pytest.raises(ValueError, match="empty column"):
        _write_calls(partition_by=["a", ""])
    with pytest.raises(ValueError, match="must not contain ','"):
        _write_calls(record_key=["a,b"])
    with pytest.raises(TypeError, match="operation"):
        _write_calls(operation=1)
    with pytest.raises(TypeError, match="index_type"):
        _write_calls(index_type=QueryType.SNAPSHOT)
    with pytest.raises(TypeError, match="table_name"):
        _write_calls(table_name=["t"])
    with pytest.raises(ValueError, match="mode must be one of"):
        _write_calls(mode="upsert")
    with pytest.raises(TypeError, match="path"):
        _write_calls(path=42)
    with pytest.raises(ValueError, match="given twice"):
        _write_calls(operation="insert", options={"hoodie.datasource.write.operation": "upsert"})
    # The same value twice is fine, booleans compare as Spark sees them.
    _write_calls(operation="insert", options={"hoodie.datasource.write.operation": "insert"})


def test_write_enums_are_str():
    assert {o.value for o in WriteOperation} == {
        "upsert",
        "insert",
        "bulk_insert",
        "delete",
        "insert_overwrite",
        "insert_overwrite_table",
        "delete_partition",
    }
    assert {i.value for i in IndexType} == {"BLOOM", "SIMPLE", "GLOBAL_BLOOM", "GLOBAL_SIMPLE", "BUCKET"}
    assert [i for i in IndexType if i.is_global] == [IndexType.GLOBAL_BLOOM, IndexType.GLOBAL_SIMPLE]
    assert TableType("COPY_ON_WRITE") is TableType.COPY_ON_WRITE
    assert f"{WriteOperation.DELETE}" == "delete" and WriteOperation.DELETE == "delete"


def test_write_equals_raw_writer(spark, tmp_path):
    rows = [(1, "a", "x", 10), (2, "b", "y", 11), (3, "c", "x", 12)]
    df = spark.createDataFrame(rows, "id int, name string, part string, ts long")
    raw, typed = tmp_path / "raw", tmp_path / "typed"
    df.write.format("pyhudi").options(
        **{
            "hoodie.table.name": "t",
            "hoodie.datasource.write.recordkey.field": "id,name",
            "hoodie.datasource.write.partitionpath.field": "part",
            "hoodie.datasource.write.operation": "insert",
        }
    ).mode("append").save(str(raw))
    pyhudi.write(
        df, typed, table_name="t", record_key=["id", "name"], partition_by="part", operation=WriteOperation.INSERT
    )
    # Written at different instants: compare everything but the instant-bearing meta columns.
    volatile = ["_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_file_name"]
    assert _rows(pyhudi.read(spark, typed).drop(*volatile)) == _rows(pyhudi.read(spark, raw).drop(*volatile))
    assert len(_rows(pyhudi.read(spark, typed))) == 3
