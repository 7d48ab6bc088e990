# SPDX-License-Identifier: Apache-2.0
"""Plain parquet alone in a process of its own: the load, the full scan and the selective filter,
as every other worker times them beside its own steps. Usage: parquet_system.py SPEC."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import FILTER, LOAD, PARTITION, SCAN, Bench, load_spec  # noqa: E402


def main() -> int:
    spec = load_spec()
    import pyspark

    b = Bench(spec, "parquet", {})
    table = b.inputs["table"]

    def sequence(variant: str) -> None:
        path = b.table_path(variant)
        b.load_step(variant, LOAD, lambda: table.write.partitionBy(PARTITION).parquet(path), path)
        b.record(variant, LOAD, label="df.write.parquet")
        b.read_step(variant, SCAN, lambda: b.checksum(b.spark.read.parquet(path)))
        b.read_step(variant, FILTER, lambda: b.checksum(b.filtered(b.spark.read.parquet(path))))

    b.runs([("parquet", sequence)], lambda p: table.limit(2000).write.parquet(p))
    b.finish({"pyspark": pyspark.__version__})
    return 0


if __name__ == "__main__":
    sys.exit(main())
