#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make check: Scala formatting (scalafmt, .scalafmt.conf), license headers, lint and formatting of
# every Python file (ruff) and strict types of the Python package (mypy); ruff and mypy come from
# requirements/test.txt in .venv. The Scala import boundary and package docs are checked by
# ImportBoundarySuite in the Scala suites.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
py="${PYHUDI_CHECK_VENV:-.venv}/bin"
build/sbt scalafmtCheckAll scalafmtSbtCheck
dev/license-headers.sh
"$py/ruff" check .
"$py/ruff" format --check .
"$py/mypy" --strict python/pyhudi
echo "check: ok"
