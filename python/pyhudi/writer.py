# SPDX-License-Identifier: Apache-2.0
"""Typed entry point for writing a DataFrame into a Hudi table."""

import os
from enum import Enum
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Union

from pyhudi._args import OptionValue, path_value, put, user_options
from pyhudi.errors import translated
from pyhudi.options import (
    INDEX_TYPE,
    OPERATION,
    PARTITIONPATH_FIELD,
    PRECOMBINE_FIELD,
    RECORDKEY_FIELD,
    TABLE_NAME,
    TABLE_TYPE,
    IndexType,
    TableType,
    WriteOperation,
)

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["write", "Columns", "SAVE_MODES"]

Columns = Union[str, Sequence[str]]
"""One column name, a comma-separated list of names, or a sequence of names."""

SAVE_MODES = ("append", "overwrite", "ignore", "error", "errorifexists")
"""Spark save modes accepted by :func:`write` (case-insensitive)."""

_FORMAT = "pyhudi"


def write(
    df: "DataFrame",
    path: Union[str, "os.PathLike[str]"],
    *,
    table_name: Optional[str] = None,
    record_key: Optional[Columns] = None,
    partition_by: Optional[Columns] = None,
    precombine: Optional[str] = None,
    operation: Optional[Union[WriteOperation, str]] = None,
    index_type: Optional[Union[IndexType, str]] = None,
    table_type: Optional[Union[TableType, str]] = None,
    mode: str = "append",
    options: Optional[Mapping[str, OptionValue]] = None,
) -> None:
    """Write ``df`` into the Hudi table at ``path`` as one commit.

    The same as ``df.write.format("pyhudi").options(...).mode(mode).save(path)`` with the
    arguments turned into Hudi write options. Only argument types are checked here; the
    connector validates values (unknown operations, missing columns, null keys...) and
    commits nothing when it rejects a write.

    :param df: the rows to write.
    :param path: base path of the table (the folder that holds ``.hoodie/``).
    :param table_name: ``hoodie.table.name``; required when the write creates the table.
    :param record_key: record key column(s); several give complex keys ``f1:v1,f2:v2``.
    :param partition_by: partition column(s); an empty string or list gives a
        non-partitioned table. Absent: the table's, or non-partitioned for a new table.
    :param precombine: ordering column (of two records with one key in a batch the larger
        value wins); defaults to ``ts`` when ``df`` has such a column.
    :param operation: ``upsert`` (default), ``insert``, ``bulk_insert``, ``delete``,
        ``insert_overwrite``, ``insert_overwrite_table`` or ``delete_partition``.
    :param index_type: ``BLOOM`` (default), ``SIMPLE``, ``GLOBAL_BLOOM``, ``GLOBAL_SIMPLE``
        or ``BUCKET``.
    :param table_type: ``COPY_ON_WRITE`` (default) or ``MERGE_ON_READ``; used when the write
        creates the table.
    :param mode: Spark save mode: ``append`` (default here: write into the table, creating
        it if absent), ``overwrite`` (replace all data of an existing table as a new
        replacecommit), ``ignore`` (do nothing if a table exists), ``error`` /
        ``errorifexists`` (create; fail if a table exists).
    :param options: further writer options (raw ``hoodie.*`` keys), passed through.
    :raises TypeError: for an argument of the wrong type.
    :raises ValueError: for an unknown save mode, an empty column name, or an option given
        both in ``options`` and as an argument with different values.

    Examples::

        pyhudi.write(df, "/data/trips", table_name="trips", record_key="uuid",
                     partition_by="city", precombine="ts")                      # upsert
        pyhudi.write(df, "/data/trips", operation=WriteOperation.BULK_INSERT,
                     record_key=["id", "name"], partition_by=["year", "month"],
                     options={"hoodie.datasource.write.hive_style_partitioning": True})
        pyhudi.write(deletes, "/data/trips", operation="delete")
    """
    opts: Dict[str, OptionValue] = user_options(options)
    if table_name is not None:
        put(opts, TABLE_NAME, _name_value("table_name", table_name))
    if record_key is not None:
        put(opts, RECORDKEY_FIELD, _columns_value("record_key", record_key, allow_empty=False))
    if partition_by is not None:
        put(opts, PARTITIONPATH_FIELD, _columns_value("partition_by", partition_by, allow_empty=True))
    if precombine is not None:
        put(opts, PRECOMBINE_FIELD, _name_value("precombine", precombine))
    for key, name, value, enum in (
        (OPERATION, "operation", operation, WriteOperation),
        (INDEX_TYPE, "index_type", index_type, IndexType),
        (TABLE_TYPE, "table_type", table_type, TableType),
    ):
        if value is not None:
            put(opts, key, _enum_value(name, value, enum))

    target = path_value(path)
    save_mode = _mode_value(mode)
    with translated():
        df.write.format(_FORMAT).options(**opts).mode(save_mode).save(target)


def _name_value(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value)!r}")
    if not value.strip():
        raise ValueError(f"{name} must not be empty")
    return value


def _columns_value(name: str, value: Any, allow_empty: bool) -> str:
    """A comma-separated option string from one name, a comma list, or a sequence of names."""
    if isinstance(value, str):
        columns: List[str] = [c.strip() for c in value.split(",")] if value.strip() else []
    elif isinstance(value, Sequence) and all(isinstance(c, str) for c in value):
        columns = [c.strip() for c in value]
    else:
        raise TypeError(f"{name} must be a str or a sequence of str, got {value!r}")
    if any(not c for c in columns):
        raise ValueError(f"{name} has an empty column name: {value!r}")
    if any("," in c for c in columns) and not isinstance(value, str):
        raise ValueError(f"{name}: column names must not contain ',': {value!r}")
    if not columns and not allow_empty:
        raise ValueError(f"{name} must name at least one column")
    return ",".join(columns)


def _enum_value(name: str, value: Any, enum: Any) -> str:
    if isinstance(value, enum):
        return str(value.value)
    if isinstance(value, str) and not isinstance(value, Enum):  # not another option's enum
        return value
    raise TypeError(f"{name} must be a {enum.__name__} or str, got {type(value)!r}")


def _mode_value(mode: Any) -> str:
    if not isinstance(mode, str):
        raise TypeError(f"mode must be a str, got {type(mode)!r}")
    if mode.lower() not in SAVE_MODES:
        raise ValueError(f"mode must be one of {', '.join(SAVE_MODES)}; got {mode!r}")
    return mode.lower()
