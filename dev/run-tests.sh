#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every test: Scala unit suites, the connector jar, the Python package, the full
# integration suite on the pinned PySpark (including the interop suite, which drives Apache Hudi
# on PySpark 3.5 in processes of its own), and the corpus conformance plus write round trips on
# the oldest supported PySpark. Lists the slowest tests of each pytest run, and ends with one
# summary line "N passed, N failed".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
logs="$root/target/test-logs"; mkdir -p "$logs"

echo "== Scala unit suites and connector jar"
build/sbt connector/test connector/assembly 2>&1 | tee "$logs/scala.log"

echo "== Python: pinned PySpark ($(grep '^pyspark' requirements/test.txt)), with the Apache Hudi interop suite on $(grep '^pyspark' requirements/interop.txt)"
dev/python-env.sh .venv requirements/test.txt
dev/check.sh
dev/python-env.sh .venv-interop requirements/interop.txt --no-pyhudi
.venv/bin/python -m pytest integration-tests -q -p no:cacheprovider --durations=25 2>&1 | tee "$logs/pytest-main.log"

echo "== Python: corpus conformance and write round trips on the oldest supported PySpark ($(grep '^pyspark' requirements/spark-oldest.txt))"
dev/python-env.sh .venv-spark-oldest requirements/spark-oldest.txt
.venv-spark-oldest/bin/python -m pytest integration-tests -q -p no:cacheprovider --durations=10 -m "conformance or compat" 2>&1 \
  | tee "$logs/pytest-oldest.log"

python3 - "$logs" <<'PY'
import re, sys, pathlib
logs = pathlib.Path(sys.argv[1])
passed = failed = 0
m = re.findall(r"Tests: succeeded (\d+), failed (\d+)", (logs / "scala.log").read_text())
if m:
    passed += int(m[-1][0]); failed += int(m[-1][1])
for name in ("pytest-main.log", "pytest-oldest.log"):
    text = (logs / name).read_text()
    last = [l for l in text.splitlines() if re.search(r"\d+ (passed|failed)", l)][-1:]
    for l in last:
        p = re.search(r"(\d+) passed", l); f = re.search(r"(\d+) failed", l)
        passed += int(p.group(1)) if p else 0; failed += int(f.group(1)) if f else 0
print(f"{passed} passed, {failed} failed")
PY
