# SPDX-License-Identifier: Apache-2.0
"""The jar works without pyhudi's Python helpers: plain spark-submit with --jars / spark.jars."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import harness
import pyspark
import pytest

import pyhudi
from pyhudi.session import KRYO_REGISTRATOR

TABLE = "mor/v6_trips_8i1u"

SCRIPT = textwrap.dedent(
    """
    import sys
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    count = spark.read.format("pyhudi").load(sys.argv[1]).count()
    print(f"PYHUDI_ROW_COUNT={count}")
    spark.stop()
    """
)


def _submit_env() -> dict:
    """The environment of a spark-submit that runs the pyspark and Python of this test session."""
    return dict(
        os.environ,
        SPARK_HOME=str(Path(pyspark.__file__).parent),  # the pyspark of sys.executable
        PYSPARK_PYTHON=sys.executable,
        PYSPARK_DRIVER_PYTHON=sys.executable,
    )


def _spark_submit() -> Path:
    path = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    if not path.is_file():
        pytest.skip(f"no spark-submit in the installed pyspark: {path}")
    return path


def _submit(options: list, script: Path, arg: Path) -> subprocess.CompletedProcess:
    """Runs ``spark-submit <options> <script> <arg>`` with the UI off and asserts it succeeded."""
    command = [str(_spark_submit()), "--conf", "spark.ui.enabled=false", *options, str(script), str(arg)]
    done = subprocess.run(command, capture_output=True, text=True, env=_submit_env(), timeout=300)
    assert done.returncode == 0, f"spark-submit failed:\n{done.stderr[-4000:]}"
    return done


@pytest.mark.parametrize("jar_arg", ["--jars", "--conf"])
def test_spark_submit_reads_table(corpus, tmp_path, jar_arg):
    script = tmp_path / "count_rows.py"
    script.write_text(SCRIPT)
    jar = pyhudi.jar_path()
    jar_args = ["--jars", jar] if jar_arg == "--jars" else ["--conf", f"spark.jars={jar}"]
    done = _submit(
        ["--master", "local[1]", "--conf", "spark.sql.shuffle.partitions=1", *jar_args], script, corpus[TABLE]
    )
    counts = [line for line in done.stdout.splitlines() if line.startswith("PYHUDI_ROW_COUNT=")]
    expected = len(harness.load_expected(TABLE)["snapshot"])
    assert counts == [f"PYHUDI_ROW_COUNT={expected}"], done.stdout


WRITE_SCRIPT = textwrap.dedent(
    """
    import sys
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    base = sys.argv[1]
    rows = [(i, f"day{i % 3}", i) for i in range(60)]
    # Three versions of key 7 in one batch: the largest ts wins.
    update = [(i, f"day{i % 3}", 1000 + i) for i in range(0, 60, 2)] + [(7, "day1", 5), (7, "day1", 2000)]
    deletes = [(i, f"day{i % 3}", 3000) for i in range(0, 60, 9)]
    for table_type, index in [("COPY_ON_WRITE", "BLOOM"), ("MERGE_ON_READ", "BUCKET"), ("COPY_ON_WRITE", "SIMPLE")]:
        path = f"{base}/{table_type}_{index}"
        opts = {
            "hoodie.table.name": "kryo_" + index.lower(),
            "hoodie.datasource.write.table.type": table_type,
            "hoodie.datasource.write.recordkey.field": "id",
            "hoodie.datasource.write.partitionpath.field": "day",
            "hoodie.datasource.write.precombine.field": "ts",
            "hoodie.index.type": index,
            "hoodie.bucket.index.num.buckets": "2",
            # The table services' jobs too: a compaction after the delete, cleans that delete files.
            "hoodie.compact.inline": "true",
            "hoodie.compact.inline.max.delta.commits": "2",
            "hoodie.clean.commits.retained": "1",
        }
        for op, data in [("bulk_insert", rows), ("upsert", update), ("delete", deletes)]:
            df = spark.createDataFrame(data, "id long, day string, ts long").repartition(3)
            df.write.format("pyhudi").options(**opts).option("hoodie.datasource.write.operation", op) \\
                .mode("append").save(path)
        got = sorted((r.id, r.ts) for r in spark.read.format("pyhudi").load(path).collect())
        print(f"PYHUDI_ROWS {table_type} {index} {got}")
    spark.stop()
    """
)

KRYO = ["--conf", "spark.serializer=org.apache.spark.serializer.KryoSerializer"]


@pytest.mark.parametrize(
    "kryo",
    [
        pytest.param(KRYO, id="kryo"),
        # Every class the jobs ship must then be registered: the connector's registrator does it.
        pytest.param(
            KRYO
            + ["--conf", "spark.kryo.registrationRequired=true"]
            + ["--conf", f"spark.kryo.registrator={KRYO_REGISTRATOR}"],
            id="kryo-registration-required",
        ),
    ],
)
def test_spark_submit_writes_under_the_kryo_serializer(tmp_path, kryo):
    """Writes ship their handle context to the tasks in a broadcast (ExecutorShared): it must
    work under Kryo, the serializer Apache Hudi's users configure, with the jar from --jars;
    and with Kryo's registrationRequired, with the connector's registrator."""
    script = tmp_path / "write_rows.py"
    script.write_text(WRITE_SCRIPT)
    done = _submit(
        ["--master", "local[2]", "--conf", "spark.sql.shuffle.partitions=2", *kryo, "--jars", pyhudi.jar_path()],
        script,
        tmp_path / "tables",
    )
    latest = {i: 1000 + i if i % 2 == 0 else i for i in range(60) if i % 9 != 0}
    latest[7] = 2000
    want = str(sorted(latest.items()))
    lines = [line for line in done.stdout.splitlines() if line.startswith("PYHUDI_ROWS ")]
    assert lines == [
        f"PYHUDI_ROWS COPY_ON_WRITE BLOOM {want}",
        f"PYHUDI_ROWS MERGE_ON_READ BUCKET {want}",
        f"PYHUDI_ROWS COPY_ON_WRITE SIMPLE {want}",
    ], done.stdout
    tables = tmp_path / "tables"
    # The services ran: the merge-on-read table was compacted, the copy-on-write ones cleaned.
    assert list((tables / "MERGE_ON_READ_BUCKET" / ".hoodie").glob("*.commit")), "no compaction"
    for name in ("COPY_ON_WRITE_BLOOM", "COPY_ON_WRITE_SIMPLE"):
        assert list((tables / name / ".hoodie").glob("*.clean")), f"{name}: no clean"
