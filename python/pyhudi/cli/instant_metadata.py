# SPDX-License-Identifier: Apache-2.0
"""What an instant's state files hold: commit metadata (JSON) or an Avro record (hudi-format.md §3, §8).

Commit, deltacommit and replacecommit files (completed and inflight) are JSON ``HoodieCommitMetadata``;
an empty file is empty metadata, as in Apache Hudi. Requested replacecommits, compaction plans,
clean, rollback, savepoint and restore files are Avro object containers holding one record, read
with fastavro and the writer schema the file embeds.
"""

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from pyhudi.cli.table import CliError, optional_module
from pyhudi.cli.timeline import (
    COMMIT,
    COMPACTION,
    COMPLETED,
    DELTACOMMIT,
    INFLIGHT,
    REPLACECOMMIT,
    REQUESTED,
    Instant,
    StateFile,
)

AVRO_MAGIC = b"Obj\x01"


class MetadataError(CliError):
    """A state file that does not parse; ``path`` names it."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


@dataclass(frozen=True)
class WriteStat:
    """One written file of a commit (``HoodieWriteStat``; log appends carry ``base_file``/``log_files``)."""

    partition: str
    file_id: str
    path: Optional[str]
    prev_commit: Optional[str]
    num_writes: int
    num_updates: int
    num_inserts: int
    num_deletes: int
    write_bytes: int
    file_size: int
    base_file: Optional[str]
    log_files: List[str]

    @property
    def file_name(self) -> Optional[str]:
        return None if self.path is None else self.path.rsplit("/", 1)[-1]

    def to_json(self) -> Dict[str, Any]:
        return {
            "partition": self.partition,
            "file_id": self.file_id,
            "path": self.path,
            "prev_commit": self.prev_commit,
            "records_written": self.num_writes,
            "records_updated": self.num_updates,
            "records_inserted": self.num_inserts,
            "records_deleted": self.num_deletes,
            "bytes_written": self.write_bytes,
            "file_size": self.file_size,
            "base_file": self.base_file,
            "log_files": self.log_files,
        }


@dataclass
class CommitMetadata:
    """The parts of ``HoodieCommitMetadata`` the CLI shows."""

    write_stats: List[WriteStat] = field(default_factory=list)
    replaced_file_ids: Dict[str, List[str]] = field(default_factory=dict)
    operation: Optional[str] = None
    compacted: bool = False
    extra: Dict[str, str] = field(default_factory=dict)

    @property
    def written_stats(self) -> List[WriteStat]:
        """Stats of files actually written (inflight workload profiles have stats without a path)."""
        return [s for s in self.write_stats if s.path]


# What a pyhudi write's index lookup did, in its commit's extraMetadata (the connector's
# io.pyhudi.index.IndexLookup): figure name -> key. Apache Hudi keeps these keys and never reads them.
INDEX_LOOKUP_TYPE_KEY = "pyhudi.index.type"
INDEX_LOOKUP_KEYS = {
    "lookup_ms": "pyhudi.index.lookup.ms",
    "files_indexed": "pyhudi.index.files.indexed",
    "files_in_range": "pyhudi.index.files.in.range",
    "files_probed": "pyhudi.index.files.probed",
    "files_matched": "pyhudi.index.files.matched",
    "keys_read": "pyhudi.index.keys.read",
    "bloom_checks": "pyhudi.index.bloom.checks",
    "bloom_positives": "pyhudi.index.bloom.positives",
    "records_found": "pyhudi.index.records.found",
}


def index_lookup(extra: Dict[str, str]) -> Optional[Dict[str, Any]]:
    """The index lookup a commit recorded (``index_type`` and the figures of ``INDEX_LOOKUP_KEYS``);
    None when it recorded none or a figure is not a number (the figures are informational)."""
    index_type = extra.get(INDEX_LOOKUP_TYPE_KEY)
    if not index_type:
        return None
    out: Dict[str, Any] = {"index_type": index_type}
    for name, key in INDEX_LOOKUP_KEYS.items():
        try:
            out[name] = int(extra.get(key, "0").strip())
        except ValueError:
            return None
    return out


def _int(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _str(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value not in ("", "null") else None


def parse_commit_metadata(raw: bytes, path: str) -> CommitMetadata:
    """Parses commit metadata JSON; ``path`` names the file in errors."""
    if not raw.strip():
        return CommitMetadata()
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise MetadataError(path, f"commit metadata is not valid JSON ({e})") from e
    if not isinstance(doc, dict):
        raise MetadataError(path, "commit metadata is not a JSON object")
    stats: List[WriteStat] = []
    for partition, entries in (doc.get("partitionToWriteStats") or {}).items():
        for s in entries or []:
            if not isinstance(s, dict):
                raise MetadataError(path, f"a write stat of partition {partition!r} is not an object")
            stats.append(
                WriteStat(
                    partition=_str(s.get("partitionPath")) or str(partition),
                    file_id=s.get("fileId") or "",
                    path=_str(s.get("path")),
                    prev_commit=_str(s.get("prevCommit")),
                    num_writes=_int(s.get("numWrites")),
                    num_updates=_int(s.get("numUpdateWrites")),
                    num_inserts=_int(s.get("numInserts")),
                    num_deletes=_int(s.get("numDeletes")),
                    write_bytes=_int(s.get("totalWriteBytes")),
                    file_size=_int(s.get("fileSizeInBytes")),
                    base_file=_str(s.get("baseFile")),
                    log_files=[f for f in s.get("logFiles") or [] if isinstance(f, str)],
                )
            )
    replaced = {p: [str(i) for i in ids or []] for p, ids in (doc.get("partitionToReplaceFileIds") or {}).items()}
    extra = {str(k): str(v) for k, v in (doc.get("extraMetadata") or {}).items()}
    return CommitMetadata(stats, replaced, _str(doc.get("operationType")), bool(doc.get("compacted")), extra)


def read_avro_record(raw: bytes, path: str) -> Dict[str, Any]:
    """The single record of an Avro object container (an empty file is an empty record)."""
    if not raw:
        return {}
    if not raw.startswith(AVRO_MAGIC):
        raise MetadataError(path, "not an Avro object container file")
    import io

    fastavro = optional_module("fastavro")
    try:
        records = list(fastavro.reader(io.BytesIO(raw)))
    except Exception as e:  # fastavro raises assorted errors on damaged input
        raise MetadataError(path, f"Avro content does not decode ({type(e).__name__}: {e})") from e
    if len(records) != 1 or not isinstance(records[0], dict):
        raise MetadataError(path, f"expected one Avro record, found {len(records)}")
    return records[0]


def _is_json_file(f: StateFile) -> bool:
    """Which state files hold commit metadata JSON (the others are Avro or empty)."""
    if f.action in (COMMIT, DELTACOMMIT):
        # A completed compaction's `T.commit` is JSON; its requested/inflight files are not.
        return f.state != REQUESTED
    if f.action == REPLACECOMMIT:
        return f.state in (INFLIGHT, COMPLETED)
    return False


@dataclass
class InstantContent:
    """Decoded content of an instant's most advanced state file that has content."""

    state_file: Optional[StateFile]
    commit: Optional[CommitMetadata] = None
    record: Optional[Dict[str, Any]] = None


def read_instant(instant: Instant) -> InstantContent:
    """Decodes the most advanced state file of ``instant`` (falling back to earlier non-empty ones).

    A completed compaction reads its ``T.commit``; a pending one its Avro plan. Empty inflight
    files (rollback, compaction) defer to the requested file.
    """
    ordered = sorted(instant.files, key=lambda f: {REQUESTED: 0, INFLIGHT: 1, COMPLETED: 2}[f.state], reverse=True)
    for f in ordered:
        if f.size == 0 and f.state != COMPLETED and f is not ordered[-1]:
            continue
        with open(f.path, "rb") as fh:
            raw = fh.read()
        if _is_json_file(f):
            return InstantContent(f, commit=parse_commit_metadata(raw, f.path))
        if f.action == COMPACTION or raw.startswith(AVRO_MAGIC) or f.size == 0:
            return InstantContent(f, record=read_avro_record(raw, f.path))
        if raw.lstrip().startswith(b"{"):  # JSON where Hudi leaves the file empty: still commit metadata
            return InstantContent(f, commit=parse_commit_metadata(raw, f.path))
        raise MetadataError(f.path, "neither JSON commit metadata nor an Avro container")
    return InstantContent(None)


def read_compaction_plan(instant: Instant) -> Dict[str, Any]:
    """The ``HoodieCompactionPlan`` of a (pending or completed) compaction, {} when it has none."""
    requested = instant.file(REQUESTED)
    if requested is None or requested.action != COMPACTION:
        return {}
    with open(requested.path, "rb") as fh:
        return read_avro_record(fh.read(), requested.path)
