#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file carries the project's license header. `dev/license-headers.sh` lists the
# files that lack it and exits 1 (part of `make check`); `--fix` adds it (part of `make format`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
spdx="SPDX-License-Identifier: Apache-2.0"
fix=false; [ "${1:-}" = "--fix" ] && fix=true
missing=0
while IFS= read -r f; do
  head -n 3 "$f" | grep -q "$spdx" && continue
  if ! $fix; then echo "missing license header: $f"; missing=1; continue; fi
  case "$f" in
    *.scala|*.sbt) printf '// %s\n' "$spdx" | cat - "$f" > "$f.tmp" ;;
    *)
      # Keep a shebang on the first line.
      if head -n 1 "$f" | grep -q '^#!'; then
        { head -n 1 "$f"; printf '# %s\n' "$spdx"; tail -n +2 "$f"; } > "$f.tmp"
      else
        printf '# %s\n' "$spdx" | cat - "$f" > "$f.tmp"
      fi ;;
  esac
  chmod --reference="$f" "$f.tmp"; mv "$f.tmp" "$f"
done < <(git ls-files --cached --others --exclude-standard \
  'spark-connector/*.scala' 'project/*.sbt' '*.sbt' 'python/*.py' 'integration-tests/*.py' 'bench/*.py' \
  'examples/*.py' 'setup.py' 'dev/*.sh' 'build/sbt' '.ci/run' | sort -u)
exit $missing
