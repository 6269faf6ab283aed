#!/usr/bin/env bash
# (no session) the registered command under each resource limit a tool call could set on its
# host (prlimit from code), soft and hard: the hook must answer (deny: rm -rf) or exit 2.
# usage: limits.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
cd "$PROJ"
event=$(/usr/bin/python3 -c 'import json,sys; print(json.dumps({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build"},"cwd":sys.argv[1],"session_id":"s"}))' "$PWD")
for lim in "$@"; do
  out=$(printf '%s' "$event" | timeout 10 prlimit "--$lim" /bin/sh -c "$HOOK_CMD" 2>"$RT/lim.err"); rc=$?
  d=$(printf '%s' "$out" | grep -o '"permissionDecision":"[a-z]*"' || echo "no answer")
  v=BLOCKS; { [ $rc = 2 ] || [ "$d" != "no answer" ]; } || v="RUNS (non-blocking)"
  printf '%-22s rc=%-3s %-32s %s | %s\n' "$lim" "$rc" "$d" "$v" "$(tail -1 "$RT/lim.err" | cut -c1-110)"
done
