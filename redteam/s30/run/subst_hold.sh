#!/usr/bin/env bash
# #2: inside `hookwise run`, hold_subst.py holds the pipe of the registered command's own
# command substitution (dash: `m=$(/bin/cat /proc/self/mountinfo)`); host.py (Claude Code's
# `/bin/sh -c`) times each call against 10 s. usage: subst_hold.sh [attack|control] [calls]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD MODE=${1:-attack} CALLS=${2:-3} here
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  [ "$MODE" = attack ] && python3 "$here/hold_subst.py" 200 &
  python3 "$here/host.py" "$HOOK_CMD" "$PWD" "$CALLS" 0
  kill -9 -1 2>/dev/null; true' 2>&1 | cut -c1-300
