# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the integration tests: the conformance corpus and result normalisation.

The corpus is ``<repo>/../shared/hudi-tables`` (override with ``$PYHUDI_SHARED``, the folder
holding ``hudi-tables/``). Its ``*.expected.json`` files hold rows in a normalised JSON form
(see ``hudi-tables/README.md``); :func:`normalize_rows` turns collected Spark rows into the
same form and :func:`assert_rows_equal` compares both ignoring row order and map entry order.
"""

import base64
import datetime as dt
import json
import os
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    DataType,
    DateType,
    DecimalType,
    DoubleType,
    FloatType,
    MapType,
    StructType,
    TimestampNTZType,
    TimestampType,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
TABLE_KINDS = ("cow", "mor")
META_COLUMNS = (
    "_hoodie_commit_time",
    "_hoodie_commit_seqno",
    "_hoodie_record_key",
    "_hoodie_partition_path",
    "_hoodie_file_name",
)


def shared_dir() -> Path:
    """The shared folder: ``$PYHUDI_SHARED`` or the sibling ``shared/`` of the repo root.

    A git worktree's ``.git`` is a file pointing to the main checkout; the corpus sits beside
    the worktree in the same parent folder, so ``<repo>/../shared`` works for both.
    """
    env = os.environ.get("PYHUDI_SHARED")
    return Path(env).resolve() if env else (REPO_ROOT.parent / "shared").resolve()


def corpus_dir() -> Path:
    path = shared_dir() / "hudi-tables" / "v6"
    if not path.is_dir():
        raise FileNotFoundError(
            f"Conformance corpus not found at {path}; set PYHUDI_SHARED to the folder that holds hudi-tables/"
        )
    return path


def table_names() -> List[str]:
    """All corpus tables as ``"<kind>/<name>"``, e.g. ``"mor/v6_trips_8i1u"``."""
    root = corpus_dir()
    names = [f"{kind}/{zip_path.stem}" for kind in TABLE_KINDS for zip_path in sorted((root / kind).glob("*.zip"))]
    if not names:
        raise FileNotFoundError(f"No *.zip tables under {root}/{{cow,mor}}")
    return names


def load_expected(name: str) -> Dict[str, Any]:
    """The parsed ``<kind>/<name>.expected.json`` of a corpus table."""
    with open(corpus_dir() / f"{name}.expected.json", encoding="utf-8") as f:
        return json.load(f)


def extract_corpus(target: Path) -> Dict[str, Path]:
    """Unzip every corpus table under ``target/<kind>/`` and return name -> table base path."""
    paths: Dict[str, Path] = {}
    for name in table_names():
        kind, table = name.split("/")
        dest = target / kind
        dest.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(corpus_dir() / f"{name}.zip") as zf:
            zf.extractall(dest)
        base = dest / table
        if not (base / ".hoodie" / "hoodie.properties").is_file():
            raise FileNotFoundError(f"{name}.zip did not contain {table}/.hoodie/hoodie.properties")
        paths[name] = base
    return paths


def write_options(name: str, table_type: str, **extra: str) -> Dict[str, str]:
    """Write options of a test table keyed by ``id``, partitioned by ``part`` and ordered by ``ts``."""
    return {
        "hoodie.table.name": name,
        "hoodie.datasource.write.table.type": table_type,
        "hoodie.datasource.write.recordkey.field": "id",
        "hoodie.datasource.write.partitionpath.field": "part",
        "hoodie.datasource.write.precombine.field": "ts",
        **extra,
    }


def read_table(spark: Any, path: Path, options: Optional[Dict[str, str]] = None) -> Any:
    """``spark.read.format("pyhudi").options(**options).load(path)``."""
    return spark.read.format("pyhudi").options(**(options or {})).load(str(path))


# --------------------------------------------------------------------------------------------
# Normalisation: Spark values -> the expected-JSON value forms.


def normalize_value(value: Any, data_type: DataType) -> Any:
    """One collected value in the expected-JSON form, driven by its Spark type."""
    if value is None:
        return None
    if isinstance(data_type, BinaryType):
        return "base64:" + base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(data_type, DecimalType):
        return str(value)
    if isinstance(data_type, (FloatType, DoubleType)):
        return repr(float(value))
    if isinstance(data_type, TimestampType):
        return _utc_iso_from_local(value)
    if isinstance(data_type, TimestampNTZType):
        return value.replace(tzinfo=dt.timezone.utc).isoformat()
    if isinstance(data_type, DateType):
        return value.isoformat()
    if isinstance(data_type, StructType):
        return {field.name: normalize_value(value[i], field.dataType) for i, field in enumerate(data_type.fields)}
    if isinstance(data_type, ArrayType):
        return [normalize_value(v, data_type.elementType) for v in value]
    if isinstance(data_type, MapType):
        pairs = [
            [normalize_value(k, data_type.keyType), normalize_value(v, data_type.valueType)] for k, v in value.items()
        ]
        return sorted(pairs, key=canonical_json)
    if isinstance(value, (Decimal, float)):  # defensive: a type we did not map above
        return repr(value) if isinstance(value, float) else str(value)
    return value


def _utc_iso_from_local(value: dt.datetime) -> str:
    """PySpark returns TimestampType values as naive datetimes in the *Python process's*
    local time zone (``datetime.fromtimestamp``), whatever spark.sql.session.timeZone says.
    ``astimezone`` on a naive datetime interprets it in that same zone (honouring ``fold``
    for repeated wall-clock hours), so this is the exact inverse."""
    return value.astimezone(dt.timezone.utc).isoformat()


def normalize_rows(rows: Iterable[Any], schema: StructType) -> List[Dict[str, Any]]:
    """Collected ``Row`` objects as expected-JSON dicts."""
    return [normalize_value(row, schema) for row in rows]


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonicalize_expected(value: Any, data_type: Optional[DataType]) -> Any:
    """Sort the map pairs of an expected value the same way :func:`normalize_value` does.

    The expected JSON keeps map pairs in file order; only the Spark type tells a map (pair
    order irrelevant) from an array of arrays. Values whose type is unknown stay as they are.
    """
    if value is None or data_type is None:
        return value
    if isinstance(data_type, StructType) and isinstance(value, dict):
        fields = {f.name: f.dataType for f in data_type.fields}
        return {k: canonicalize_expected(v, fields.get(k)) for k, v in value.items()}
    if isinstance(data_type, ArrayType) and isinstance(value, list):
        return [canonicalize_expected(v, data_type.elementType) for v in value]
    if isinstance(data_type, MapType) and isinstance(value, list):
        pairs = [
            [
                canonicalize_expected(p[0], data_type.keyType),
                canonicalize_expected(p[1], data_type.valueType),
            ]
            if isinstance(p, list) and len(p) == 2
            else p
            for p in value
        ]
        return sorted(pairs, key=canonical_json)
    return value


def assert_rows_equal(
    actual: Sequence[Dict[str, Any]],
    expected: Sequence[Dict[str, Any]],
    schema: StructType,
    context: str = "",
    max_shown: int = 4,
) -> None:
    """Assert two row lists are equal as multisets, explaining the difference if not."""
    actual_json = sorted(canonical_json(r) for r in actual)
    expected_json = sorted(canonical_json(canonicalize_expected(r, schema)) for r in expected)
    if actual_json == expected_json:
        return
    missing = _multiset_minus(expected_json, actual_json)
    unexpected = _multiset_minus(actual_json, expected_json)
    lines = [
        f"{context}: {len(actual_json)} rows read, {len(expected_json)} expected; "
        f"{len(missing)} expected rows missing, {len(unexpected)} rows unexpected"
    ]
    actual_cols = set().union(*(r.keys() for r in actual)) if actual else set()
    expected_cols = set().union(*(r.keys() for r in expected)) if expected else set()
    if actual and expected and actual_cols != expected_cols:
        lines.append(f"  columns only read:     {sorted(actual_cols - expected_cols)}")
        lines.append(f"  columns only expected: {sorted(expected_cols - actual_cols)}")
    lines += _pairwise_diffs(missing, unexpected, max_shown)
    raise AssertionError("\n".join(lines))


def _multiset_minus(a: List[str], b: List[str]) -> List[str]:
    remaining: Dict[str, int] = {}
    for item in b:
        remaining[item] = remaining.get(item, 0) + 1
    out = []
    for item in a:
        if remaining.get(item, 0):
            remaining[item] -= 1
        else:
            out.append(item)
    return out


def _pairwise_diffs(missing: List[str], unexpected: List[str], max_shown: int) -> List[str]:
    """Describe differences, pairing a missing and an unexpected row by record key if possible."""
    lines: List[str] = []
    miss = [json.loads(m) for m in missing]
    extra = [json.loads(u) for u in unexpected]

    def same_record(a: Dict[str, Any], b: Dict[str, Any]) -> Optional[str]:
        for k in ("_hoodie_record_key", "uuid", "id"):
            if a.get(k) is not None and b.get(k) is not None:
                return f"{k}={canonical_json(a[k])}" if a[k] == b[k] else None
        return None

    shown = 0
    for m in list(miss):
        if shown >= max_shown:
            break
        match = next(((e, r) for e in extra for r in [same_record(m, e)] if r), None)
        if match is None:
            continue
        other, record = match
        absent = "<absent>"
        diffs = [
            (c, m.get(c, absent), other.get(c, absent))
            for c in sorted(set(m) | set(other))
            if m.get(c, absent) != other.get(c, absent)
        ]
        lines.append(f"  row {record} differs (column: expected -> read):")
        lines += [f"    {c}: {e!r} -> {a!r}"[:400] for c, e, a in diffs]
        miss.remove(m)
        extra.remove(other)
        shown += 1
    for label, rows in (("missing", miss), ("unexpected", extra)):
        for row in rows[:max_shown]:
            lines.append(f"  {label}: {canonical_json(row)[:600]}")
        if len(rows) > max_shown:
            lines.append(f"  ... {len(rows) - max_shown} more {label}")
    return lines


def assert_meta_columns_first(columns: Sequence[str], context: str = "") -> None:
    """``_hoodie_*`` meta columns, when present, lead the schema in Hudi's order."""
    meta = [c for c in columns if c.startswith("_hoodie_")]
    assert list(columns[: len(meta)]) == meta, f"{context}: meta columns must come first, got columns {list(columns)}"
    if set(META_COLUMNS) <= set(meta):
        assert tuple(meta[: len(META_COLUMNS)]) == META_COLUMNS, (
            f"{context}: meta columns must be in Hudi's order {list(META_COLUMNS)}, got {meta}"
        )


# --------------------------------------------------------------------------------------------
# hudi-rs (PyPI ``hudi``) as a second, independent reader, and the table's timeline on disk.

COMPLETED_WRITE_ACTIONS = ("commit", "deltacommit", "replacecommit")


def normalize_arrow_value(value: Any, arrow_type: Any) -> Any:
    """One ``as_py()`` value of an Arrow column in the expected-JSON form, driven by its type
    (the Arrow counterpart of :func:`normalize_value`)."""
    import pyarrow as pa

    t = pa.types
    if value is None:
        return None
    if t.is_binary(arrow_type) or t.is_large_binary(arrow_type) or t.is_fixed_size_binary(arrow_type):
        return "base64:" + base64.b64encode(bytes(value)).decode("ascii")
    if t.is_decimal(arrow_type):
        return str(value)
    if t.is_floating(arrow_type):
        return repr(float(value))
    if t.is_timestamp(arrow_type):
        if value.tzinfo is None:  # a timestamp without zone: wall clock, shown as UTC
            return value.replace(tzinfo=dt.timezone.utc).isoformat()
        return value.astimezone(dt.timezone.utc).isoformat()
    if t.is_date(arrow_type):
        return value.isoformat()
    if t.is_struct(arrow_type):
        return {
            arrow_type.field(i).name: normalize_arrow_value(
                value.get(arrow_type.field(i).name), arrow_type.field(i).type
            )
            for i in range(arrow_type.num_fields)
        }
    if t.is_map(arrow_type):
        pairs = [
            [normalize_arrow_value(k, arrow_type.key_type), normalize_arrow_value(v, arrow_type.item_type)]
            for k, v in value
        ]
        return sorted(pairs, key=canonical_json)
    if t.is_list(arrow_type) or t.is_large_list(arrow_type):
        return [normalize_arrow_value(v, arrow_type.value_type) for v in value]
    return value


def normalize_arrow(batches: Sequence[Any], schema: Any = None) -> List[Dict[str, Any]]:
    """Arrow record batches (or one table) as expected-JSON dicts."""
    import pyarrow as pa

    table = (
        batches
        if isinstance(batches, pa.Table)
        else (pa.Table.from_batches(list(batches), schema=schema) if batches or schema is not None else None)
    )
    if table is None:
        return []
    fields = list(table.schema)
    return [{f.name: normalize_arrow_value(row[f.name], f.type) for f in fields} for row in table.to_pylist()]


def hudi_rs_read(
    path: Path,
    as_of: Optional[str] = None,
    begin: Optional[str] = None,
    end: Optional[str] = None,
) -> List[Dict[str, Any]]:
    """Rows of the table read by hudi-rs: snapshot (optionally ``as_of`` an instant), or
    incremental in ``(begin, end]`` when ``begin`` is given."""
    from hudi import HudiQueryType, HudiReadOptions, HudiTableBuilder

    table = HudiTableBuilder.from_base_uri(str(path)).build()
    options = HudiReadOptions()
    if begin is not None:
        options = options.with_query_type(HudiQueryType.Incremental).with_start_timestamp(begin)
        if end is not None:
            options = options.with_end_timestamp(end)
    else:
        options = options.with_query_type(HudiQueryType.Snapshot)
        if as_of is not None:
            options = options.with_as_of_timestamp(as_of)
    return normalize_arrow(table.read(options))


def scan_metric(df: Any, name: str) -> int:
    """The value of the scan's Spark UI metric ``name`` once ``df`` has run."""
    plan = df._jdf.queryExecution().executedPlan()
    if plan.nodeName() == "AdaptiveSparkPlan":
        plan = plan.finalPhysicalPlan()
    leaves = plan.collectLeaves()
    for i in range(leaves.size()):
        metrics = leaves.apply(i).metrics()
        if metrics.contains(name):
            return int(metrics.apply(name).value())
    raise AssertionError(f"no {name} metric in {plan}")


def spark_rows(df: Any) -> List[Dict[str, Any]]:
    """A DataFrame collected into expected-JSON dicts."""
    return normalize_rows(df.collect(), df.schema)


def data_files(path: Path) -> Set[str]:
    """Base and log files of a table, relative to it."""
    return {
        str(p.relative_to(path))
        for p in path.rglob("*")
        if p.is_file()
        and ".hoodie" not in p.relative_to(path).parts
        and (p.name.endswith(".parquet") or ".log." in p.name)
    }


def timeline_files(path: Path) -> List[str]:
    """Names of the files directly in ``<path>/.hoodie/`` (instant state files and the rest)."""
    hoodie = Path(path) / ".hoodie"
    return sorted(p.name for p in hoodie.iterdir() if p.is_file()) if hoodie.is_dir() else []


def completed_instants(path: Path) -> List[Tuple[str, str]]:
    """Completed write instants ``[(instant, action), ...]``, oldest first, from file names."""
    out = []
    for name in timeline_files(path):
        stem, _, action = name.partition(".")
        if stem.isdigit() and action in COMPLETED_WRITE_ACTIONS:
            out.append((stem, action))
    return sorted(out)


def pending_instants(path: Path) -> List[str]:
    """Write instants that have a requested or inflight file but no completed file."""
    completed = {i for i, _ in completed_instants(path)}
    pending = set()
    for name in timeline_files(path):
        stem, _, rest = name.partition(".")
        if (
            stem.isdigit()
            and stem not in completed
            and (rest == "inflight" or rest.endswith(".requested") or rest.endswith(".inflight"))
            and rest.split(".")[0] in COMPLETED_WRITE_ACTIONS + ("inflight",)
        ):
            pending.add(stem)
    return sorted(pending)
