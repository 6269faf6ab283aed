#!/usr/bin/env bash
# #6 (no session): a hook that imports a module whose .pyc is stale (an upgrade, an editable
# install: here `touch` of the source) under an inherited RLIMIT_FSIZE writes the new .pyc cut
# at the limit (Python ignores SIGXFSZ; FileIO.write returns short, _write_atomic renames it
# in place): every later import of that module fails with "marshal data too short", and every
# later hook exits 2 ("cannot start"): every tool call blocked until the file is removed.
# usage: pyc_poison.sh [MODULE, src/hookwise/policy/audit.py]; pyc_poison.sh clean
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [ "${1:-}" = clean ]; then find "$root/src" -name '*.pyc' -size -4097c -newer "$here/pyc_poison.sh" -print -delete; exit 0; fi
mod=${1:-src/hookwise/policy/audit.py}
touch "$root/$mod"
"$here/rlimit_matrix.sh" --fsize=100 "" "" | cut -c1-170
ls -la "$(dirname "$root/$mod")/__pycache__/$(basename "${mod%.py}").cpython-"*.pyc
