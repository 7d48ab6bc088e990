# SPDX-License-Identifier: Apache-2.0
"""Partition folders and the data files in them, found by walking the base path.

A folder is a partition when it holds ``.hoodie_partition_metadata`` (Apache Hudi's rule) or
Hudi-named data files. Hidden folders (``.hoodie``) are skipped. Below an underscore folder other
than ``__HIVE_DEFAULT_PARTITION__`` (Spark's ``_temporary``) only the metafile makes a partition;
Hudi-named files found there anyway are reported as stray files.
"""

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from pyhudi.cli.file_names import BaseFileName, LogFileName, parse_base_file, parse_log_file

PARTITION_METAFILE = ".hoodie_partition_metadata"
DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__"


@dataclass(frozen=True)
class DataFile:
    """A listed base or log file: its path, its partition (relative, "" for the base path), size."""

    path: str
    partition: str
    size: int
    base: Optional[BaseFileName] = None
    log: Optional[LogFileName] = None

    @property
    def name(self) -> str:
        return os.path.basename(self.path)

    @property
    def file_id(self) -> str:
        return self.base.file_id if self.base is not None else self.log.file_id if self.log is not None else ""

    @property
    def instant(self) -> str:
        """The instant in the name: the writer's for base files, the slice's base instant for logs."""
        return self.base.instant if self.base is not None else self.log.base_instant if self.log is not None else ""


@dataclass
class Listing:
    """Data files per partition, plus Hudi-named files in folders that are not partitions."""

    partitions: Dict[str, List[DataFile]] = field(default_factory=dict)
    stray: List[DataFile] = field(default_factory=list)

    @property
    def data_files(self) -> List[DataFile]:
        return [f for files in self.partitions.values() for f in files]


def _data_file(path: str, partition: str, size: int) -> Optional[DataFile]:
    name = os.path.basename(path)
    base = parse_base_file(name)
    if base is not None:
        return DataFile(path, partition, size, base=base)
    log = parse_log_file(name)
    if log is not None:
        return DataFile(path, partition, size, log=log)
    return None


def list_partitions(base_path: str) -> Listing:
    """Walks ``base_path`` (skipping hidden folders) and returns its partitions' data files."""
    listing = Listing()

    def walk(folder: str, rel: str, metafile_only: bool) -> None:
        files: List[DataFile] = []
        has_metafile = False
        subfolders: List[str] = []
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.name.startswith("."):
                        subfolders.append(entry.name)
                elif entry.is_file():
                    if entry.name.startswith(PARTITION_METAFILE):
                        has_metafile = True
                    data = _data_file(entry.path, rel, entry.stat().st_size)
                    if data is not None:
                        files.append(data)
        if has_metafile or (files and not metafile_only):
            listing.partitions[rel] = sorted(files, key=lambda f: f.name)
        else:
            listing.stray.extend(files)
        for name in sorted(subfolders):
            scratch = name.startswith("_") and name != DEFAULT_PARTITION
            walk(os.path.join(folder, name), f"{rel}/{name}" if rel else name, metafile_only or scratch)

    walk(base_path, "", False)
    return listing
