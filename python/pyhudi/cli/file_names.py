# SPDX-License-Identifier: Apache-2.0
"""Hudi's data file names (hudi-format.md §4.1, §4.2).

Base file: ``<fileId>_<writeToken>_<instant>.parquet``. Log file:
``.<fileId>_<baseInstant>.log.<version>_<writeToken>``; in table version 6 the instant is the base
instant of the slice the log belongs to.
"""

import re
from dataclasses import dataclass
from typing import Optional, Tuple

BASE_FILE_EXTENSION = ".parquet"
_LOG_PATTERN = re.compile(r"^\.(.+)_(.*)\.(log|archive)\.(\d+)(_((\d+)-(\d+)-(\d+))(\.cdc)?)?$")


@dataclass(frozen=True)
class BaseFileName:
    file_id: str
    write_token: str
    instant: str


@dataclass(frozen=True)
class LogFileName:
    file_id: str
    base_instant: str
    version: int
    write_token: str

    @property
    def order(self) -> Tuple[str, int, str]:
        """Apache Hudi's log order: base instant, version, write token."""
        return self.base_instant, self.version, self.write_token


def parse_base_file(name: str) -> Optional[BaseFileName]:
    """The parts of a base file name; None when the name does not follow the grammar."""
    if name.startswith(".") or not name.endswith(BASE_FILE_EXTENSION):
        return None
    parts = name[: -len(BASE_FILE_EXTENSION)].split("_")
    if len(parts) != 3 or not all(parts) or not parts[2].isdigit():
        return None
    return BaseFileName(parts[0], parts[1], parts[2])


def parse_log_file(name: str) -> Optional[LogFileName]:
    """The parts of a (non-CDC) log file name; None for other names."""
    m = _LOG_PATTERN.match(name)
    if m is None or m.group(3) != "log" or m.group(10) is not None:
        return None
    return LogFileName(m.group(1), m.group(2), int(m.group(4)), m.group(6) or "")
