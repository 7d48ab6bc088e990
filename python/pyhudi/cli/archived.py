# SPDX-License-Identifier: Apache-2.0
"""The archived timeline (layout 1, hudi-format.md §2.6): ``HoodieArchivedMetaEntry`` records in the
AVRO_DATA blocks of ``.commits_.archive.<N>_<token>`` log files under ``.hoodie/archived/`` (or the
table's ``hoodie.archivelog.folder``), one record per archived state file of an instant."""

import io
import json
import os
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from pyhudi.cli.log_file import avro_record_bytes, read_blocks
from pyhudi.cli.table import HudiTable, optional_module

ARCHIVE_FOLDER_KEY = "hoodie.archivelog.folder"
_FILE = re.compile(r"^\.commits_\.archive\.(\d+)(_.*)?$")
#: The entry field holding each action's content (the first non-null one is taken).
_CONTENT_FIELDS = (
    "hoodieCommitMetadata",
    "hoodieReplaceCommitMetadata",
    "hoodieCleanMetadata",
    "hoodieRollbackMetadata",
    "hoodieSavePointMetadata",
    "hoodieCompactionPlan",
    "hoodieCleanerPlan",
    "hoodieRequestedReplaceMetadata",
    "HoodieInflightReplaceMetadata",
)


@dataclass
class ArchivedEntry:
    """One archived state file: instant time, action, Hudi's state name and its content record."""

    time: str
    action: str
    state: str
    content: Optional[Dict[str, Any]]
    file: str


def archive_folder(table: HudiTable) -> str:
    return os.path.join(table.hoodie_path, table.properties.get(ARCHIVE_FOLDER_KEY, "").strip() or "archived")


def archive_files(table: HudiTable) -> List[str]:
    """The archive files, by version."""
    folder = archive_folder(table)
    if not os.path.isdir(folder):
        return []
    found = [(int(m.group(1)), name) for name in os.listdir(folder) if (m := _FILE.match(name))]
    return [os.path.join(folder, name) for _, name in sorted(found)]


def archived_entries(table: HudiTable) -> List[ArchivedEntry]:
    """Every entry of every archive file, in file and block order; corrupt blocks are skipped."""
    fastavro = optional_module("fastavro")
    entries: List[ArchivedEntry] = []
    for path in archive_files(table):
        with open(path, "rb") as f:
            data = f.read()
        for block in read_blocks(data):
            records = avro_record_bytes(data, block)
            if not records:
                continue
            schema = fastavro.parse_schema(json.loads(block.header["SCHEMA"]))
            for raw in records:
                rec = fastavro.schemaless_reader(io.BytesIO(raw), schema)
                content = next((rec[k] for k in _CONTENT_FIELDS if rec.get(k) is not None), None)
                entries.append(
                    ArchivedEntry(
                        str(rec.get("commitTime")),
                        str(rec.get("actionType")),
                        str(rec.get("actionState")),
                        content,
                        os.path.basename(path),
                    )
                )
    return entries
