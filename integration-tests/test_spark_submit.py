# SPDX-License-Identifier: Apache-2.0
"""The jar works without pyhudi's Python helpers: plain spark-submit with --jars / spark.jars."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pyspark
import pytest

import harness
import pyhudi

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


def _spark_submit() -> Path:
    path = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    if not path.is_file():
        pytest.skip(f"no spark-submit in the installed pyspark: {path}")
    return path


@pytest.mark.parametrize("jar_arg", ["--jars", "--conf"])
def test_spark_submit_reads_table(corpus, tmp_path, jar_arg):
    script = tmp_path / "count_rows.py"
    script.write_text(SCRIPT)
    jar = pyhudi.jar_path()
    jar_args = ["--jars", jar] if jar_arg == "--jars" else ["--conf", f"spark.jars={jar}"]
    env = dict(
        os.environ,
        SPARK_HOME=str(Path(pyspark.__file__).parent),  # the pyspark of sys.executable
        PYSPARK_PYTHON=sys.executable,
        PYSPARK_DRIVER_PYTHON=sys.executable,
    )
    command = [
        str(_spark_submit()),
        "--master", "local[1]",
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.sql.shuffle.partitions=1",
        *jar_args,
        str(script),
        str(corpus[TABLE]),
    ]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, f"spark-submit failed:\n{done.stderr[-4000:]}"
    counts = [line for line in done.stdout.splitlines() if line.startswith("PYHUDI_ROW_COUNT=")]
    expected = len(harness.load_expected(TABLE)["snapshot"])
    assert counts == [f"PYHUDI_ROW_COUNT={expected}"], done.stdout
