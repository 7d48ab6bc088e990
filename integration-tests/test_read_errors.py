# SPDX-License-Identifier: Apache-2.0
"""Bad tables and bad options fail with pyhudi's error classes and stable error ids, and messages
that name the path, option or value at fault.

PySpark wraps JVM exceptions in several classes; ``pyhudi.errors.translated()`` maps them back to
pyhudi's Python classes, so the tests assert on class and ``error_id``, and on the message only
for the value it must name.
"""

import re
from pathlib import Path
from typing import Callable, Dict, Type

import harness
import pytest

from pyhudi import errors
from pyhudi.options import (
    AS_OF_INSTANT,
    BEGIN_INSTANTTIME,
    END_INSTANTTIME,
    QUERY_TYPE,
    QueryType,
)

COW = "cow/v6_simplekeygen_nonhivestyle"
TRIPS = "mor/v6_trips_8i1u"
TRIPS_LOG = "city=san_francisco/.d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0_20250331030642808.log.1_0-26-85"
RIDER_D_KEY = "9909a8b1-2d15-4d3d-8ec9-efc48c536a00"


def _error_of(spark, path: Path, options: Dict[str, str], cls: Type[errors.PyhudiError], error_id: str) -> str:
    """The message of the error raised by reading ``path`` (planning and execution), after checking
    its class and id."""
    with pytest.raises(cls) as info:
        with errors.translated():
            harness.read_table(spark, path, options).collect()
    assert info.value.error_id == error_id, info.value.message[:2000]
    return info.value.message


def _assert_mentions(message: str, *patterns: str) -> None:
    for pattern in patterns:
        assert re.search(pattern, message), f"{pattern!r} not found in error:\n{message[:2000]}"


def test_missing_path(spark, tmp_path):
    path = tmp_path / "no_such_table"
    message = _error_of(spark, path, {}, errors.TableNotFoundError, "PATH_NOT_FOUND")
    _assert_mentions(message, re.escape(str(path)))


def test_folder_that_is_not_a_hudi_table(spark, tmp_path):
    path = tmp_path / "plain_folder"
    path.mkdir()
    (path / "data.txt").write_text("not a table\n")
    message = _error_of(spark, path, {}, errors.TableNotFoundError, "NOT_A_HUDI_TABLE")
    _assert_mentions(message, re.escape(str(path)))


def test_unsupported_table_version(spark, table_copy: Callable[[str], Path]):
    path = table_copy(COW)
    props = path / ".hoodie" / "hoodie.properties"
    text = props.read_text()
    assert "hoodie.table.version=6" in text
    props.write_text(text.replace("hoodie.table.version=6", "hoodie.table.version=5"))
    message = _error_of(spark, path, {}, errors.InvalidTableError, "UNSUPPORTED_TABLE_VERSION")
    # Names the version found and lists the supported one(s).
    _assert_mentions(message, r"\b5\b", r"(?i)support\w*[^\n]*\b6\b")


def test_unknown_query_type(spark, corpus):
    message = _error_of(spark, corpus[COW], {QUERY_TYPE: "bogus"}, errors.InvalidOptionError, "INVALID_OPTION_VALUE")
    _assert_mentions(message, re.escape(QUERY_TYPE), "bogus", *(re.escape(q.value) for q in QueryType))


def test_malformed_as_of_instant(spark, corpus):
    message = _error_of(
        spark, corpus[COW], {AS_OF_INSTANT: "yesterday-ish"}, errors.InvalidOptionError, "INVALID_OPTION_VALUE"
    )
    # Names the option, the value and the accepted formats.
    _assert_mentions(message, re.escape(AS_OF_INSTANT), "yesterday-ish", r"yyyyMMddHHmmss")


def test_incremental_without_begin(spark, corpus):
    message = _error_of(
        spark, corpus[COW], {QUERY_TYPE: QueryType.INCREMENTAL.value}, errors.InvalidOptionError, "MISSING_OPTION"
    )
    _assert_mentions(message, re.escape(BEGIN_INSTANTTIME))


def test_incremental_begin_after_end(spark, corpus):
    first, second = (i for i, _ in harness.load_expected(COW)["completed_instants"])
    options = {
        QUERY_TYPE: QueryType.INCREMENTAL.value,
        BEGIN_INSTANTTIME: second,
        END_INSTANTTIME: first,
    }
    message = _error_of(spark, corpus[COW], options, errors.InvalidOptionError, "INVALID_OPTION_VALUE")
    _assert_mentions(message, second, first, re.escape(BEGIN_INSTANTTIME))


def _truncate_mid_record(log: Path) -> None:
    data = log.read_bytes()
    log.write_bytes(data[:-60])  # ends inside the avro record: the block claims more bytes


def _truncate_mid_header(log: Path) -> None:
    log.write_bytes(log.read_bytes()[:40])  # magic, block size, version, part of the header


def _overwrite_magic(log: Path) -> None:
    data = log.read_bytes()
    assert data[:6] == b"#HUDI#"
    log.write_bytes(b"XXXXXX" + data[6:])


@pytest.mark.parametrize(
    "damage",
    [_truncate_mid_record, _truncate_mid_header, _overwrite_magic],
    ids=["truncated-mid-record", "truncated-mid-header", "bad-magic"],
)
def test_corrupt_log_file_is_skipped_or_named(spark, table_copy, damage):
    path = table_copy(TRIPS)
    log = path / TRIPS_LOG
    assert log.is_file()
    damage(log)
    df = harness.read_table(spark, path, {})
    try:
        rows = df.collect()
    except Exception as e:  # an error is acceptable if it names the damaged file
        _assert_mentions(str(e), re.escape(log.name))
        return
    actual = harness.normalize_rows(rows, df.schema)
    rider_d = [r for r in actual if r.get("_hoodie_record_key") == RIDER_D_KEY]
    assert [r["fare"] for r in rider_d] != ["25.0"], "value from the damaged log block was used"
    # Skipping the block leaves the base files: snapshot == read_optimized.
    expected = harness.load_expected(TRIPS)["read_optimized"]
    harness.assert_rows_equal(actual, expected, df.schema, f"{TRIPS} with {damage.__name__}")


PARQUET_LOG_TABLE = "mor/v6_nonpartitioned"  # log data blocks stored as parquet


def _only_log(path: Path) -> Path:
    (log,) = [p for p in path.iterdir() if ".log." in p.name]
    return log


def test_corrupt_parquet_log_block_names_file_and_offset(spark, table_copy):
    """A well-framed PARQUET_DATA block whose parquet footer is damaged fails as CorruptFileError
    naming the log file and the block's offset (not a bare thrift error)."""
    path = table_copy(PARQUET_LOG_TABLE)
    log = _only_log(path)
    block = log.read_bytes()
    assert block.startswith(b"#HUDI#") and block.count(b"#HUDI#") == 1
    # The file is one block; a second copy of it makes the damaged block start past offset 0.
    end = block.rindex(b"PAR1")  # the parquet file's closing magic
    footer_length = int.from_bytes(block[end - 4 : end], "little")
    footer = end - 4 - footer_length
    assert footer > block.index(b"PAR1") and footer_length > 64
    damaged = bytearray(block)
    damaged[footer + 8 : footer + 48] = bytes(40)  # zeros: thrift stops the struct early
    log.write_bytes(block + bytes(damaged))
    offset = len(block)

    message = _error_of(spark, path, {}, errors.CorruptFileError, "CORRUPT_LOG_BLOCK")
    _assert_mentions(message, re.escape(log.name), rf"offset {offset}\b", "PARQUET_DATA")
