# SPDX-License-Identifier: Apache-2.0
"""Apache Iceberg's Spark runtime for Spark 4.0, a Hadoop catalog on local files: append,
MERGE INTO in copy-on-write and in merge-on-read mode, rewrite_data_files as the compaction of
the merge-on-read table. Its incremental read covers append snapshots only, and the last commit
is a MERGE (an overwrite), so that step is n/a. Usage: iceberg_system.py SPEC."""

import os
import re
import shutil
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import PARTITION, Bench, load_spec  # noqa: E402
from merge_family import MergeFamily  # noqa: E402

CATALOG = "bench"


class Iceberg(MergeFamily):
    incremental_na = "incremental scan reads append snapshots only; the last commit is a MERGE"

    def name(self, variant: str) -> str:
        return re.sub(r"[^a-z0-9]+", "_", f"{variant} r{self.b.run}".lower()).strip("_").replace("-", "m")

    def folder(self, variant: str) -> str:
        return os.path.join(self.b.spec["work"], "iceberg", "db", self.name(variant))

    def ident(self, variant: str) -> str:
        return f"{CATALOG}.db.{self.name(variant)}"

    def create(self, df: Any, variant: str, mode: str) -> None:
        from pyspark.sql import functions as F

        w = df.writeTo(self.ident(variant)).partitionedBy(F.col(PARTITION)).tableProperty("format-version", "2")
        for op in ("update", "delete", "merge"):
            w = w.tableProperty(f"write.{op}.mode", mode)
        w.create()

    def read(self, variant: str) -> Any:
        return self.b.spark.table(self.ident(variant)).select(*self.b.columns)

    def drop(self, variant: str) -> None:
        # through the catalog, which would otherwise keep the dropped table's metadata cached
        self.b.spark.sql(f"DROP TABLE {self.ident(variant)} PURGE")
        shutil.rmtree(self.folder(variant), ignore_errors=True)

    def compact(self, variant: str) -> None:
        table = f"db.{self.name(variant)}"
        # rewrite every data file that has a delete file against it, as a MOR compaction does
        options = "map('delete-file-threshold', '1')"
        self.b.spark.sql(
            f"CALL {CATALOG}.system.rewrite_data_files(table => '{table}', options => {options})"
        ).collect()

    def modes(self):  # type: ignore[no-untyped-def]
        return [("COW", "copy-on-write"), ("MOR-mode", "merge-on-read")]


def main() -> int:
    spec = load_spec()
    import pyspark

    version = spec["iceberg_version"]
    conf = {
        "spark.jars.packages": f"org.apache.iceberg:iceberg-spark-runtime-4.0_2.13:{version}",
        "spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        f"spark.sql.catalog.{CATALOG}": "org.apache.iceberg.spark.SparkCatalog",
        f"spark.sql.catalog.{CATALOG}.type": "hadoop",
        f"spark.sql.catalog.{CATALOG}.warehouse": os.path.join(spec["work"], "iceberg"),
        f"spark.sql.catalog.{CATALOG}.cache-enabled": "false",
    }
    b = Bench(spec, "iceberg", conf)
    family = Iceberg(b)
    b.runs(
        family.variants(),
        family.warmup,
        lambda: shutil.rmtree(os.path.join(spec["work"], "iceberg", "db"), ignore_errors=True),
    )
    for w, why in family.not_applicable().items():
        b.na("COW", w, why)
    b.finish({"iceberg": version, "pyspark": pyspark.__version__})
    return 0


if __name__ == "__main__":
    sys.exit(main())
