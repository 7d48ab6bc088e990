#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: builds the connector, installs pyhudi into .venv and runs examples/demo.py on
# local Spark.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build/sbt connector/assembly
dev/python-env.sh .venv requirements/test.txt
.venv/bin/python examples/demo.py "$@"
