# SPDX-License-Identifier: Apache-2.0
"""Output: aligned text tables for people, JSON for programs."""

import datetime as dt
import json
from typing import IO, Any, List, Optional, Sequence


def human_bytes(n: Optional[int]) -> str:
    """``1234567`` → ``1.2 MB`` (decimal units, as file listings show them)."""
    if n is None:
        return "-"
    size = float(n)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size < 1000 or unit == "TB":
            return f"{int(size)} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{n} B"


def iso_time(epoch_seconds: Optional[float]) -> Optional[str]:
    """A file modification time as ISO-8601 UTC with milliseconds."""
    if epoch_seconds is None:
        return None
    stamp = dt.datetime.fromtimestamp(epoch_seconds, tz=dt.timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"


def cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], numeric: Sequence[str] = ()) -> str:
    """An aligned table: columns named in ``numeric`` are right-aligned, the others left-aligned."""
    text: List[List[str]] = [list(headers)] + [[cell(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in text) for i in range(len(headers))]
    right = [h in numeric for h in headers]
    lines = []
    for n, r in enumerate(text):
        parts = [c.rjust(w) if rt else c.ljust(w) for c, w, rt in zip(r, widths, right)]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def key_values(pairs: Sequence[Sequence[Any]]) -> str:
    """``key: value`` lines with the values aligned."""
    if not pairs:
        return ""
    width = max(len(str(k)) for k, _ in pairs)
    return "\n".join(f"{str(k) + ':':<{width + 1}} {cell(v)}" for k, v in pairs)


def write_json(out: IO[str], doc: Any) -> None:
    json.dump(doc, out, indent=2, sort_keys=False)
    out.write("\n")
