# SPDX-License-Identifier: Apache-2.0
"""File groups and file slices: the file-system view as of one instant (hudi-format.md §4.3, §4.4).

A file group is every file with one file id in one partition; a file slice is a base file plus the
log files named after its instant. The view keeps base files of committed instants only, folds
each log into the newest slice whose base instant is not after the log's, drops groups retired by
completed replacecommits, and adds a base-less slice for each pending compaction of a group (logs
written against the compaction instant go there), as Apache Hudi's view does.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from pyhudi.cli.instant_metadata import CommitMetadata, read_compaction_plan, read_instant
from pyhudi.cli.partitions import DataFile, Listing
from pyhudi.cli.timeline import REPLACECOMMIT, Timeline

FileGroupId = Tuple[str, str]  # (partition, file id)


@dataclass
class FileSlice:
    """A base file (None for a log-only or pending-compaction slice) and its logs, oldest first."""

    base_instant: str
    base_file: Optional[DataFile]
    log_files: List[DataFile]
    pending_compaction: bool = False

    @property
    def log_bytes(self) -> int:
        return sum(f.size for f in self.log_files)


@dataclass
class FileGroup:
    partition: str
    file_id: str
    slices: List[FileSlice] = field(default_factory=list)
    replaced: bool = False

    @property
    def latest(self) -> Optional[FileSlice]:
        """The newest slice a snapshot reads (pending compaction slices are not readable yet)."""
        committed = [s for s in self.slices if not s.pending_compaction]
        return committed[-1] if committed else None

    @property
    def pending(self) -> List[FileSlice]:
        return [s for s in self.slices if s.pending_compaction]


def commit_metadata(timeline: Timeline, time: str) -> CommitMetadata:
    instant = timeline.get(time)
    content = read_instant(instant) if instant is not None else None
    return content.commit if content is not None and content.commit is not None else CommitMetadata()


def replaced_file_groups(timeline: Timeline, as_of: str) -> Set[FileGroupId]:
    """File groups retired by replacecommits completed at or before ``as_of``."""
    out: Set[FileGroupId] = set()
    for instant in timeline.completed_writes:
        if instant.action == REPLACECOMMIT and instant.time <= as_of:
            for partition, ids in commit_metadata(timeline, instant.time).replaced_file_ids.items():
                out.update((partition, i) for i in ids)
    return out


def pending_compaction_groups(timeline: Timeline) -> Dict[FileGroupId, List[str]]:
    """File group → instants of the pending compactions that plan to compact it."""
    out: Dict[FileGroupId, List[str]] = {}
    for instant in timeline.pending_compactions:
        for op in read_compaction_plan(instant).get("operations") or []:
            gid = (op.get("partitionPath") or "", op.get("fileId") or "")
            out.setdefault(gid, []).append(instant.time)
    return out


@dataclass
class FileSystemView:
    """Every file group of a listing as of ``as_of`` (None: the table has no completed write)."""

    as_of: Optional[str]
    groups: List[FileGroup]


def build_view(timeline: Timeline, listing: Listing, include_replaced: bool = False) -> FileSystemView:
    """The view as of the latest completed write instant."""
    latest = timeline.latest_completed_write
    if latest is None:
        return FileSystemView(None, [])
    as_of = latest.time
    replaced = replaced_file_groups(timeline, as_of)
    compactions = pending_compaction_groups(timeline)
    groups: List[FileGroup] = []
    for partition in sorted(listing.partitions):
        files = listing.partitions[partition]
        bases = [f for f in files if f.base is not None and timeline.is_committed(f.instant, as_of)]
        logs = [f for f in files if f.log is not None]
        for file_id in sorted({f.file_id for f in bases} | {f.file_id for f in logs}):
            gid = (partition, file_id)
            if gid in replaced and not include_replaced:
                continue
            group = _group(
                partition,
                file_id,
                [b for b in bases if b.file_id == file_id],
                [lg for lg in logs if lg.file_id == file_id],
                compactions.get(gid, []),
                as_of,
            )
            if group is not None:
                group.replaced = gid in replaced
                groups.append(group)
    return FileSystemView(as_of, groups)


def _group(
    partition: str, file_id: str, bases: List[DataFile], logs: List[DataFile], pending: List[str], as_of: str
) -> Optional[FileGroup]:
    # Two attempts of one task can leave two base files for one instant; keep the last name.
    base_by_instant: Dict[str, DataFile] = {}
    for b in sorted(bases, key=lambda f: f.name):
        base_by_instant[b.instant] = b
    keys = sorted(set(base_by_instant) | set(pending))
    by_slice: Dict[str, List[DataFile]] = {}
    for lg in logs:
        owners = [k for k in keys if k <= lg.instant]
        by_slice.setdefault(owners[-1] if owners else lg.instant, []).append(lg)
    slices = []
    for key in sorted(set(keys) | set(by_slice)):
        is_pending = key in pending and key not in base_by_instant
        if key not in base_by_instant and not is_pending and key > as_of:
            continue
        slice_logs = sorted(by_slice.get(key, []), key=lambda f: f.log.order if f.log else ("", 0, ""))
        slices.append(FileSlice(key, base_by_instant.get(key), slice_logs, is_pending))
    return FileGroup(partition, file_id, slices) if slices else None
