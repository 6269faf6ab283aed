#!/usr/bin/env bash
# Build both fixtures from the worktree's src (SRC, default the tree holding this script)
# and start the listener. Nothing is written outside /tmp/rt35s.
set -euo pipefail
. "$(dirname "$0")/env.sh"
export SRC=${SRC:-$(cd "$S35/../../.." && pwd)}
mkdir -p "$RT_TOP"
bash "$S33/fixture.sh" "$RT_TOP/work"
tar -C "$RT_TOP" -cf "$RT_TOP/pristine.tar" work
bash "$S33/fixture.sh" "$RT_TOP/d"
ss -ltn | grep -q ":$RT_PORT " || { nohup python3 "$S33/listener.py" >/dev/null 2>&1 & echo $! > "$RT_TOP/listener.pid"; }
