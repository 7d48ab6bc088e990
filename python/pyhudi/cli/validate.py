# SPDX-License-Identifier: Apache-2.0
"""``pyhudi validate``: checks a table's files against its timeline and their own framing.

Checks, in order, stopping at the first problem:

1. ``timeline``: every instant state file that carries content decodes (JSON commit metadata,
   Avro plans and metadata).
2. ``missing-file``: every file the latest slice of a file group should hold according to the
   completed instants' write stats exists (older slices may have been cleaned; replaced groups
   are not served), and so does every file a pending compaction plan names.
3. ``orphan-file``: every Hudi-named data file belongs to an instant that is on the active timeline
   (completed or pending) or older than its start, and sits in a partition folder.
4. ``log-block``: every log file is a sequence of well-framed blocks (magic, sizes, header, content).
5. ``bloom-filter``: every committed base file's parquet footer reads, and its bloom filter (and
   key range) contains every record key of the file.
"""

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, NoReturn, Optional, Set, Tuple

from pyhudi.cli import bloom_filter
from pyhudi.cli.file_groups import FileGroupId, commit_metadata, replaced_file_groups
from pyhudi.cli.file_names import parse_base_file, parse_log_file
from pyhudi.cli.instant_metadata import MetadataError, read_compaction_plan, read_instant
from pyhudi.cli.log_file import read_blocks
from pyhudi.cli.partitions import DataFile, Listing, list_partitions
from pyhudi.cli.table import HudiTable, optional_module
from pyhudi.cli.timeline import COMPACTION, Timeline, load_timeline

RECORD_KEY_COLUMN = "_hoodie_record_key"


@dataclass
class Problem:
    check: str
    file: str
    message: str

    def to_json(self) -> Dict[str, Any]:
        return {"check": self.check, "file": self.file, "problem": self.message}


@dataclass
class Validation:
    """The first problem found (None when the table is valid) and what was checked."""

    problem: Optional[Problem] = None
    checked: Dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.problem is None


class _Found(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _fail(check: str, file: str, message: str) -> NoReturn:
    raise _Found(Problem(check, file, message))


def validate(table: HudiTable) -> Validation:
    """Runs every check; the result names the first problem."""
    result = Validation()
    try:
        timeline = load_timeline(table)
        _check_timeline(timeline, result)
        listing = list_partitions(table.base_path)
        _check_missing(table, timeline, listing, result)
        _check_orphans(timeline, listing, result)
        _check_logs(listing, result)
        _check_base_files(timeline, listing, result)
    except _Found as found:
        result.problem = found.problem
    return result


def _check_timeline(timeline: Timeline, result: Validation) -> None:
    for instant in timeline.instants:
        try:
            read_instant(instant)
            if instant.requested_action == COMPACTION:
                read_compaction_plan(instant)
        except MetadataError as e:
            _fail("timeline", e.path, e.problem)
    result.checked["instants"] = len(timeline.instants)


def _check_missing(table: HudiTable, timeline: Timeline, listing: Listing, result: Validation) -> None:
    latest = timeline.latest_completed_write
    listed: Dict[str, Set[str]] = {p: {f.name for f in files} for p, files in listing.partitions.items()}

    def absent(partition: str, name: str) -> bool:
        return name not in listed.get(partition, set())

    def where(partition: str, name: str) -> str:
        return os.path.join(table.base_path, partition, name) if partition else os.path.join(table.base_path, name)

    if latest is not None:
        as_of = latest.time
        replaced = replaced_file_groups(timeline, as_of)
        # Newest base file per group named by write stats, and every log file with its writer.
        bases: Dict[FileGroupId, Tuple[str, str, str]] = {}  # gid -> (name, base instant, writer)
        logs: Dict[Tuple[FileGroupId, str], Tuple[str, str]] = {}  # (gid, name) -> (base instant, writer)
        for instant in timeline.completed_writes:
            for stat in commit_metadata(timeline, instant.time).written_stats:
                name = stat.file_name or ""
                gid = (stat.partition, stat.file_id)
                if not stat.file_id or gid in replaced:
                    continue
                base = parse_base_file(name)
                log = parse_log_file(name)
                if base is not None and (gid not in bases or bases[gid][1] <= base.instant):
                    bases[gid] = (name, base.instant, instant.time)
                elif log is not None:
                    logs[(gid, name)] = (log.base_instant, instant.time)
        # A committed base file newer than any named in metadata (archived writer) starts a slice too.
        newest: Dict[FileGroupId, str] = {gid: b[1] for gid, b in bases.items()}
        for f in listing.data_files:
            gid = (f.partition, f.file_id)
            if f.base is not None and timeline.is_committed(f.instant, as_of) and f.instant > newest.get(gid, ""):
                newest[gid] = f.instant
        checked = 0
        for gid, (name, instant_time, writer) in sorted(bases.items()):
            checked += newest[gid] == instant_time
            if newest[gid] == instant_time and absent(gid[0], name):
                _fail(
                    "missing-file",
                    where(gid[0], name),
                    f"base file of the latest slice of file group {gid[1]} (written by {writer}) does not exist",
                )
        for (gid, name), (base_instant, writer) in sorted(logs.items()):
            checked += base_instant >= newest.get(gid, "")
            if base_instant >= newest.get(gid, "") and absent(gid[0], name):
                _fail(
                    "missing-file",
                    where(gid[0], name),
                    f"log file of the latest slice of file group {gid[1]} (written by {writer}) does not exist",
                )
        result.checked["latest_slice_files"] = checked
    for instant in timeline.pending_compactions:
        for op in read_compaction_plan(instant).get("operations") or []:
            partition = op.get("partitionPath") or ""
            for name in [op.get("dataFilePath")] + list(op.get("deltaFilePaths") or []):
                if name and absent(partition, os.path.basename(name)):
                    _fail(
                        "missing-file",
                        where(partition, os.path.basename(name)),
                        f"named by the plan of pending compaction {instant.time} but does not exist",
                    )


def _check_orphans(timeline: Timeline, listing: Listing, result: Validation) -> None:
    for f in listing.stray:
        _fail("orphan-file", f.path, "Hudi-named data file in a folder that is not a partition (a leftover of a write)")
    for f in listing.data_files:
        if not timeline.is_known(f.instant):
            kind = "base file" if f.base is not None else "log file of base instant"
            _fail(
                "orphan-file",
                f.path,
                f"orphan {kind} {f.instant}: that instant is neither on the active timeline "
                "(completed or pending) nor older than its start",
            )
    result.checked["data_files"] = len(listing.data_files)


def _check_logs(listing: Listing, result: Validation) -> None:
    blocks = 0
    logs = [f for f in listing.data_files if f.log is not None]
    for f in logs:
        with open(f.path, "rb") as fh:
            data = fh.read()
        if not data:
            _fail("log-block", f.path, "empty log file")
        for block in read_blocks(data):
            if block.problem is not None:
                _fail("log-block", f.path, block.problem)
            blocks += 1
    result.checked["log_files"] = len(logs)
    result.checked["log_blocks"] = blocks


def _footer(path: str) -> Tuple[Any, Dict[str, str]]:
    pq = optional_module("pyarrow.parquet")
    try:
        meta = pq.read_metadata(path)
    except Exception as e:  # pyarrow raises ArrowInvalid/OSError for damaged files
        _fail("bloom-filter", path, f"parquet footer does not read ({e})")
    kv = {k.decode("utf-8", "replace"): v.decode("utf-8", "replace") for k, v in (meta.metadata or {}).items()}
    return meta, kv


def _check_base_files(timeline: Timeline, listing: Listing, result: Validation) -> None:
    filters = 0
    bases: List[DataFile] = [f for f in listing.data_files if f.base is not None and timeline.is_committed(f.instant)]
    for f in bases:
        meta, kv = _footer(f.path)
        serialized = kv.get(bloom_filter.BLOOM_FILTER_KEY) or kv.get(bloom_filter.LEGACY_BLOOM_FILTER_KEY)
        if serialized is None:
            continue
        try:
            bloom = bloom_filter.decode(serialized, kv.get(bloom_filter.TYPE_CODE_KEY))
        except bloom_filter.BloomFilterError as e:
            _fail("bloom-filter", f.path, f"bloom filter in the footer does not decode: {e}")
        if RECORD_KEY_COLUMN not in meta.schema.names:
            _fail("bloom-filter", f.path, f"has a bloom filter but no {RECORD_KEY_COLUMN} column")
        pq = optional_module("pyarrow.parquet")
        keys = pq.read_table(f.path, columns=[RECORD_KEY_COLUMN]).column(0).to_pylist()
        low, high = kv.get(bloom_filter.MIN_RECORD_KEY), kv.get(bloom_filter.MAX_RECORD_KEY)
        for key in keys:
            if key is None:
                continue
            if not bloom.might_contain(key):
                _fail("bloom-filter", f.path, f"bloom filter does not contain record key {key!r} of the file")
            if (low is not None and key < low) or (high is not None and key > high):
                _fail("bloom-filter", f.path, f"record key {key!r} is outside the footer's key range [{low}, {high}]")
        filters += 1
    result.checked["base_files"] = len(bases)
    result.checked["bloom_filters"] = filters
