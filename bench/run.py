# SPDX-License-Identifier: Apache-2.0
"""Side-by-side benchmark: pyhudi, plain parquet, Apache Hudi, Delta Lake and Apache Iceberg on
the same generated data, each system in a Spark process of its own. Not a test.

Usage (from the repository root, any Python 3.9+; ``make bench`` runs the default)::

    python bench/run.py                                  # 5,000,000 rows, every system, 3 runs
    python bench/run.py --rows 20000 --runs 1 --systems pyhudi,parquet --out /tmp/bench-smoke
    python bench/run.py --indexes SIMPLE,GLOBAL_BLOOM,GLOBAL_SIMPLE,BUCKET   # index sweep (3 runs, the default)

It creates two virtualenvs under ``--envs`` (default ``bench/.envs``) from the pinned files in
``requirements/``: ``bench-spark4.txt`` (PySpark 4.0 + matplotlib, with pyhudi installed from
this checkout: the jar of ``build/sbt connector/assembly``) for pyhudi, parquet, Delta and
Iceberg, and ``bench-hudi.txt`` (PySpark 3.5) for Apache Hudi, whose bundle exists for Spark 3.5
only. Delta, Iceberg and Hudi jars come through ``spark.jars.packages`` (Spark resolves them from
its default repository on first use). The data are generated once (``bench/generate.py``) into
``--work``; every worker reads them as input. Results: ``results.md``, ``results.json`` and PNG
plots in ``--out`` (``bench/report.py``); the ratios are printed too.

``--indexes`` runs an index sweep instead: for each index type, pyhudi and Apache Hudi (the
two systems with an index) load, upsert and delete on copy-on-write and load and upsert on
merge-on-read with that ``hoodie.index.type``; ``bench/index_report.py`` writes
``index-types.md``, ``index-types.json`` and ``index_types.png`` to ``--out``.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from typing import Any, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
SYSTEMS = ["pyhudi", "parquet", "hudi", "delta", "iceberg"]
INDEXED = ["pyhudi", "hudi"]  # the systems an index sweep runs
INDEX_TYPES = ["BLOOM", "SIMPLE", "GLOBAL_BLOOM", "GLOBAL_SIMPLE", "BUCKET"]
# JVM artifacts: Delta and Iceberg built for Spark 4.0 / Scala 2.13, Hudi's Spark 3.5 bundle
# (the version of the interop tests).
DELTA_VERSION = "4.0.0"
ICEBERG_VERSION = "1.10.0"
HUDI_VERSION = "1.2.0"
START_DAY = datetime.date(2026, 1, 1)  # bench/generate.py's first day


def parse_args(argv: List[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=5_000_000, help="rows of the main table (default 5000000)")
    p.add_argument("--partitions", type=int, default=30, help="day partitions, 8-100 (default 30)")
    p.add_argument("--systems", default=",".join(SYSTEMS), help=f"comma-separated subset of {','.join(SYSTEMS)}")
    p.add_argument("--runs", type=int, default=3, help="runs of every workload; median, min and max (default 3)")
    p.add_argument(
        "--out", default=os.path.join(ROOT, "docs", "benchmarks"), help="results folder (default docs/benchmarks)"
    )
    p.add_argument("--master", default="local[2]", help="Spark master of every worker (default local[2])")
    p.add_argument("--driver-memory", default="4g", help="spark.driver.memory of every worker (default 4g)")
    p.add_argument("--shuffle-partitions", type=int, default=8, help="spark.sql.shuffle.partitions (default 8)")
    p.add_argument(
        "--read-repeats",
        type=int,
        default=3,
        help="times each query is timed per run, alternating with its parquet floor; the run keeps "
        "the medians (default 3)",
    )
    p.add_argument(
        "--load-repeats",
        type=int,
        default=3,
        help="times each load is timed per run, alternating with its parquet floor; the run keeps "
        "the medians (default 3)",
    )
    p.add_argument("--index", default="BLOOM", help="hoodie.index.type of pyhudi's and Hudi's upserts (default BLOOM)")
    p.add_argument(
        "--indexes",
        default="",
        help=f"comma-separated index types of {','.join(INDEX_TYPES)}: an index sweep of the upserts "
        "of pyhudi and Apache Hudi instead of the full run",
    )
    p.add_argument(
        "--buckets", type=int, default=4, help="hoodie.bucket.index.num.buckets for the BUCKET index (default 4)"
    )
    p.add_argument("--envs", default=os.path.join(BENCH, ".envs"), help="virtualenv cache (default bench/.envs)")
    p.add_argument(
        "--work", default=os.path.join(BENCH, ".work"), help="generated data and tables (default bench/.work)"
    )
    p.add_argument("--skip-setup", action="store_true", help="use the virtualenvs as they are")
    p.add_argument(
        "--reuse",
        default="",
        help="comma-separated systems not run again: their last results in --work (same --rows, "
        "--partitions and settings) go into the report with the time they were measured and their runs",
    )
    args = p.parse_args(argv)
    args.systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    args.reuse = [s.strip() for s in args.reuse.split(",") if s.strip()]
    args.systems = [s for s in args.systems if s not in args.reuse]
    unknown = (set(args.systems) | set(args.reuse)) - set(SYSTEMS)
    if unknown:
        p.error(f"unknown systems {sorted(unknown)}; choose from {SYSTEMS}")
    args.indexes = [s.strip().upper() for s in args.indexes.split(",") if s.strip()]
    if set(args.indexes) - set(INDEX_TYPES):
        p.error(f"unknown index types {sorted(set(args.indexes) - set(INDEX_TYPES))}; choose from {INDEX_TYPES}")
    if args.indexes:
        if set(args.reuse) - set(INDEXED):
            p.error(f"an index sweep runs {INDEXED} only: nothing else to reuse")
        args.systems = [s for s in args.systems if s in INDEXED]
    if not 8 <= args.partitions <= 100:
        p.error("--partitions must be within 8-100")
    return args


def env_python(envs: str, name: str) -> str:
    return os.path.join(envs, name, "bin", "python")


def setup(args: argparse.Namespace) -> None:
    """Both virtualenvs from the pinned requirement files (pip skips what is installed)."""
    script = os.path.join(ROOT, "dev", "python-env.sh")
    log(f"environment spark4 ({args.envs}/spark4): requirements/bench-spark4.txt + pyhudi from this checkout")
    subprocess.run(
        ["bash", script, os.path.join(args.envs, "spark4"), os.path.join(ROOT, "requirements", "bench-spark4.txt")],
        check=True,
    )
    if "hudi" in args.systems:
        log(f"environment hudi ({args.envs}/hudi): requirements/bench-hudi.txt")
        subprocess.run(
            [
                "bash",
                script,
                os.path.join(args.envs, "hudi"),
                os.path.join(ROOT, "requirements", "bench-hudi.txt"),
                "--no-pyhudi",
            ],
            check=True,
        )


def generate(args: argparse.Namespace) -> str:
    """The input data, generated once per (rows, partitions) and reused."""
    data = os.path.join(args.work, f"data-{args.rows}-{args.partitions}")
    done = os.path.join(data, "_DONE")
    if not os.path.exists(done):
        shutil.rmtree(data, ignore_errors=True)
        log(f"generating {args.rows} rows in {args.partitions} partitions into {data}")
        subprocess.run(
            [
                env_python(args.envs, "spark4"),
                os.path.join(BENCH, "generate.py"),
                str(args.rows),
                str(args.partitions),
                data,
            ],
            check=True,
        )
        open(done, "w").close()
    return data


def run_system(args: argparse.Namespace, system: str, data: str, index: str = "", only: str = "") -> Dict[str, Any]:
    """One worker process; with ``only="upserts"`` the steps of an index sweep with ``index``."""
    index = index or args.index
    tag = f"{system}-{index}" if only else system
    work = os.path.join(args.work, f"tables-{system}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    spec = {
        "data": data,
        "work": work,
        "runs": args.runs,
        "master": args.master,
        "driver_memory": args.driver_memory,
        "shuffle_partitions": args.shuffle_partitions,
        "read_repeats": args.read_repeats,
        # an index sweep times the upserts only
        "load_repeats": 1 if only else args.load_repeats,
        "index": index,
        "buckets": args.buckets,
        "only": only,
        "filter_day": filter_day(args),
        "hudi_version": HUDI_VERSION,
        "delta_version": DELTA_VERSION,
        "iceberg_version": ICEBERG_VERSION,
        "out": os.path.join(args.work, f"result-{tag}.json"),
    }
    spec_file = os.path.join(args.work, f"spec-{tag}.json")
    with open(spec_file, "w") as f:
        json.dump(spec, f, indent=1)
    python = env_python(args.envs, "hudi" if system == "hudi" else "spark4")
    log(f"{tag}: worker log {args.work}/{tag}.log")
    start = time.perf_counter()
    with open(os.path.join(args.work, f"{tag}.log"), "w") as logf:
        done = subprocess.run(
            [python, os.path.join(BENCH, "systems", f"{system}_system.py"), spec_file], stdout=logf, stderr=logf
        )
    shutil.rmtree(work, ignore_errors=True)
    if done.returncode != 0 or not os.path.exists(spec["out"]):
        log(f"{tag}: worker failed (exit {done.returncode}), see {args.work}/{tag}.log")
        return {
            "system": system,
            "index": index,
            "versions": {},
            "records": [],
            "failed": f"worker exit {done.returncode}",
        }
    with open(spec["out"]) as f:
        result: Dict[str, Any] = json.load(f)
    result["wall_seconds"] = time.perf_counter() - start
    result["index"] = index
    result["spec"] = {
        k: spec[k]
        for k in (
            "data",
            "runs",
            "read_repeats",
            "load_repeats",
            "master",
            "driver_memory",
            "shuffle_partitions",
            "index",
        )
    }
    result["measured"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with open(spec["out"], "w") as f:
        json.dump(result, f, indent=1)
    log(f"{tag}: done in {result['wall_seconds']:.0f}s")
    return result


def reuse_result(args: argparse.Namespace, system: str, index: str = "") -> Dict[str, Any]:
    """``system``'s last result in ``--work`` (of the sweep with ``index``, if given), refused
    unless measured on the same data with the settings of this run (the number of runs may
    differ: the report gives each system's)."""
    tag = f"{system}-{index}" if index else system
    path = os.path.join(args.work, f"result-{tag}.json")
    result: Dict[str, Any]
    if os.path.exists(path):
        with open(path) as f:
            result = json.load(f)
    else:
        # a fresh checkout has no --work: the results committed with the last report serve
        committed = os.path.join(ROOT, "docs", "benchmarks", "index-types.json" if index else "results.json")
        with open(committed) as f:
            found = [
                r
                for r in json.load(f).get("systems", [])
                if r.get("system") == system and (not index or r.get("index") == index)
            ]
        if not found:
            raise SystemExit(f"--reuse {system}: no earlier result at {path} nor in {committed}")
        result, path = found[0], committed
    wanted = {
        # the generated data depend on rows and partitions only, wherever they were written
        "data": f"data-{args.rows}-{args.partitions}",
        "master": args.master,
        "driver_memory": args.driver_memory,
        "shuffle_partitions": args.shuffle_partitions,
        "index": index or args.index,
    }
    measured_with = {
        k: v for k, v in (result.get("spec") or {}).items() if k not in ("runs", "read_repeats", "load_repeats")
    }
    measured_with["data"] = os.path.basename(str(measured_with.get("data", "")))
    if measured_with != wanted:
        raise SystemExit(f"--reuse {system}: {path} was measured with {result.get('spec')}, not {wanted}")
    log(f"{system}: reusing the result measured {result.get('measured')}")
    result["reused"] = True
    return result


def index_sweep(args: argparse.Namespace, data: str) -> int:
    """For each index type in turn, pyhudi's and Apache Hudi's upserts with it."""
    started = time.perf_counter()
    results = [
        run_system(args, s, data, index=i, only="upserts") if s in args.systems else reuse_result(args, s, i)
        for i in args.indexes
        for s in INDEXED
        if s in args.systems or s in args.reuse
    ]
    summary = {
        "rows": args.rows,
        "partitions": args.partitions,
        "runs": args.runs,
        "indexes": args.indexes,
        "reused": args.reuse,
        "settings": {
            "master": args.master,
            "spark.driver.memory": args.driver_memory,
            "spark.sql.shuffle.partitions": args.shuffle_partitions,
            "hoodie.bucket.index.num.buckets": args.buckets,
        },
    }
    return report(args, summary, started, results, "index-types.json", "index_report.py")


def report(
    args: argparse.Namespace,
    summary: Dict[str, Any],
    started: float,
    results: List[Dict[str, Any]],
    json_name: str,
    script: str,
) -> int:
    """Completes ``summary`` (machine, date, time, results), writes it to ``--out`` as
    ``json_name`` and runs ``bench/<script>`` on it; exit code 1 if a worker or a step failed."""
    summary.update(
        {
            "machine": machine(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "total_seconds": time.perf_counter() - started,
            "systems": results,
        }
    )
    os.makedirs(args.out, exist_ok=True)
    combined = os.path.join(args.out, json_name)
    with open(combined, "w") as f:
        json.dump(summary, f, indent=1)
    subprocess.run([env_python(args.envs, "spark4"), os.path.join(BENCH, script), combined, args.out], check=True)
    failed = any(r.get("failed") or any(x["workload"] == "error" for x in r["records"]) for r in results)
    return 1 if failed else 0


def filter_day(args: argparse.Namespace) -> str:
    """The day of the selective filter: the middle partition."""
    return (START_DAY + datetime.timedelta(days=args.partitions // 2)).isoformat()


def machine() -> Dict[str, Any]:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    mem = "unknown"
    try:
        with open("/proc/meminfo") as f:
            kb = int(next(line.split()[1] for line in f if line.startswith("MemTotal")))
            mem = f"{kb / 1024 / 1024:.1f} GiB"
    except (OSError, StopIteration):
        pass
    try:
        java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    except (OSError, IndexError):
        java = "unknown"
    return {"nproc": os.cpu_count(), "memory": mem, "cpu": cpu, "python": sys.version.split()[0], "java": java}


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def main(argv: List[str]) -> int:
    args = parse_args(argv)
    args.work = os.path.abspath(args.work)
    args.out = os.path.abspath(args.out)
    os.makedirs(args.work, exist_ok=True)
    if not args.skip_setup:
        setup(args)
    data = generate(args)
    if args.indexes:
        return index_sweep(args, data)
    started = time.perf_counter()
    ran = {s: run_system(args, s, data) for s in args.systems}
    reused = {s: reuse_result(args, s) for s in args.reuse}
    results = [ran.get(s) or reused[s] for s in SYSTEMS if s in ran or s in reused]
    summary = {
        "rows": args.rows,
        "partitions": args.partitions,
        "runs": args.runs,
        "reused": args.reuse,
        "settings": {
            "master": args.master,
            "spark.driver.memory": args.driver_memory,
            "spark.sql.shuffle.partitions": args.shuffle_partitions,
            "hoodie.index.type": args.index,
            "filter": f"day = '{filter_day(args)}' AND fare > 40",
        },
    }
    return report(args, summary, started, results, "results.json", "report.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
