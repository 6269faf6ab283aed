#!/usr/bin/env bash
# #1: a write lease on hookwise's launcher (~/.local/share/hookwise/hook, a file of this
# user): every hook's shell opens it (`read -r l < "$h"`, the registered command) before
# hookwise runs, and the open waits in the kernel until the lease-break-time (45 s) passes:
# no deadline runs, the host's timeout does. host.py stands for Claude Code (10 s).
# usage: lease_host.sh [session|plain] [calls, 2] [lease seconds, 70] (seconds 0: control)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD CALLS=${2:-2} SECS=${3:-70} here
FILE=${LEASE_FILE:-$HOME/.local/share/hookwise/hook}; export FILE
cd "$PROJ"
run='[ "$SECS" -gt 0 ] && { python3 "$here/lease.py" "$FILE" "$SECS" & sleep 1; }
  python3 "$here/host.py" "$HOOK_CMD" "$PWD" "$CALLS" 0
  kill %1 2>/dev/null; wait'
if [ "${1:-plain}" = session ]; then
  "$HW" run --host claude -- bash -c "$run" 2>&1 | fold -w 300 | head -20
else
  "$here/ask_hook.sh" "python3 tools/lease.py ~/.local/share/hookwise/hook 70 &"
  bash -c "$run"
fi
