# SPDX-License-Identifier: Apache-2.0
"""Turns the ``results.json`` of ``bench/run.py`` into ``results.md`` and PNG plots, and prints
the ratios. Usage: report.py RESULTS_JSON OUT_DIR (run by run.py in the spark4 environment,
which has matplotlib)."""

import json
import os
import statistics
import sys
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "systems"))

from common import (  # noqa: E402
    DELETE_1,
    FILTER,
    INCREMENTAL,
    LOAD,
    LOAD_ALT,
    MOR_COMPACT,
    MOR_LOAD,
    MOR_SCAN,
    MOR_SCAN_COMPACTED,
    MOR_UPSERT,
    SCALE_LARGE,
    SCALE_SMALL,
    SCAN,
    UPSERT_1_SKEWED,
    UPSERT_1_UNIFORM,
    UPSERT_10_SKEWED,
    UPSERT_10_UNIFORM,
)

WORKLOADS = [
    LOAD,
    LOAD_ALT,
    UPSERT_1_UNIFORM,
    UPSERT_1_SKEWED,
    UPSERT_10_UNIFORM,
    UPSERT_10_SKEWED,
    INCREMENTAL,
    DELETE_1,
    SCAN,
    FILTER,
    MOR_LOAD,
    MOR_UPSERT,
    MOR_SCAN,
    MOR_COMPACT,
    MOR_SCAN_COMPACTED,
    SCALE_SMALL,
    SCALE_LARGE,
]
SYSTEM_ORDER = ["parquet", "pyhudi", "hudi", "delta", "iceberg"]
NAMES = {
    "parquet": "parquet",
    "pyhudi": "pyhudi",
    "hudi": "Apache Hudi",
    "delta": "Delta Lake",
    "iceberg": "Apache Iceberg",
}
SCALE_VARIANT = {"COW 0.1x": "COW", "MOR 0.1x": "MOR", "MOR-mode 0.1x": "MOR-mode"}


def med(xs: List[float]) -> Optional[float]:
    return statistics.median(xs) if xs else None


def x_parquet(times: List[float], floors: List[float]) -> Optional[float]:
    """The median over the runs of each run's time over its parquet floor: a run's step and floor
    are timed in the same stretch of minutes, so the pairing cancels the VM's drift between runs
    (the ratio of the two medians pairs a fast run's step with a slow run's floor). Records
    without a floor per run get the ratio of the medians."""
    if not times or not floors:
        return None
    if len(times) == len(floors):
        return med([t / f for t, f in zip(times, floors)])
    return statistics.median(times) / statistics.median(floors)


def fmt(x: Optional[float], digits: int = 2) -> str:
    return "" if x is None else f"{x:.{digits}f}"


def rows_of(summary: Dict[str, Any]) -> List[Dict[str, Any]]:
    out = []
    for res in summary["systems"]:
        for r in res["records"]:
            if r["workload"] == "error":
                continue
            t = r.get("times") or []
            out.append(
                {
                    "system": r["system"],
                    "variant": r["variant"],
                    "workload": r["workload"],
                    "median": med(t),
                    "min": min(t) if t else None,
                    "max": max(t) if t else None,
                    "x_parquet": x_parquet(t, r.get("floor") or []),
                    "mb": (med(r["bytes"]) / 1e6) if r.get("bytes") else None,
                    "files": med(r["files"]) if r.get("files") else None,
                    "note": note(r),
                    "result": r.get("result"),
                    "label": r.get("label"),
                }
            )
    order = {w: i for i, w in enumerate(WORKLOADS)}
    out.sort(key=lambda r: (order.get(r["workload"], 99), SYSTEM_ORDER.index(r["system"]), r["variant"]))
    return out


def note(r: Dict[str, Any]) -> str:
    parts = []
    if r.get("na"):
        parts.append(f"n/a: {r['na']}")
    if r.get("label"):
        parts.append(r["label"])
    if r.get("pre_instant"):
        parts.append(f"before the instant (key gen, index lookup, planning) {med(r['pre_instant']):.2f}s")
    if r.get("index_lookup_ms"):
        # Recorded by the write itself (history's index_lookup); runs measured before it have none.
        parts.append(
            f"index lookup {med(r['index_lookup_ms']) / 1000:.2f}s; files probed {med(r['files_probed']):.0f} "
            f"of {med(r['files_indexed']):.0f} ({med(r['files_in_range']):.0f} in key range), "
            f"holding the keys {med(r['files_with_keys']):.0f}"
        )
    elif "files_with_keys" in r:
        parts.append(f"files holding the keys {med(r['files_with_keys']):.0f}, files probed n/a (not exposed)")
    return "; ".join(parts)


def label(r: Dict[str, Any]) -> str:
    return f"{NAMES.get(r['system'], r['system'])} {r['variant']}"


def headline(rows: List[Dict[str, Any]]) -> List[Tuple[str, str]]:
    """(what, value) pairs: the ratios the issue asks about."""
    by = {(r["system"], r["variant"], r["workload"]): r for r in rows if r["median"] is not None}
    out: List[Tuple[str, str]] = []
    for (s, v, w), r in sorted(by.items()):
        if r["x_parquet"] is not None:
            out.append((f"{NAMES[s]} {v}: {w} / parquet", f"{r['x_parquet']:.2f}"))
    for w in [
        LOAD,
        LOAD_ALT,
        UPSERT_1_UNIFORM,
        UPSERT_1_SKEWED,
        UPSERT_10_UNIFORM,
        UPSERT_10_SKEWED,
        INCREMENTAL,
        DELETE_1,
        SCAN,
        FILTER,
    ]:
        v = "COW alt load" if w == LOAD_ALT else "COW"
        a, b = by.get(("pyhudi", v, w)), by.get(("hudi", v, w))
        if a and b:
            what = f"{w} ({a.get('label', '')} / {b.get('label', '')})" if a.get("label") else w
            out.append((f"pyhudi / Apache Hudi, COW {what}", f"{a['median'] / b['median']:.2f}"))
    for w in [MOR_LOAD, MOR_UPSERT, MOR_SCAN, MOR_COMPACT, MOR_SCAN_COMPACTED]:
        a, b = by.get(("pyhudi", "MOR", w)), by.get(("hudi", "MOR", w))
        if a and b:
            out.append((f"pyhudi / Apache Hudi, {w}", f"{a['median'] / b['median']:.2f}"))
    for s in SYSTEM_ORDER:
        for small_v, large_v in [("COW 0.1x", "COW"), ("MOR 0.1x", "MOR"), ("MOR-mode 0.1x", "MOR-mode")]:
            small, large = by.get((s, small_v, SCALE_SMALL)), by.get((s, large_v, SCALE_LARGE))
            if small and large:
                out.append(
                    (
                        f"{NAMES[s]} {large_v}: the same upsert into the 10x table / into the small one",
                        f"{large['median'] / small['median']:.2f}",
                    )
                )
    return out


def consistency(rows: List[Dict[str, Any]]) -> List[str]:
    """Every table format ran the same steps on the same data: their scans must agree (plain
    parquet scans the rows as loaded, before any upsert or delete, so it is left out)."""
    lines = []
    for w in [SCAN, FILTER, INCREMENTAL, MOR_SCAN, MOR_SCAN_COMPACTED]:
        seen = {
            label(r): tuple(r["result"])
            for r in rows
            if r["workload"] == w and r["result"] and r["system"] != "parquet"
        }
        if seen:
            distinct = set(seen.values())
            verdict = "agree" if len(distinct) == 1 else "DIFFER"
            lines.append(f"- {w}: {verdict} — " + ", ".join(f"{k}: {v[0]} rows, hash {v[1]}" for k, v in seen.items()))
    return lines


def markdown(summary: Dict[str, Any], rows: List[Dict[str, Any]]) -> str:
    m = summary["machine"]
    versions = []
    for res in summary["systems"]:
        v = ", ".join(f"{k} {x}" for k, x in res.get("versions", {}).items())
        wall = f", {res['wall_seconds']:.0f} s in all" if res.get("wall_seconds") else ""
        failed = f" — FAILED: {res['failed']}" if res.get("failed") else ""
        runs = (res.get("spec") or {}).get("runs")
        when = f"; measured {res['measured']}" if res.get("measured") else ""
        when += f", {runs} run{'s' if runs != 1 else ''}" if runs else ""
        repeats = (res.get("spec") or {}).get("read_repeats") or 1
        when += f", each query timed {repeats} times per run" if repeats > 1 else ", each query timed once per run"
        loads = (res.get("spec") or {}).get("load_repeats") or 1
        when += f", each load {loads} times" if loads > 1 else ", each load once"
        versions.append(f"- {NAMES.get(res['system'], res['system'])}: {v}{wall}{when}{failed}")
    errors = [
        f"- {NAMES.get(r['system'], r['system'])} {r['variant']}: {r['error']}"
        for res in summary["systems"]
        for r in res["records"]
        if r["workload"] == "error"
    ]
    lines = [
        "# Benchmark results",
        "",
        f"`python bench/run.py --rows {summary['rows']} --runs {summary['runs']}"
        + (f" --reuse {','.join(summary['reused'])}" if summary.get("reused") else "")
        + f"` on {summary['date']}; "
        f"{summary['rows']:,} rows in {summary['partitions']} day partitions. How to run and what each step "
        "does: [README.md](README.md).",
        "",
        f"Machine: {m['nproc']} CPUs ({m['cpu']}), {m['memory']} memory, Python {m['python']}, "
        f"Java `{m.get('java', 'unknown')}`.",
        "",
        "Settings, the same for every system: "
        + ", ".join(f"{k} = `{v}`" for k, v in summary["settings"].items())
        + ".",
        "",
        "Versions:",
        *versions,
        "",
        "Apache Hudi runs on PySpark 3.5 with its `hudi-spark3.5-bundle`: no Apache Hudi bundle for "
        "Spark 4 is published. It writes table version 6 (`hoodie.write.table.version=6`), the "
        "version pyhudi writes. Every other system runs on PySpark 4.0.",
        "",
        "median, min, max: seconds over the runs; x parquet: the median over the runs of the "
        "step's time over the plain-parquet equivalent timed in the same process and run (a write "
        "of the same input rows, or the same query on a parquet copy of the rows the table holds); "
        "MB, files: written or changed under the table folder by the step (metadata included). "
        "A query or a load timed several times per run counts "
        "with the median of its repetitions, and its floor with the median of the floor's, timed "
        "alternately with them (query, floor, floor, query, ...); a load's bytes and files are its "
        "last repetition's.",
        "",
        "| workload | system | variant | median s | min | max | x parquet | MB | files | notes |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        lines.append(
            f"| {r['workload']} | {NAMES.get(r['system'], r['system'])} | {r['variant']} | {fmt(r['median'])} | "
            f"{fmt(r['min'])} | {fmt(r['max'])} | {fmt(r['x_parquet'])} | {fmt(r['mb'], 1)} | "
            f"{'' if r['files'] is None else int(r['files'])} | {r['note']} |"
        )
    lines += ["", "## Ratios", "", "| ratio | value |", "| --- | ---: |"]
    lines += [f"| {k} | {v} |" for k, v in headline(rows)]
    lines += ["", "## Same answers", "", *consistency(rows)]
    if errors:
        lines += ["", "## Errors", "", *errors]
    lines += ["", "![seconds](seconds.png)", "", "![x parquet](x_parquet.png)", ""]
    return "\n".join(lines)


def plots(rows: List[Dict[str, Any]], out: str) -> None:
    """One small panel per workload, a bar per system and variant that ran it, colored by system."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = {s: f"C{i}" for i, s in enumerate(SYSTEM_ORDER)}
    for key, name, xlabel in [
        ("median", "seconds.png", "seconds (median)"),
        ("x_parquet", "x_parquet.png", "x plain parquet"),
    ]:
        panels = [(w, [r for r in rows if r["workload"] == w and r[key] is not None]) for w in WORKLOADS]
        panels = [(w, rs) for w, rs in panels if rs]
        if not panels:
            continue
        cols = 3
        nrows = (len(panels) + cols - 1) // cols
        fig, axes = plt.subplots(nrows, cols, figsize=(16, 2.6 * nrows), squeeze=False)
        for ax in axes.flat[len(panels) :]:
            ax.axis("off")
        for ax, (w, rs) in zip(axes.flat, panels):
            ys = list(range(len(rs)))
            ax.barh(ys, [r[key] for r in rs], color=[colors[r["system"]] for r in rs])
            ax.set_yticks(ys)
            ax.set_yticklabels([label(r) for r in rs], fontsize=7)
            ax.invert_yaxis()
            ax.set_title(w, fontsize=9)
            ax.tick_params(axis="x", labelsize=7)
            if key == "x_parquet":
                ax.axvline(1.0, color="black", linewidth=0.8)
        fig.supxlabel(xlabel)
        fig.tight_layout()
        fig.savefig(os.path.join(out, name), dpi=100)
        plt.close(fig)


def main() -> int:
    src, out = sys.argv[1], sys.argv[2]
    with open(src) as f:
        summary = json.load(f)
    rows = rows_of(summary)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(markdown(summary, rows))
    plots(rows, out)
    print(f"{'ratio':<100} value")
    for k, v in headline(rows):
        print(f"{k:<100} {v}")
    for line in consistency(rows):
        print(line)
    print(f"wrote {os.path.join(out, 'results.md')} and plots", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
