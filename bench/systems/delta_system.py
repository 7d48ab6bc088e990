# SPDX-License-Identifier: Apache-2.0
"""Delta Lake (delta-spark for Spark 4.0) on path tables: append, MERGE, scans. Change data feed
stays off, as by default (it adds files to every MERGE), so there is no incremental read; Delta
has no merge-on-read table type. Usage: delta_system.py SPEC."""

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import PARTITION, Bench, load_spec  # noqa: E402
from merge_family import MergeFamily  # noqa: E402


class Delta(MergeFamily):
    incremental_na = "change data feed off (the default)"
    mor_na = "no merge-on-read table type"

    def folder(self, variant: str) -> str:
        return self.b.table_path("delta " + variant)

    def ident(self, variant: str) -> str:
        return f"delta.`{self.folder(variant)}`"

    def create(self, df: Any, variant: str, mode: str) -> None:
        df.write.format("delta").partitionBy(PARTITION).save(self.folder(variant))

    def read(self, variant: str) -> Any:
        return self.b.spark.read.format("delta").load(self.folder(variant)).select(*self.b.columns)


def main() -> int:
    spec = load_spec()
    import pyspark

    version = spec["delta_version"]
    conf = {
        "spark.jars.packages": f"io.delta:delta-spark_2.13:{version}",
        "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
    }
    b = Bench(spec, "delta", conf)
    family = Delta(b)
    b.runs(family.variants(), family.warmup)
    for w, why in family.not_applicable().items():
        b.na("COW", w, why)
    b.finish({"delta": version, "pyspark": pyspark.__version__})
    return 0


if __name__ == "__main__":
    sys.exit(main())
