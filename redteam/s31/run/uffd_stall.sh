#!/usr/bin/env bash
# #1: inside `hookwise run`, a process left by an earlier tool call (uffd_on_hook.c) answers
# each hook's start with one exec of a path kept in a userfaultfd page it does not fill for
# HOLD seconds: the exec watch's one thread reads that path from /proc/<pid>/mem and waits
# on the fault; the hook's shell's exec of the launcher waits behind it. host.py stands for
# Claude Code (10 s timeout, a timeout runs the tool).
# usage: uffd_stall.sh [HOLD seconds, 30] [calls, 2]   (HOLD 0: control, no watcher)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
gcc -O2 -pthread -o "$RT/uffd_on_hook" "$here/uffd_on_hook.c" || exit 1
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD HOLD=${1:-30} CALLS=${2:-2} here RT
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  [ "$HOLD" -gt 0 ] && { "$RT/uffd_on_hook" "$HOLD" $((HOLD * CALLS + 30)) & }
  python3 "$here/host.py" "$HOOK_CMD" "$PWD" "$CALLS" 0
  kill -9 -1 2>/dev/null; true' 2>&1 | cut -c1-400
