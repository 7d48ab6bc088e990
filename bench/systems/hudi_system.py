# SPDX-License-Identifier: Apache-2.0
"""Apache Hudi 1.2.x on PySpark 3.5: it publishes Spark bundles for Spark 3.5 only. The bundle
and the session configuration are those of the interop tests (integration-tests/interop/
hudi_worker.py); tables are written as table version 6, the version pyhudi writes.
Usage: hudi_system.py SPEC."""

import os
import sys
from typing import Dict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import Bench, load_spec  # noqa: E402
from hudi_family import HudiFamily  # noqa: E402


def session_conf(version: str) -> Dict[str, str]:
    """The Spark settings of a session running Apache Hudi `version` (its Spark 3.5 bundle)."""
    return {
        "spark.jars.packages": f"org.apache.hudi:hudi-spark3.5-bundle_2.12:{version}",
        "spark.serializer": "org.apache.spark.serializer.KryoSerializer",
        "spark.kryo.registrator": "org.apache.spark.HoodieSparkKryoRegistrar",
        "spark.sql.extensions": "org.apache.spark.sql.hudi.HoodieSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.hudi.catalog.HoodieCatalog",
    }


def main() -> int:
    spec = load_spec()
    import pyspark

    version = spec["hudi_version"]
    b = Bench(spec, "hudi", session_conf(version))

    def compact(path: str) -> None:
        # scheduling waits for 5 delta commits by default; the benchmark compacts after one
        options = "hoodie.compact.inline.max.delta.commits=1"
        b.spark.sql(
            f"CALL run_compaction(op => 'scheduleAndExecute', path => '{path}', options => '{options}')"
        ).collect()

    family = HudiFamily(
        b,
        "hudi",
        {"hoodie.write.table.version": "6"},
        compact,
        [
            ("bulk_insert, row writer", "bulk_insert", {"hoodie.datasource.write.row.writer.enable": "true"}),
            ("defaults (upsert)", "upsert", {}),
        ],
        spec["index"],
    )
    b.runs(family.variants(), family.warmup)
    b.finish({"hudi": version, "pyspark": pyspark.__version__})
    return 0


if __name__ == "__main__":
    sys.exit(main())
