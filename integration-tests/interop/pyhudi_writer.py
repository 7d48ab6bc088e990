# SPDX-License-Identifier: Apache-2.0
"""One pyhudi write in a process of its own (for crash tests): ``python pyhudi_writer.py SPEC``,
where SPEC is a JSON file with ``path``, ``schema``, ``rows`` and ``options``."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pyspark.sql import SparkSession  # noqa: E402
from rows import frame  # noqa: E402

import pyhudi  # noqa: E402


def main() -> None:
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    builder = (
        SparkSession.builder.master("local[1]")
        .appName("pyhudi-writer")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
    )
    spark = pyhudi.configure_spark(builder).getOrCreate()
    frame(spark, spec["schema"], spec["rows"]).write.format("pyhudi").options(**spec["options"]).mode("append").save(
        spec["path"]
    )
    spark.stop()


if __name__ == "__main__":
    main()
