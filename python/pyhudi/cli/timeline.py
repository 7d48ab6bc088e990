# SPDX-License-Identifier: Apache-2.0
"""The active timeline (layout version 1): the instant state files directly in ``.hoodie/``.

``<T>.<action>`` is completed, ``<T>.<action>.requested`` / ``.inflight`` pending; a commit's
inflight file is ``<T>.inflight``. A compaction completes as ``<T>.commit`` (hudi-format.md §2.2).
"""

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from pyhudi.cli.table import HudiTable

REQUESTED = "requested"
INFLIGHT = "inflight"
COMPLETED = "completed"
_STATE_RANK = {REQUESTED: 0, INFLIGHT: 1, COMPLETED: 2}

COMMIT = "commit"
DELTACOMMIT = "deltacommit"
REPLACECOMMIT = "replacecommit"
COMPACTION = "compaction"
LOGCOMPACTION = "logcompaction"
ROLLBACK = "rollback"
CLEAN = "clean"
SAVEPOINT = "savepoint"
RESTORE = "restore"
INDEXING = "indexing"
ACTIONS = frozenset(
    {COMMIT, DELTACOMMIT, REPLACECOMMIT, COMPACTION, LOGCOMPACTION, ROLLBACK, CLEAN, SAVEPOINT, RESTORE, INDEXING}
)
#: Actions whose completed file publishes data files.
WRITE_ACTIONS = frozenset({COMMIT, DELTACOMMIT, REPLACECOMMIT})
#: Actions that write data files while pending.
DATA_ACTIONS = WRITE_ACTIONS | {COMPACTION, LOGCOMPACTION}


def is_instant_time(text: str) -> bool:
    """17-digit ``yyyyMMddHHmmssSSS`` or, for old tables, 14-digit ``yyyyMMddHHmmss``."""
    return len(text) in (14, 17) and text.isdigit()


@dataclass(frozen=True)
class StateFile:
    """One instant state file: which action and state it records, its path, size and mtime."""

    instant: str
    action: str
    state: str
    path: str
    size: int
    mtime: float


def parse_state_file_name(name: str) -> Optional[Tuple[str, str, str]]:
    """``(instant, action, state)`` of a timeline file name, None for other files in ``.hoodie/``."""
    parts = name.split(".")
    if not parts or not is_instant_time(parts[0]):
        return None
    if len(parts) == 2 and parts[1] == INFLIGHT:
        return parts[0], COMMIT, INFLIGHT
    if len(parts) == 2 and parts[1] in ACTIONS:
        return parts[0], parts[1], COMPLETED
    if len(parts) == 3 and parts[1] in ACTIONS and parts[2] in (REQUESTED, INFLIGHT):
        return parts[0], parts[1], parts[2]
    return None


@dataclass
class Instant:
    """One instant time with every state file it has; ``action``/``state`` are the most advanced.

    A completed compaction has ``action == "commit"`` and ``requested_action == "compaction"``.
    """

    time: str
    files: List[StateFile] = field(default_factory=list)

    @property
    def latest_file(self) -> StateFile:
        return max(self.files, key=lambda f: _STATE_RANK[f.state])

    @property
    def action(self) -> str:
        return self.latest_file.action

    @property
    def state(self) -> str:
        return self.latest_file.state

    @property
    def requested_action(self) -> str:
        """The action the instant was requested as (``compaction`` for a completed compaction)."""
        return min(self.files, key=lambda f: _STATE_RANK[f.state]).action

    @property
    def is_completed(self) -> bool:
        return self.state == COMPLETED

    @property
    def completed_at(self) -> Optional[float]:
        """Modification time of the completed file (table version 6 names carry no completion time)."""
        return self.latest_file.mtime if self.is_completed else None

    def file(self, state: str) -> Optional[StateFile]:
        return next((f for f in self.files if f.state == state), None)


class Timeline:
    """The instants of the active timeline, oldest first."""

    def __init__(self, instants: Sequence[Instant]) -> None:
        # A savepoint shares the time of the instant it savepoints: it sorts after it, and
        # ``get`` finds the savepointed instant.
        self.instants: List[Instant] = sorted(instants, key=lambda i: (i.time, i.action == SAVEPOINT))
        self._by_time: Dict[str, Instant] = {}
        for i in self.instants:
            self._by_time.setdefault(i.time, i)

    def get(self, time: str) -> Optional[Instant]:
        return self._by_time.get(time)

    @property
    def completed_writes(self) -> List[Instant]:
        """Completed commit, deltacommit and replacecommit instants (compactions included)."""
        return [i for i in self.instants if i.is_completed and i.action in WRITE_ACTIONS]

    @property
    def pending_compactions(self) -> List[Instant]:
        return [i for i in self.instants if not i.is_completed and i.action == COMPACTION]

    @property
    def latest_completed_write(self) -> Optional[Instant]:
        writes = self.completed_writes
        return writes[-1] if writes else None

    @property
    def archival_boundary(self) -> Optional[str]:
        """The oldest data-writing instant still active, in any state; older data files were archived."""
        return next(
            (i.time for i in self.instants if i.action in DATA_ACTIONS or i.requested_action in DATA_ACTIONS), None
        )

    def is_committed(self, time: str, as_of: Optional[str] = None) -> bool:
        """Data written at ``time`` is visible: a completed write, or older than the active timeline."""
        if as_of is not None and time > as_of:
            return False
        instant = self._by_time.get(time)
        if instant is not None:
            return instant.is_completed and instant.action in WRITE_ACTIONS
        boundary = self.archival_boundary
        return boundary is not None and time < boundary

    def is_known(self, time: str) -> bool:
        """``time`` is an instant of the active timeline (any state) or older than its start."""
        if time in self._by_time:
            return True
        boundary = self.archival_boundary
        return boundary is not None and time < boundary


def load_timeline(table: HudiTable) -> Timeline:
    """Lists ``.hoodie/`` and groups the state files by instant time (a savepoint apart, as Hudi
    names ``<T>.savepoint`` after the savepointed ``<T>``)."""
    by_time: Dict[Tuple[str, bool], Instant] = {}
    with os.scandir(table.hoodie_path) as entries:
        for entry in entries:
            if not entry.is_file():
                continue
            parsed = parse_state_file_name(entry.name)
            if parsed is None:
                continue
            time, action, state = parsed
            stat = entry.stat()
            by_time.setdefault((time, action == SAVEPOINT), Instant(time)).files.append(
                StateFile(time, action, state, entry.path, stat.st_size, stat.st_mtime)
            )
    return Timeline(list(by_time.values()))
