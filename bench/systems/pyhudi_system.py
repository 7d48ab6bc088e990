# SPDX-License-Identifier: Apache-2.0
"""pyhudi on Spark 4 (the jar shipped in the installed package). Usage: pyhudi_system.py SPEC."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import Bench, load_spec  # noqa: E402
from hudi_family import HudiFamily  # noqa: E402


class Pyhudi(HudiFamily):
    def after_upsert(self, variant: str, workload: str, path: str) -> None:
        """What the write path exposes about its index lookup: the time from the call to
        ``<instant>.commit.requested`` (key generation, de-duplication, index lookup and planning
        all run before the instant exists); from the commit metadata, the files holding the
        updated keys, and the lookup's own figures the write records there (its wall time, and
        the base files it could search, whose key range held a key, and whose keys it read)."""
        meta = os.path.join(path, ".hoodie")
        names = os.listdir(meta)
        last = self.commits(path)[-1]
        requested = [n for n in names if n.startswith(last) and n.endswith(".requested")]
        rec = self.b.records.get((variant, workload))
        if rec is None:
            return
        if requested:
            rec.setdefault("pre_instant", []).append(
                os.path.getmtime(os.path.join(meta, requested[0])) - self.b.started
            )
        action = next(n for n in names if n.startswith(last + ".") and not n.endswith((".requested", ".inflight")))
        with open(os.path.join(meta, action)) as f:
            doc = json.load(f)
        stats = [s for ss in (doc.get("partitionToWriteStats") or {}).values() for s in ss]
        rec.setdefault("files_with_keys", []).append(sum(1 for s in stats if int(s.get("numUpdateWrites") or 0) > 0))
        # The CLI's reading of the figures, so the key names live in one place on the Python side.
        from pyhudi.cli.instant_metadata import index_lookup

        lookup = index_lookup({str(k): str(v) for k, v in (doc.get("extraMetadata") or {}).items()})
        if lookup:
            rec.setdefault("index_lookup_ms", []).append(lookup["lookup_ms"])
            for name in ("files_indexed", "files_in_range", "files_probed"):
                rec.setdefault(name, []).append(lookup[name])


def main() -> int:
    spec = load_spec()
    import pyspark

    import pyhudi

    b = Bench(spec, "pyhudi", {})
    family = Pyhudi(
        b,
        "pyhudi",
        {},
        lambda path: pyhudi.compact(b.spark, path),
        [("bulk_insert", "bulk_insert", {}), ("insert", "insert", {})],
        spec["index"],
    )
    b.runs(family.variants(), family.warmup)
    b.finish({"pyhudi": pyhudi.__version__, "pyspark": pyspark.__version__})
    return 0


if __name__ == "__main__":
    sys.exit(main())
