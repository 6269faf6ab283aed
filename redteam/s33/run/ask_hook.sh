#!/usr/bin/env bash
# The real hook's answer (claude's registered command, no session) for each command given.
# usage: ask_hook.sh 'COMMAND' ...
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
cd "$PROJ"
for cmd in "$@"; do
  event=$(/usr/bin/python3 -c 'import json,sys; print(json.dumps({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"cwd":sys.argv[2],"session_id":"s"}))' "$cmd" "$PWD")
  out=$(printf '%s' "$event" | /bin/sh -c "$HOOK_CMD" 2>/dev/null); rc=$?
  d=$(printf '%s' "$out" | grep -o '"permissionDecision":"[a-z]*"' || echo "no answer (allowed)")
  printf 'rc=%s %-40s <- %s\n' "$rc" "$d" "$cmd"
done
