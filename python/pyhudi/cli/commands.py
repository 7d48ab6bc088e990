# SPDX-License-Identifier: Apache-2.0
"""The CLI's commands. Each returns a JSON-ready document and the text shown to people."""

import json
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from pyhudi.cli import formatting as fmt
from pyhudi.cli.archived import ArchivedEntry, archive_files, archived_entries
from pyhudi.cli.file_groups import FileGroup, FileSlice, build_view
from pyhudi.cli.instant_metadata import CommitMetadata, InstantContent, index_lookup, read_instant
from pyhudi.cli.partitions import DataFile, list_partitions
from pyhudi.cli.table import CliError, HudiTable, optional_module
from pyhudi.cli.timeline import CLEAN, COMPACTION, RESTORE, ROLLBACK, SAVEPOINT, Instant, load_timeline
from pyhudi.cli.validate import validate

Output = Tuple[Dict[str, Any], str]


def _commit_totals(commit: Optional[CommitMetadata]) -> Dict[str, Any]:
    if commit is None:
        return {"records_written": None, "records_updated": None, "records_deleted": None, "files": None, "bytes": None}
    stats = commit.written_stats
    return {
        "records_written": sum(s.num_writes for s in stats),
        "records_updated": sum(s.num_updates for s in stats),
        "records_deleted": sum(s.num_deletes for s in stats),
        "files": len(stats),
        "bytes": sum(s.write_bytes for s in stats),
    }


def _note(instant: Instant, content: InstantContent) -> Optional[str]:
    """A short description of what a non-write instant did (or a replacecommit replaced)."""
    rec = content.record or {}
    action = instant.requested_action
    if content.commit is not None:
        replaced = sum(len(ids) for ids in content.commit.replaced_file_ids.values())
        return f"replaced {replaced} file groups" if replaced else None
    if action == ROLLBACK:
        targets = rec.get("commitsRollback") or [(rec.get("instantToRollback") or {}).get("commitTime", "?")]
        return "rolled back " + ", ".join(str(t) for t in targets)
    if action == CLEAN:
        if "totalFilesDeleted" in rec:
            return f"deleted {rec['totalFilesDeleted']} files, retaining from {rec.get('earliestCommitToRetain')}"
        return "clean planned"
    if action == SAVEPOINT:
        return f"by {rec.get('savepointedBy')}: {rec.get('comments')}" if rec else None
    if action == RESTORE:
        restored = [i.get("commitTime") if isinstance(i, dict) else i for i in rec.get("instantsToRollback") or []]
        return "restore rolling back " + ", ".join(str(i) for i in restored) if restored else None
    if action == COMPACTION and not instant.is_completed:
        return f"plans {len(rec.get('operations') or [])} file slices"
    return None


def _archived_rows(table: HudiTable) -> List[Dict[str, Any]]:
    """One row per archived instant, in its most advanced archived state, oldest first."""
    rank = {"REQUESTED": 0, "INFLIGHT": 1, "COMPLETED": 2}
    latest: Dict[Tuple[str, bool], ArchivedEntry] = {}
    for e in archived_entries(table):
        key = (e.time, e.action == SAVEPOINT)
        if key not in latest or rank.get(e.state, -1) >= rank.get(latest[key].state, -1):
            latest[key] = e
    rows = []
    for (time, _), e in sorted(latest.items()):
        content = e.content or {}
        rows.append(
            {
                "instant": time,
                "action": e.action,
                "requested_action": e.action,
                "state": e.state.lower(),
                "completed_at": None,
                "modified_at": None,
                "operation": content.get("operationType"),
                **_archived_totals(content),
                "note": f"archived in {e.file}",
                "archived": True,
            }
        )
    return rows


def _archived_totals(content: Dict[str, Any]) -> Dict[str, Any]:
    stats = [s for ss in (content.get("partitionToWriteStats") or {}).values() for s in ss or []]
    if not stats:
        return _commit_totals(None)
    return {
        "records_written": sum(s.get("numWrites") or 0 for s in stats),
        "records_updated": sum(s.get("numUpdateWrites") or 0 for s in stats),
        "records_deleted": sum(s.get("numDeletes") or 0 for s in stats),
        "files": len(stats),
        "bytes": sum(s.get("totalWriteBytes") or 0 for s in stats),
    }


def timeline_command(table: HudiTable, archived: bool = False) -> Output:
    """The active timeline's instants; with ``archived`` the archived ones first (hudi-format.md §2.6)."""
    timeline = load_timeline(table)
    rows: List[Dict[str, Any]] = _archived_rows(table) if archived else []
    for instant in timeline.instants:
        content = read_instant(instant)
        commit = content.commit if instant.is_completed else None
        operation = content.commit.operation if content.commit is not None else None
        if instant.requested_action == COMPACTION and operation is None:
            operation = "COMPACT"
        rows.append(
            {
                "instant": instant.time,
                "action": instant.action,
                "requested_action": instant.requested_action,
                "state": instant.state,
                "completed_at": fmt.iso_time(instant.completed_at),
                "modified_at": fmt.iso_time(instant.latest_file.mtime),
                "operation": operation,
                **_commit_totals(commit),
                "note": _note(instant, content),
                "archived": False,
            }
        )
    headers = ["instant", "action", "state", "completed_at", "operation", "written", "updated", "deleted", "files"]
    headers += ["bytes", "note"]
    text_rows = [
        [
            r["instant"],
            r["action"] if r["action"] == r["requested_action"] else f"{r['action']} ({r['requested_action']})",
            r["state"],
            r["completed_at"],
            r["operation"],
            r["records_written"],
            r["records_updated"],
            r["records_deleted"],
            r["files"],
            fmt.human_bytes(r["bytes"]) if r["bytes"] is not None else None,
            r["note"],
        ]
        for r in rows
    ]
    numeric = ("written", "updated", "deleted", "files", "bytes")
    text = fmt.table(headers, text_rows, numeric) if rows else "(no instants on the active timeline)"
    if not archived and archive_files(table):
        text += "\n(older instants are archived: pyhudi timeline --archived lists them too)"
    return {"table": table.base_path, "instants": rows}, text


def _avro_rows(action: str, rec: Dict[str, Any]) -> List[Dict[str, Any]]:
    """(partition, file, role, size) rows of an Avro instant record."""
    out: List[Dict[str, Any]] = []

    def add(partition: Any, file: Any, role: str, size: Any = None) -> None:
        out.append({"partition": partition or "", "file": os.path.basename(str(file)), "role": role, "size": size})

    if action in (ROLLBACK, CLEAN):
        for partition, meta in (rec.get("partitionMetadata") or {}).items():
            for f in meta.get("successDeleteFiles") or []:
                add(partition, f, "deleted")
            for f in meta.get("failedDeleteFiles") or []:
                add(partition, f, "delete failed")
            for f, size in (meta.get("rollbackLogFiles") or {}).items():
                add(partition, f, "rollback log", size)
            for f, size in (meta.get("logFilesFromFailedCommit") or {}).items():
                add(partition, f, "log of rolled-back write", size)
        for req in rec.get("RollbackRequests") or []:
            for f in req.get("filesToBeDeleted") or []:
                add(req.get("partitionPath"), f, "to delete")
            for f, size in (req.get("logBlocksToBeDeleted") or {}).items():
                add(req.get("partitionPath"), f, "log to roll back", size)
        for partition, infos in (rec.get("filePathsToBeDeletedPerPartition") or {}).items():
            for info in infos or []:
                add(partition, info.get("filePath"), "to delete")
    elif action == SAVEPOINT:
        for partition, meta in (rec.get("partitionMetadata") or {}).items():
            for f in meta.get("savepointDataFile") or []:
                add(partition, f, "savepointed")
    elif action == COMPACTION:
        for op in rec.get("operations") or []:
            if op.get("dataFilePath"):
                add(op.get("partitionPath"), op["dataFilePath"], "base to compact")
            for f in op.get("deltaFilePaths") or []:
                add(op.get("partitionPath"), f, "log to compact")
    elif action == RESTORE:
        for instant, metas in (rec.get("hoodieRestoreMetadata") or {}).items():
            for meta in metas or []:
                for row in _avro_rows(ROLLBACK, meta):
                    out.append({**row, "role": f"{row['role']} (rollback of {instant})"})
    return out


def show_command(table: HudiTable, time: str) -> Output:
    timeline = load_timeline(table)
    instant = timeline.get(time)
    if instant is None:
        raise CliError(f"instant {time} is not on the active timeline of {table.base_path}")
    content = read_instant(instant)
    doc: Dict[str, Any] = {
        "instant": instant.time,
        "action": instant.action,
        "requested_action": instant.requested_action,
        "state": instant.state,
        "file": content.state_file.path if content.state_file else None,
        "completed_at": fmt.iso_time(instant.completed_at),
    }
    header: List[Tuple[str, Any]] = [(k, v) for k, v in doc.items()]
    if content.commit is not None:
        commit = content.commit
        doc.update(
            {
                "operation": commit.operation,
                "compacted": commit.compacted,
                **_commit_totals(commit),
                "partitions": _partitions_of(commit),
                "replaced_file_ids": commit.replaced_file_ids,
                "extra_metadata_keys": sorted(commit.extra),
            }
        )
        header += [("operation", commit.operation), ("compacted", commit.compacted)]
        lookup = index_lookup(commit.extra)
        doc["index_lookup"] = lookup
        if lookup:
            header.append(("index_lookup", _lookup_line(lookup)))
        stats = commit.write_stats  # pending instants: the workload profile (no paths yet)
        headers = ["partition", "file_id", "file", "prev_commit", "written", "updated", "inserted", "deleted", "bytes"]
        rows = [
            [
                s.partition or "(none)",
                s.file_id or "(new)",
                s.file_name,
                s.prev_commit,
                s.num_writes,
                s.num_updates,
                s.num_inserts,
                s.num_deletes,
                fmt.human_bytes(s.write_bytes),
            ]
            for s in sorted(stats, key=lambda s: (s.partition, s.file_id, s.file_name or ""))
        ]
        text = fmt.key_values(header) + "\n\n"
        text += (
            fmt.table(headers, rows, ("written", "updated", "inserted", "deleted", "bytes")) if rows else "(no files)"
        )
        replaced = [[p, i] for p, ids in sorted(commit.replaced_file_ids.items()) for i in ids]
        if replaced:
            text += "\n\nreplaced file groups:\n" + fmt.table(["partition", "file_id"], replaced)
        return doc, text
    rec = content.record or {}
    rows_doc = _avro_rows(instant.requested_action, rec)
    doc["record"] = rec
    doc["files"] = rows_doc
    note = _note(instant, content)
    if note:
        header.append(("note", note))
    text = fmt.key_values(header) + "\n\n"
    table_rows = [[r["partition"] or "(none)", r["file"], r["role"], r["size"]] for r in rows_doc]
    text += fmt.table(["partition", "file", "role", "size"], table_rows, ("size",)) if table_rows else "(no files)"
    return doc, text


def _lookup_line(lookup: Dict[str, Any]) -> str:
    n = {k: f"{v:,}" for k, v in lookup.items() if isinstance(v, int)}
    line = (
        f"{lookup['index_type']} in {lookup['lookup_ms'] / 1000:.2f} s; files: {n['files_indexed']} indexed, "
        f"{n['files_in_range']} in key range, {n['files_probed']} probed, {n['files_matched']} holding the keys; "
        f"{n['keys_read']} stored keys read"
    )
    if lookup["bloom_checks"]:
        line += f", {n['bloom_checks']} bloom checks ({n['bloom_positives']} positive)"
    return line + f"; {n['records_found']} records found"


def _partitions_of(commit: CommitMetadata) -> Dict[str, List[Dict[str, Any]]]:
    out: Dict[str, List[Dict[str, Any]]] = {}
    for s in commit.write_stats:
        out.setdefault(s.partition, []).append(s.to_json())
    return out


def _file_json(f: Optional[DataFile]) -> Optional[Dict[str, Any]]:
    return None if f is None else {"name": f.name, "size": f.size}


def _slice_json(s: FileSlice, state: str) -> Dict[str, Any]:
    return {
        "base_instant": s.base_instant,
        "state": state,
        "base_file": _file_json(s.base_file),
        "log_files": [_file_json(lg) for lg in s.log_files],
    }


def _shown_slices(group: FileGroup, all_slices: bool) -> List[Tuple[FileSlice, str]]:
    latest = group.latest
    out = []
    for s in group.slices:
        if s.pending_compaction:
            out.append((s, "pending compaction"))
        elif s is latest:
            out.append((s, "replaced" if group.replaced else "latest"))
        elif all_slices:
            out.append((s, "older"))
    return out


def file_groups_command(table: HudiTable, partition: Optional[str], all_slices: bool, include_replaced: bool) -> Output:
    timeline = load_timeline(table)
    view = build_view(timeline, list_partitions(table.base_path), include_replaced)
    groups = [g for g in view.groups if partition is None or g.partition == partition.strip("/")]
    doc_groups = []
    rows: List[List[Any]] = []
    for g in groups:
        shown = _shown_slices(g, all_slices)
        doc_groups.append(
            {
                "partition": g.partition,
                "file_id": g.file_id,
                "replaced": g.replaced,
                "slices": [_slice_json(s, state) for s, state in shown],
            }
        )
        first = True
        for s, state in shown:
            files: List[Tuple[str, Optional[int]]] = [
                (s.base_file.name, s.base_file.size) if s.base_file else ("(no base file)", None)
            ]
            files += [(lg.name, lg.size) for lg in s.log_files]
            for n, (name, size) in enumerate(files):
                head = [g.partition or "(none)", g.file_id] if first else ["", ""]
                head += [s.base_instant, state] if n == 0 else ["", ""]
                rows.append(head + [name, size])
                first = False
    doc = {"table": table.base_path, "as_of": view.as_of, "file_groups": doc_groups}
    headers = ["partition", "file_id", "slice", "state", "file", "size"]
    text = fmt.table(headers, rows, ("size",)) + "\n\n" if rows else ""
    partitions = len({g.partition for g in groups})
    text += f"{_count(len(groups), 'file group')} in {_count(partitions, 'partition')}"
    text += f" as of {view.as_of or '(no completed write)'}"
    return doc, text


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _row_count(path: str) -> int:
    pq = optional_module("pyarrow.parquet")
    try:
        return int(pq.read_metadata(path).num_rows)
    except Exception as e:  # a damaged footer: say which file
        raise CliError(f"{path}: parquet footer does not read ({e})") from e


def stats_command(table: HudiTable) -> Output:
    timeline = load_timeline(table)
    view = build_view(timeline, list_partitions(table.base_path))
    limit = table.small_file_limit
    per: Dict[str, Dict[str, Any]] = {}
    for g in view.groups:
        p = per.setdefault(
            g.partition,
            {"file_groups": 0, "base_files": 0, "base_bytes": 0, "log_files": 0, "log_bytes": 0, "records": 0},
        )
        p.setdefault("small_files", 0)
        p["file_groups"] += 1
        slices = [s for s in [g.latest] if s is not None] + g.pending
        for s in slices:
            if s.base_file is not None:
                p["base_files"] += 1
                p["base_bytes"] += s.base_file.size
                p["records"] += _row_count(s.base_file.path)
                if s.base_file.size < limit:
                    p["small_files"] += 1
            p["log_files"] += len(s.log_files)
            p["log_bytes"] += s.log_bytes
    keys = ("file_groups", "base_files", "base_bytes", "log_files", "log_bytes", "records", "small_files")
    total: Dict[str, Any] = {k: sum(p[k] for p in per.values()) for k in keys}
    for entry in list(per.values()) + [total]:
        entry["log_base_ratio"] = round(entry["log_bytes"] / entry["base_bytes"], 4) if entry["base_bytes"] else None
    partitions = [{"partition": name, **per[name]} for name in sorted(per)]
    doc = {
        "table": table.base_path,
        "table_type": table.table_type,
        "as_of": view.as_of,
        "small_file_limit": limit,
        "partitions": partitions,
        "total": total,
    }
    headers = ["partition", "file_groups", "base_files", "base_bytes", "log_files", "log_bytes", "records"]
    headers += ["log/base", "small_files"]

    def row(name: str, e: Dict[str, Any]) -> List[Any]:
        return [
            name,
            e["file_groups"],
            e["base_files"],
            fmt.human_bytes(e["base_bytes"]),
            e["log_files"],
            fmt.human_bytes(e["log_bytes"]),
            e["records"],
            e["log_base_ratio"],
            e["small_files"],
        ]

    rows = [row(p["partition"] or "(none)", p) for p in partitions] + [row("(total)", total)]
    numeric = headers[1:]
    text = fmt.table(headers, rows, numeric)
    text += f"\n\nas of {view.as_of or '(no completed write)'}; small files: base files below {fmt.human_bytes(limit)}"
    text += f" ({limit} bytes); records: row counts of the latest base files' footers"
    return doc, text


def _epoch_iso(value: Any) -> Optional[str]:
    if not isinstance(value, int):
        return None
    return fmt.iso_time(value / 1000 if value > 10**11 else value)


def _savepoint_label(comments: Any) -> Dict[str, Any]:
    """pyhudi's named savepoints keep ``{"name", "expiresAt", "comment"}`` as JSON in ``comments``."""
    if isinstance(comments, str) and comments.strip().startswith("{"):
        try:
            doc = json.loads(comments)
        except ValueError:
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("name"), str):
            return {"name": doc["name"], "expires_at": doc.get("expiresAt"), "comment": doc.get("comment")}
    return {"name": None, "expires_at": None, "comment": comments or None}


def savepoints_command(table: HudiTable) -> Output:
    timeline = load_timeline(table)
    out = []
    for instant in timeline.instants:
        if instant.requested_action != SAVEPOINT:
            continue
        rec = read_instant(instant).record or {}
        partitions = rec.get("partitionMetadata") or {}
        label = _savepoint_label(rec.get("comments"))
        out.append(
            {
                "instant": instant.time,
                "state": instant.state,
                "name": label["name"],
                "expires_at": label["expires_at"],
                "expires_at_iso": _epoch_iso(label["expires_at"]),
                "comment": label["comment"],
                "savepointed_by": rec.get("savepointedBy"),
                "savepointed_at": rec.get("savepointedAt"),
                "savepointed_at_iso": _epoch_iso(rec.get("savepointedAt")),
                "comments": rec.get("comments"),
                "partitions": len(partitions),
                "files": sum(len(m.get("savepointDataFile") or []) for m in partitions.values()),
            }
        )
    doc = {"table": table.base_path, "savepoints": out}
    if not out:
        return doc, "(no savepoints)"
    headers = [
        "instant",
        "state",
        "name",
        "expires",
        "savepointed_by",
        "savepointed_at",
        "comments",
        "partitions",
        "files",
    ]
    rows: Sequence[Sequence[Any]] = [
        [
            s["instant"],
            s["state"],
            s["name"],
            s["expires_at_iso"],
            s["savepointed_by"],
            s["savepointed_at_iso"],
            s["comment"],
            s["partitions"],
            s["files"],
        ]
        for s in out
    ]
    return doc, fmt.table(headers, rows, ("partitions", "files"))


def validate_command(table: HudiTable) -> Tuple[Dict[str, Any], str, bool]:
    result = validate(table)
    if result.problem is None:
        checked = ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in result.checked.items())
        return {"table": table.base_path, "ok": True, "checked": result.checked}, f"ok ({checked})", True
    doc = {"table": table.base_path, "ok": False, **result.problem.to_json(), "checked": result.checked}
    return doc, f"{result.problem.file}: {result.problem.message} [{result.problem.check}]", False
