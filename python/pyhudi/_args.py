# SPDX-License-Identifier: Apache-2.0
"""Argument checks shared by :mod:`pyhudi.reader` and :mod:`pyhudi.writer`."""

import os
from typing import Any, Dict, Mapping, Optional, Union

OptionValue = Union[str, bool, int, float]
"""A value PySpark's ``.options(...)`` turns into an option string."""


def user_options(options: Optional[Mapping[str, OptionValue]]) -> Dict[str, OptionValue]:
    """A checked copy of the caller's raw ``options`` mapping."""
    opts: Dict[str, OptionValue] = {}
    if options is None:
        return opts
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a mapping of str to str, got {type(options)!r}")
    for key, value in options.items():
        if not isinstance(key, str):
            raise TypeError(f"option keys must be str, got {key!r}")
        if not isinstance(value, (str, bool, int, float)):
            raise TypeError(f"option {key} must be a str, bool, int or float, got {value!r}")
        opts[key] = value
    return opts


def put(opts: Dict[str, OptionValue], key: str, value: str) -> None:
    """Set ``key`` unless ``options`` already holds a different value for it."""
    previous = opts.get(key)
    if previous is not None and option_string(previous) != value:
        raise ValueError(
            f"option {key} given twice with different values: {previous!r} in options and {value!r} as an argument"
        )
    opts[key] = value


def option_string(value: OptionValue) -> str:
    """The string Spark receives for an option value (PySpark lower-cases booleans)."""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def path_value(path: Any) -> str:
    if isinstance(path, (str, os.PathLike)):
        value = os.fspath(path)
        if isinstance(value, str):
            return value
    raise TypeError(f"path must be a str or os.PathLike[str], got {type(path)!r}")
