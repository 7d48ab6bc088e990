#!/usr/bin/env bash
# Usage: dev/python-env.sh VENV_DIR REQUIREMENTS_FILE
# Creates (or reuses) a virtualenv, installs the pinned requirements, then installs pyhudi
# itself from this checkout as a real wheel (setup.py builds the connector jar if needed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$1"; reqs="$2"
python="${PYTHON:-python3}"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$reqs"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "$root"
