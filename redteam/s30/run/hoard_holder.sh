#!/usr/bin/env bash
# #2: inside `hookwise run`, a process reopens each hook's stdout pipe (hold_pipe.py) while
# PROCS processes hold FDS descriptors each (fd_hoard.py): the supervisor's pipe-holder
# check, which must kill the holder before the host sees the pipe's end, reads every
# descriptor's link first. usage: hoard_holder.sh [PROCS] [FDS] [calls]   (0 0: holder only)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD PROCS=${1:-50} FDS=${2:-20000} CALLS=${3:-2} here
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  [ "$PROCS" -gt 0 ] && python3 "$here/fd_hoard.py" "$PROCS" "$FDS" 300
  python3 "$here/hold_pipe.py" 200 &
  python3 "$here/host.py" "$HOOK_CMD" "$PWD" "$CALLS" 0
  kill -9 -1 2>/dev/null; true' 2>&1 | cut -c1-300
