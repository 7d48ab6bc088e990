# SPDX-License-Identifier: Apache-2.0
"""Bad writes fail with messages naming the problem and commit nothing.

After every refused write: no new completed instant, the table reads exactly as before
(pyhudi and hudi-rs), and a first write leaves no table behind. For writes into an existing
table, a valid write afterwards still succeeds and reads correctly.

Every refusal is asserted by pyhudi's error class and stable error id (``pyhudi.errors.translated()``
maps what PySpark raises back to those classes), and on the message only for the column, option or
value it must name.
"""

import re
import shutil
from pathlib import Path
from typing import Any, Dict, Sequence, Type

import harness
import pytest
import write_support as ws
from pyspark.sql.types import (
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
)

from pyhudi import errors

SCHEMA = StructType(
    [
        StructField("rk", StringType()),
        StructField("pp", StringType()),
        StructField("ord", LongType()),
        StructField("amount", IntegerType()),
    ]
)
ROWS = [(f"r{i}", "x" if i % 2 else "y", 10 + i, i * 100) for i in range(6)]
OPTIONS = {
    "hoodie.table.name": "errs",
    "hoodie.datasource.write.recordkey.field": "rk",
    "hoodie.datasource.write.partitionpath.field": "pp",
    "hoodie.datasource.write.precombine.field": "ord",
}
VALID_OPERATIONS = (
    "upsert",
    "insert",
    "bulk_insert",
    "delete",
    "insert_overwrite",
    "insert_overwrite_table",
    "delete_partition",
)
VALID_INDEXES = ("BLOOM", "SIMPLE", "GLOBAL_BLOOM", "GLOBAL_SIMPLE", "BUCKET")


def _save(
    spark: Any,
    rows: Sequence[Any],
    path: Path,
    options: Dict[str, Any],
    schema: StructType = SCHEMA,
    mode: str = "append",
) -> None:
    spark.createDataFrame(list(rows), schema).write.format("pyhudi").options(**options).mode(mode).save(str(path))


def _error_of(
    spark: Any,
    rows: Sequence[Any],
    path: Path,
    options: Dict[str, Any],
    cls: Type[errors.PyhudiError],
    error_id: str,
    schema: StructType = SCHEMA,
) -> str:
    """The message of the error the write raises, after checking its class and id."""
    with pytest.raises(cls) as info:
        with errors.translated():
            _save(spark, rows, path, options, schema)
    assert info.value.error_id == error_id, info.value.message[:3000]
    return info.value.message


def _assert_mentions(message: str, *patterns: str) -> None:
    for pattern in patterns:
        assert re.search(pattern, message), f"{pattern!r} not found in error:\n{message[:3000]}"


def _assert_no_table(path: Path) -> None:
    assert not (path / ".hoodie").exists(), f"a refused first write left {path / '.hoodie'} behind"
    leftovers = [str(p) for p in path.rglob("*.parquet")] if path.exists() else []
    assert not leftovers, f"a refused first write left data files: {leftovers}"


def _state(spark: Any, path: Path) -> Dict[str, Any]:
    return {
        "instants": harness.completed_instants(path),
        "pyhudi": sorted(map(harness.canonical_json, ws.pyhudi_rows(spark, path))),
        "hudi-rs": sorted(map(harness.canonical_json, harness.hudi_rs_read(path))),
    }


def _assert_unchanged(spark: Any, path: Path, before: Dict[str, Any], context: str) -> None:
    after = _state(spark, path)
    assert after["instants"] == before["instants"], (
        f"{context}: timeline changed {before['instants']} -> {after['instants']}"
    )
    assert after["pyhudi"] == before["pyhudi"], f"{context}: pyhudi snapshot changed"
    assert after["hudi-rs"] == before["hudi-rs"], f"{context}: hudi-rs snapshot changed"


def _assert_next_write_works(spark: Any, path: Path, context: str) -> None:
    """A valid upsert after the refused write commits and reads correctly."""
    before = harness.completed_instants(path)
    rows_before = ws.pyhudi_rows(spark, path)
    _save(spark, [("r0", "y", 99, -1), ("new", "z", 1, 7)], path, OPTIONS)
    instant = ws.new_instant(path, before, "commit", f"{context}: valid write after the error")
    expected = {
        r["_hoodie_record_key"]: {c: r[c] for c in ("rk", "pp", "ord", "amount", "_hoodie_commit_time")}
        for r in rows_before
    }
    expected["r0"] = {"rk": "r0", "pp": "y", "ord": 99, "amount": -1, "_hoodie_commit_time": instant}
    expected["new"] = {"rk": "new", "pp": "z", "ord": 1, "amount": 7, "_hoodie_commit_time": instant}
    read = ws.assert_readers_agree(spark, path, context)
    ws.assert_same(
        ws.project(read, ["rk", "pp", "ord", "amount", "_hoodie_commit_time"]), list(expected.values()), context
    )


@pytest.fixture(scope="module")
def base_table(spark, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("errors") / "base"
    _save(spark, ROWS, path, OPTIONS)
    return path


@pytest.fixture
def existing(base_table, tmp_path) -> Path:
    """A fresh copy of a committed table (key rk, partition pp, precombine ord)."""
    target = tmp_path / "existing"
    shutil.copytree(base_table, target)
    return target


# --------------------------------------------------------------------------------------------
# Bad input rows


@pytest.mark.parametrize("operation", ["upsert", "insert", "bulk_insert"])
@pytest.mark.parametrize("bad_key,what", [(None, r"(?i)null"), ("", r"(?i)empty")], ids=["null-key", "empty-key"])
def test_bad_record_key_in_first_write(spark, tmp_path, operation, bad_key, what):
    path = tmp_path / "new"
    rows = ROWS + [(bad_key, "x", 1, 1)]
    message = _error_of(
        spark,
        rows,
        path,
        {**OPTIONS, "hoodie.datasource.write.operation": operation},
        errors.InvalidRecordError,
        "NULL_OR_EMPTY_RECORD_KEY",
    )
    _assert_mentions(message, what, r"\brk\b")
    _assert_no_table(path)


@pytest.mark.parametrize("operation", ["upsert", "insert", "bulk_insert", "delete"])
@pytest.mark.parametrize("bad_key,what", [(None, r"(?i)null"), ("", r"(?i)empty")], ids=["null-key", "empty-key"])
def test_bad_record_key_into_existing_table(spark, existing, operation, bad_key, what):
    before = _state(spark, existing)
    rows = [("r1", "x", 50, 5), (bad_key, "x", 51, 6)]
    message = _error_of(
        spark,
        rows,
        existing,
        {**OPTIONS, "hoodie.datasource.write.operation": operation},
        errors.InvalidRecordError,
        "NULL_OR_EMPTY_RECORD_KEY",
    )
    _assert_mentions(message, what, r"\brk\b")
    _assert_unchanged(spark, existing, before, f"{operation} with a {what} key")
    _assert_next_write_works(spark, existing, f"{operation} with a {what} key")


# --------------------------------------------------------------------------------------------
# Missing columns

MISSING = {
    "record key": ("hoodie.datasource.write.recordkey.field", "no_such_key", "KEY_FIELD_NOT_FOUND"),
    "partition path": ("hoodie.datasource.write.partitionpath.field", "no_such_part", "KEY_FIELD_NOT_FOUND"),
    "precombine": ("hoodie.datasource.write.precombine.field", "no_such_ord", "COLUMN_NOT_FOUND"),
}


@pytest.mark.parametrize("what", list(MISSING))
def test_missing_column_in_first_write(spark, tmp_path, what):
    key, column, error_id = MISSING[what]
    path = tmp_path / "new"
    message = _error_of(spark, ROWS, path, {**OPTIONS, key: column}, errors.InvalidOptionError, error_id)
    _assert_mentions(message, re.escape(column))
    _assert_no_table(path)


@pytest.mark.parametrize(
    "column,error_id",
    [
        ("rk", "KEY_FIELD_NOT_FOUND"),
        ("pp", "KEY_FIELD_NOT_FOUND"),
        ("ord", "COLUMN_NOT_FOUND"),
    ],
)
def test_input_without_a_table_column_into_existing_table(spark, existing, column, error_id):
    # The table's key, partition and precombine fields come from hoodie.properties; the input
    # lacks one of them.
    schema = StructType([f for f in SCHEMA.fields if f.name != column])
    index = [f.name for f in SCHEMA.fields].index(column)
    rows = [tuple(v for i, v in enumerate(r) if i != index) for r in ROWS[:2]]
    before = _state(spark, existing)
    message = _error_of(
        spark, rows, existing, {"hoodie.table.name": "errs"}, errors.InvalidOptionError, error_id, schema
    )
    _assert_mentions(message, rf"\b{column}\b")
    _assert_unchanged(spark, existing, before, f"input without {column}")
    _assert_next_write_works(spark, existing, f"input without {column}")


# --------------------------------------------------------------------------------------------
# Types and options


def test_column_type_that_cannot_be_cast(spark, existing):
    schema = StructType([*SCHEMA.fields[:3], StructField("amount", StringType())])
    before = _state(spark, existing)
    message = _error_of(
        spark,
        [("r1", "x", 50, "lots")],
        existing,
        OPTIONS,
        errors.InvalidOptionError,
        "INCOMPATIBLE_COLUMN_TYPE",
        schema,
    )
    _assert_mentions(message, r"\bamount\b", r"(?i)(int|integer)", r"(?i)string")
    _assert_unchanged(spark, existing, before, "string into an int column")
    _assert_next_write_works(spark, existing, "string into an int column")


def test_unknown_operation_lists_valid_values(spark, tmp_path, existing):
    opts = {**OPTIONS, "hoodie.datasource.write.operation": "bogus"}
    path = tmp_path / "new"
    message = _error_of(spark, ROWS, path, opts, errors.InvalidOptionError, "INVALID_OPTION_VALUE")
    _assert_mentions(
        message, r"hoodie\.datasource\.write\.operation", r"\bbogus\b", *(rf"\b{v}\b" for v in VALID_OPERATIONS)
    )
    _assert_no_table(path)

    before = _state(spark, existing)
    message = _error_of(spark, ROWS[:2], existing, opts, errors.InvalidOptionError, "INVALID_OPTION_VALUE")
    _assert_mentions(message, r"hoodie\.datasource\.write\.operation", r"\bbogus\b", r"\bupsert\b")
    _assert_unchanged(spark, existing, before, "operation=bogus")


def test_unknown_index_type(spark, tmp_path, existing):
    opts = {**OPTIONS, "hoodie.index.type": "BOGUS_INDEX"}
    path = tmp_path / "new"
    message = _error_of(spark, ROWS, path, opts, errors.InvalidOptionError, "INVALID_OPTION_VALUE")
    _assert_mentions(message, r"hoodie\.index\.type", r"BOGUS_INDEX", *(rf"\b{v}\b" for v in VALID_INDEXES))
    _assert_no_table(path)

    before = _state(spark, existing)
    message = _error_of(spark, ROWS[:2], existing, opts, errors.InvalidOptionError, "INVALID_OPTION_VALUE")
    _assert_mentions(message, r"hoodie\.index\.type", r"BOGUS_INDEX")
    _assert_unchanged(spark, existing, before, "index.type=BOGUS_INDEX")


def test_record_key_conflicting_with_the_table(spark, existing):
    before = _state(spark, existing)
    opts = {**OPTIONS, "hoodie.datasource.write.recordkey.field": "amount"}
    message = _error_of(spark, ROWS[:2], existing, opts, errors.InvalidOptionError, "CONFLICTING_TABLE_CONFIG")
    _assert_mentions(message, r"hoodie\.datasource\.write\.recordkey\.field", r"\bamount\b", r"\brk\b")
    _assert_unchanged(spark, existing, before, "record key amount vs rk")
    _assert_next_write_works(spark, existing, "record key amount vs rk")


# docs/writing.md, "Not yet supported": these fail on create rather than write something else.
UNSUPPORTED = {
    "no meta fields": (
        {"hoodie.populate.meta.fields": "false"},
        "UNSUPPORTED_WRITE",
        [r"hoodie\.populate\.meta\.fields"],
    ),
    "custom key generator": (
        {"hoodie.datasource.write.keygenerator.class": "com.example.NoSuchKeyGenerator"},
        "INVALID_OPTION_VALUE",
        [r"com\.example\.NoSuchKeyGenerator", r"ComplexKeyGenerator"],
    ),
}


@pytest.mark.parametrize("what", list(UNSUPPORTED))
def test_unsupported_feature_on_create(spark, tmp_path, what):
    extra, error_id, patterns = UNSUPPORTED[what]
    path = tmp_path / "unsupported"
    message = _error_of(spark, ROWS, path, {**OPTIONS, **extra}, errors.InvalidOptionError, error_id)
    _assert_mentions(message, *patterns)
    _assert_no_table(path)


def test_missing_table_name_on_create(spark, tmp_path):
    path = tmp_path / "noname"
    opts = {k: v for k, v in OPTIONS.items() if k != "hoodie.table.name"}
    message = _error_of(spark, ROWS, path, opts, errors.InvalidOptionError, "MISSING_OPTION")
    _assert_mentions(message, r"hoodie\.table\.name")
    _assert_no_table(path)
