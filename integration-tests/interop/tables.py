# SPDX-License-Identifier: Apache-2.0
"""Data, options, a model and three readers for the interop tests."""

import os
import sys
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rows import frame, normalize, normalize_rows  # noqa: E402

HUDI_LATEST = "1.2.0"
HUDI_0X = "0.15.0"
"""The Apache Hudi versions the suite runs against (Spark 3.5 bundles)."""

SCHEMA = (
    "id string, part string, ts long, name string, amount double, qty int, day date, "
    "price decimal(10,2), flag boolean, info struct<tag:string,n:int>, at timestamp"
)
DATA_COLUMNS = ["id", "part", "ts", "name", "amount", "qty", "day", "price", "flag", "info", "at"]
META_COLUMNS = [
    "_hoodie_commit_time",
    "_hoodie_commit_seqno",
    "_hoodie_record_key",
    "_hoodie_partition_path",
    "_hoodie_file_name",
]
PARTS = ("north", "south", "east")

EVENT_TIME = "org.apache.hudi.common.model.DefaultHoodieRecordPayload"
LATEST_WINS = "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload"

SNAPSHOT: Dict[str, str] = {}
READ_OPTIMIZED = {"hoodie.datasource.query.type": "read_optimized"}


def incremental(begin: str) -> Dict[str, str]:
    return {"hoodie.datasource.query.type": "incremental", "hoodie.datasource.read.begin.instanttime": begin}


def as_of(instant: str) -> Dict[str, str]:
    return {"as.of.instant": instant}


def row(i: int, ts: int, tag: str, part: Optional[str] = None) -> Dict[str, Any]:
    """Row ``i`` of version ``tag``; every column type the corpus holds at the top level."""
    return {
        "id": f"k{i:04d}",
        "part": part or PARTS[i % len(PARTS)],
        "ts": ts,
        "name": f"{tag}-{i}",
        "amount": i * 1.25,
        "qty": i % 7,
        "day": f"2026-0{1 + i % 9}-1{i % 10}",
        "price": f"{i}.{i % 100:02d}",
        "flag": i % 2 == 0,
        "info": {"tag": tag, "n": i},
        "at": f"2026-11-2{i % 10}T0{i % 10}:15:30.123456Z",
    }


def options(name: str, table_type: str, operation: str = "upsert", **extra: str) -> Dict[str, str]:
    return {
        "hoodie.table.name": name,
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.operation": operation,
        "hoodie.datasource.write.recordkey.field": "id",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        **extra,
    }


class Model:
    """Expected data rows. ``event_time``: of two versions of a key the larger ``ts`` wins (ties:
    the later write); otherwise the later write wins."""

    def __init__(self, event_time: bool = True) -> None:
        self.event_time = event_time
        self.records: Dict[str, Dict[str, Any]] = {}

    def upsert(self, rows: Iterable[Dict[str, Any]]) -> None:
        for r in rows:
            old = self.records.get(r["id"])
            if old is None or not self.event_time or r["ts"] >= old["ts"]:
                self.records[r["id"]] = r

    def delete(self, ids: Iterable[str]) -> None:
        for i in ids:
            self.records.pop(i, None)

    def overwrite_partitions(self, rows: List[Dict[str, Any]]) -> None:
        parts = {r["part"] for r in rows}
        self.records = {k: v for k, v in self.records.items() if v["part"] not in parts}
        self.upsert(rows)

    def expected(self) -> List[Dict[str, Any]]:
        return sorted_rows([{c: normalize_json(r, c) for c in DATA_COLUMNS} for r in self.records.values()])


def normalize_json(r: Dict[str, Any], column: str) -> Any:
    """A model value as the readers' normalised form."""
    v = r[column]
    if column == "at":
        return v.replace("Z", "+00:00")
    if column == "amount":
        return round(v, 9)
    return v


def sorted_rows(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    import json

    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))


def data(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return sorted_rows([{c: r[c] for c in DATA_COLUMNS} for r in rows])


def data_of(rows: List[Dict[str, Any]], columns: List[str]) -> List[Dict[str, Any]]:
    return sorted_rows([{c: r[c] for c in columns} for r in rows])


def with_meta(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return sorted_rows([{c: r[c] for c in DATA_COLUMNS + META_COLUMNS} for r in rows])


# ---- pyhudi (this process's Spark 4) and hudi-rs


def pyhudi_write(
    spark: Any, path: Path, rows: List[Dict[str, Any]], opts: Dict[str, str], mode: str = "append"
) -> None:
    frame(spark, SCHEMA, rows).write.format("pyhudi").options(**opts).mode(mode).save(str(path))


def pyhudi_read(spark: Any, path: Path, opts: Optional[Dict[str, str]] = None) -> List[Dict[str, Any]]:
    return normalize_rows(spark.read.format("pyhudi").options(**(opts or {})).load(str(path)).collect())


def hudi_rs_read(path: Path, at: Optional[str] = None) -> List[Dict[str, Any]]:
    from hudi import HudiQueryType, HudiReadOptions, HudiTableBuilder

    read = HudiReadOptions().with_query_type(HudiQueryType.Snapshot)
    if at is not None:
        read = read.with_as_of_timestamp(at)
    batches = HudiTableBuilder.from_base_uri(str(path)).build().read(read)
    rows = [r for b in batches for r in b.to_pylist()]
    return sorted_rows([{k: normalize(v) for k, v in r.items()} for r in rows])


def completed(path: Path) -> List[str]:
    """Completed instants of data-writing actions (commit, deltacommit, replacecommit), oldest first."""
    names = os.listdir(Path(path) / ".hoodie")
    return sorted(
        n.split(".")[0]
        for n in names
        if n.split(".")[0].isdigit()
        and n.count(".") == 1
        and n.split(".")[1] in ("commit", "deltacommit", "replacecommit")
    )


def table_property(path: Path, key: str) -> str:
    """A value of ``.hoodie/hoodie.properties`` ("" when absent)."""
    for line in (Path(path) / ".hoodie" / "hoodie.properties").read_text().splitlines():
        if line.startswith(key + "="):
            return line.split("=", 1)[1].replace("\\:", ":").replace("\\=", "=")
    return ""


def metadata_partitions(path: Path) -> str:
    return table_property(path, "hoodie.table.metadata.partitions")
