# SPDX-License-Identifier: Apache-2.0
"""Turns the ``index-types.json`` of ``bench/run.py --indexes`` into ``index-types.md`` and
``index_types.png``: for every index type, pyhudi's time over Apache Hudi's for each step that
looks keys up, against the issue's goals (copy-on-write at most 0.7x, merge-on-read at most 0.5x).
Usage: index_report.py INDEX_TYPES_JSON OUT_DIR."""

import json
import os
import sys
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "systems"))

from common import (  # noqa: E402
    DELETE_1,
    LOAD,
    MOR_LOAD,
    MOR_UPSERT,
    UPSERT_1_SKEWED,
    UPSERT_1_UNIFORM,
    UPSERT_10_SKEWED,
    UPSERT_10_UNIFORM,
)
from report import NAMES, fmt, med  # noqa: E402

# (variant, workload, goal of pyhudi / Apache Hudi or None where the issue sets none)
STEPS: List[Tuple[str, str, Optional[float]]] = [
    ("COW", LOAD, None),
    ("COW", UPSERT_1_UNIFORM, 0.7),
    ("COW", UPSERT_1_SKEWED, 0.7),
    ("COW", UPSERT_10_UNIFORM, 0.7),
    ("COW", UPSERT_10_SKEWED, 0.7),
    ("COW", DELETE_1, 0.7),
    ("MOR", MOR_LOAD, None),
    ("MOR", MOR_UPSERT, 0.5),
]


def times(summary: Dict[str, Any]) -> Dict[Tuple[str, str, str, str], List[float]]:
    """(index, system, variant, workload) -> the seconds of every run."""
    out: Dict[Tuple[str, str, str, str], List[float]] = {}
    for res in summary["systems"]:
        for r in res["records"]:
            if r.get("times"):
                out[(res["index"], res["system"], r["variant"], r["workload"])] = r["times"]
    return out


def ratios(summary: Dict[str, Any]) -> List[Dict[str, Any]]:
    t = times(summary)
    rows = []
    for index in summary["indexes"]:
        for variant, workload, goal in STEPS:
            a, b = t.get((index, "pyhudi", variant, workload)), t.get((index, "hudi", variant, workload))
            ratio = med(a) / med(b) if a and b else None
            rows.append(
                {
                    "index": index,
                    "variant": variant,
                    "workload": workload,
                    "pyhudi": a,
                    "hudi": b,
                    "ratio": ratio,
                    "goal": goal,
                    "met": None if goal is None or ratio is None else ratio <= goal,
                }
            )
    return rows


def spread(xs: Optional[List[float]]) -> str:
    if not xs:
        return "failed"
    if len(xs) == 1:
        return fmt(xs[0])
    return f"{fmt(med(xs))} ({fmt(min(xs))}-{fmt(max(xs))})"


def markdown(summary: Dict[str, Any], rows: List[Dict[str, Any]]) -> str:
    m = summary["machine"]
    versions = []
    seen = set()
    for res in summary["systems"]:
        if res["system"] in seen or not res.get("versions"):
            continue
        seen.add(res["system"])
        when = [
            f"{x['index']} {x.get('measured', 'failed')}" for x in summary["systems"] if x["system"] == res["system"]
        ]
        versions.append(
            f"- {NAMES[res['system']]}: "
            + ", ".join(f"{k} {v}" for k, v in res["versions"].items())
            + "; measured "
            + ", ".join(when)
        )
    errors = [
        f"- {NAMES[res['system']]} {res['index']} {r['variant']}: {r['error']}"
        for res in summary["systems"]
        for r in res["records"]
        if r["workload"] == "error"
    ] + [f"- {NAMES[res['system']]} {res['index']}: {res['failed']}" for res in summary["systems"] if res.get("failed")]
    goals = [r for r in rows if r["goal"] is not None and r["ratio"] is not None]
    met = sum(1 for r in goals if r["met"])
    lines = [
        "# Index types: pyhudi against Apache Hudi",
        "",
        f"`python bench/run.py --indexes {','.join(summary['indexes'])} --runs {summary['runs']}"
        + (f" --reuse {','.join(summary['reused'])}" if summary.get("reused") else "")
        + "` on "
        f"{summary['date']}; {summary['rows']:,} rows in {summary['partitions']} day partitions, the data "
        "and steps of [results.md](results.md). What is measured: [README.md](README.md#index-types).",
        "",
        f"Machine: {m['nproc']} CPUs ({m['cpu']}), {m['memory']} memory, Python {m['python']}, "
        f"Java `{m.get('java', 'unknown')}`. Settings, the same for both: "
        + ", ".join(f"{k} = `{v}`" for k, v in summary["settings"].items())
        + f". The workers took {sum(r.get('wall_seconds', 0) for r in summary['systems']) / 60:.0f} minutes in all.",
        "",
        "Versions:",
        *versions,
        "",
        "Apache Hudi runs on PySpark 3.5 with its `hudi-spark3.5-bundle` (no Spark 4 bundle is "
        "published) and writes table version 6, as pyhudi does. Seconds are the median of the runs, "
        "with min and max when there were several; the ratio is pyhudi's median over Apache Hudi's; "
        "the goals are the issue's (copy-on-write upserts and deletes at most 0.7x, merge-on-read "
        "upserts at most 0.5x; loads have none).",
        "",
        f"Goals met: {met} of {len(goals)}.",
        "",
        "| index | table | step | pyhudi s | Apache Hudi s | pyhudi / Hudi | goal | met |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        goal = "" if r["goal"] is None else f"≤ {r['goal']}"
        verdict = "" if r["met"] is None else ("yes" if r["met"] else "no")
        lines.append(
            f"| {r['index']} | {r['variant']} | {r['workload']} | {spread(r['pyhudi'])} | {spread(r['hudi'])} | "
            f"{fmt(r['ratio'])} | {goal} | {verdict} |"
        )
    if errors:
        lines += ["", "## Errors", "", *errors]
    lines += ["", "![pyhudi / Apache Hudi per index type](index_types.png)", ""]
    return "\n".join(lines)


def step_label(r: Dict[str, Any]) -> str:
    return r["workload"] if r["workload"].startswith(r["variant"]) else f"{r['variant']} {r['workload']}"


def plot(rows: List[Dict[str, Any]], out: str) -> None:
    """One panel per index type: a bar per step, pyhudi's time over Apache Hudi's, with the goals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    indexes = list(dict.fromkeys(r["index"] for r in rows))
    fig, axes = plt.subplots(1, len(indexes), figsize=(3.6 * len(indexes), 3.4), sharey=True, squeeze=False)
    for ax, index in zip(axes.flat, indexes):
        rs = [r for r in rows if r["index"] == index]
        ys = list(range(len(rs)))
        ax.barh(ys, [r["ratio"] or 0 for r in rs], color=["C0" if r["variant"] == "COW" else "C1" for r in rs])
        ax.set_yticks(ys)
        ax.set_yticklabels([step_label(r) for r in rs], fontsize=7)
        ax.axvline(0.7, color="C0", linestyle="--", linewidth=0.8)
        ax.axvline(0.5, color="C1", linestyle="--", linewidth=0.8)
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_title(index, fontsize=9)
        ax.tick_params(axis="x", labelsize=7)
    axes.flat[0].invert_yaxis()  # the panels share the axis: inverted once, steps read top down
    fig.supxlabel("pyhudi / Apache Hudi (median seconds); dashed: the goals, 0.7 COW and 0.5 MOR")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "index_types.png"), dpi=100)
    plt.close(fig)


def main() -> int:
    src, out = sys.argv[1], sys.argv[2]
    with open(src) as f:
        summary = json.load(f)
    rows = ratios(summary)
    with open(os.path.join(out, "index-types.md"), "w") as f:
        f.write(markdown(summary, rows))
    plot(rows, out)
    for r in rows:
        print(f"{r['index']:<14} {r['variant']:<4} {r['workload']:<42} {fmt(r['ratio']):>6}")
    print(f"wrote {os.path.join(out, 'index-types.md')} and index_types.png", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
