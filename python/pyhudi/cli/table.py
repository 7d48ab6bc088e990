# SPDX-License-Identifier: Apache-2.0
"""A Hudi table as the CLI sees it: its base path and ``hoodie.properties`` (table config)."""

import importlib
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Dict, Tuple

HOODIE_FOLDER = ".hoodie"
PROPERTIES_FILE = "hoodie.properties"
SMALL_FILE_LIMIT_KEY = "hoodie.parquet.small.file.limit"
DEFAULT_SMALL_FILE_LIMIT = 104857600


class CliError(Exception):
    """A problem that stops a command before it has anything to show (exit code 2)."""


def optional_module(name: str) -> ModuleType:
    """Imports ``pyarrow``/``fastavro`` modules on first use, so that ``import pyhudi`` never needs them."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        top = name.split(".")[0]
        raise CliError(f"the pyhudi command needs the Python package {top} ({e}); install it with pip") from e


def parse_properties(text: str) -> Dict[str, str]:
    """Parses Java ``Properties.store`` text: comments, ``key=value`` or ``key:value``, backslash escapes."""
    props: Dict[str, str] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].lstrip()
        i += 1
        if not line or line[0] in "#!":
            continue
        # A line ending in an odd number of backslashes continues on the next one.
        while (len(line) - len(line.rstrip("\\"))) % 2 == 1 and i < len(lines):
            line = line[:-1] + lines[i].lstrip()
            i += 1
        key, value = _split_entry(line)
        props[_unescape(key)] = _unescape(value)
    return props


def _split_entry(line: str) -> Tuple[str, str]:
    escaped = False
    for at, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in "=:" or ch.isspace():
            rest = line[at + 1 :].lstrip()
            if ch.isspace() and rest[:1] in ("=", ":"):
                rest = rest[1:].lstrip()
            return line[:at], rest
    return line, ""


def _unescape(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "u" and i + 6 <= len(text):
                out.append(chr(int(text[i + 2 : i + 6], 16)))
                i += 6
                continue
            out.append({"t": "\t", "n": "\n", "r": "\r", "f": "\f"}.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class HudiTable:
    """An opened table: its base path (no trailing slash) and its table config."""

    base_path: str
    properties: Dict[str, str]

    @property
    def hoodie_path(self) -> str:
        return os.path.join(self.base_path, HOODIE_FOLDER)

    @property
    def name(self) -> str:
        return self.properties.get("hoodie.table.name", os.path.basename(self.base_path))

    @property
    def table_type(self) -> str:
        return self.properties.get("hoodie.table.type", "COPY_ON_WRITE")

    @property
    def small_file_limit(self) -> int:
        """``hoodie.parquet.small.file.limit`` from the table config, else Hudi's default (100 MB)."""
        raw = self.properties.get(SMALL_FILE_LIMIT_KEY, "").strip()
        try:
            return int(raw) if raw else DEFAULT_SMALL_FILE_LIMIT
        except ValueError as e:
            raise CliError(f"{PROPERTIES_FILE}: {SMALL_FILE_LIMIT_KEY}={raw!r} is not a number") from e

    def relative(self, path: str) -> str:
        """``path`` relative to the base path (for messages)."""
        return os.path.relpath(path, self.base_path)


def open_table(path: str) -> HudiTable:
    """Opens the table at ``path``; a folder without ``.hoodie/hoodie.properties`` is not a table."""
    base = os.path.abspath(path.rstrip("/") or "/")
    props_path = os.path.join(base, HOODIE_FOLDER, PROPERTIES_FILE)
    if not os.path.isdir(base):
        raise CliError(f"{path}: no such folder")
    if not os.path.isfile(props_path):
        raise CliError(f"{path} is not a Hudi table: {HOODIE_FOLDER}/{PROPERTIES_FILE} is missing")
    with open(props_path, encoding="utf-8", errors="replace") as f:
        props = parse_properties(f.read())
    return HudiTable(base, props)
