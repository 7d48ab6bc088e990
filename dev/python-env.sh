#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: dev/python-env.sh VENV_DIR REQUIREMENTS_FILE [--no-pyhudi]
# Creates (or reuses) a virtualenv, installs the pinned requirements, then installs pyhudi
# itself from this checkout as a real wheel (setup.py builds the connector jar if needed).
# --no-pyhudi: only the requirements (the Apache Hudi side of the interop tests).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$1"; reqs="$2"; with_pyhudi=1
[ "${3:-}" = "--no-pyhudi" ] && with_pyhudi=0
python="${PYTHON:-python3}"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$reqs"
if [ "$with_pyhudi" = 1 ]; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "$root"
fi
