#!/usr/bin/env bash
# make check: lint, formatting and strict types of the Python package (ruff, mypy from
# requirements/test.txt in .venv). The Scala import boundary and package docs are checked by
# ImportBoundarySuite in the Scala suites.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
py="${PYHUDI_CHECK_VENV:-.venv}/bin"
"$py/ruff" check python/pyhudi
"$py/ruff" format --check python/pyhudi
"$py/mypy" --strict python/pyhudi
echo "check: ok"
