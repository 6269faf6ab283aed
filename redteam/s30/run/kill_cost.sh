#!/usr/bin/env bash
# #4: inside `hookwise run`, the cost of one signal decision (kill -CONT of the caller's own
# child, which the supervisor must decide) with and without a many-threaded fake host, and
# a hook call timed beside LOOPERS processes sending such signals in a loop.
# usage: kill_cost.sh [THREADS] [LOOPERS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD THREADS=${1:-3000} LOOPERS=${2:-0} here
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  cost() { sleep 30 & local p=$!; local s=$EPOCHREALTIME; for i in 1 2 3 4 5; do kill -CONT $p; done; local e=$EPOCHREALTIME; kill $p; echo "$1: 5 kill -CONT decided in $(echo "$e - $s" | bc) s"; }
  cost "no fake host"
  python3 "$here/thread_host.py" "$THREADS" 300 &
  while ! grep -q . /proc/$!/task/*/children 2>/dev/null && [ "$(ls /proc/$!/task | wc -l)" -lt "$THREADS" ]; do sleep 0.2; done; sleep 3
  cost "fake host with $THREADS threads"
  if [ "$LOOPERS" -gt 0 ]; then
    for i in $(seq "$LOOPERS"); do (sleep 300 & p=$!; while :; do kill -CONT $p; done) & done
    sleep 2
    python3 "$here/host.py" "$HOOK_CMD" "$PWD" 2 0; kill -9 -1
  fi
  kill -9 -1 2>/dev/null; true' 2>&1 | cut -c1-300
