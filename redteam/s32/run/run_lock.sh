#!/usr/bin/env bash
# A process inside session A takes the sessions' shared lock (run.lock in the read-only
# sessions directory: flock needs only a read-only descriptor); another `hookwise run` of
# the same user (session B) waits for it at its start, with no bound. Bounded here: A's
# holder lives HOLD seconds, B is given 15.
# usage: run_lock.sh [HOLD, 25]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
hold=${1:-25}
cd "$PROJ"
"$HW" run --host claude -- bash -c "d=\$(dirname \$(grep -o '/[^ ]*hookwise-run-[0-9]*/launcher' /proc/self/mountinfo | head -1)); ls -la \$d/run.lock; echo A: holding \$d/run.lock; flock -x \$d/run.lock sleep $hold" &
sleep 4
t0=$(date +%s.%N)
timeout 15 "$HW" run --host claude -- true; rc=$?
echo "B: hookwise run -- true: rc=$rc after $(python3 -c "import sys,time; print(round(time.time()-float(sys.argv[1]),1))" "$t0") s (124: still waiting at 15 s)"
wait
