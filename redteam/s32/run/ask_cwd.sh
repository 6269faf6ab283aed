#!/usr/bin/env bash
# The real hook's answer (claude's registered command, no session) for COMMAND with the
# event's cwd (and the hook's own cwd) at DIR.  usage: ask_cwd.sh DIR 'COMMAND' ...
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
dir=$1; shift
cd "${HOOK_CWD:-$PROJ}"
for cmd in "$@"; do
  event=$(python3 -c 'import json,sys; print(json.dumps({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"cwd":sys.argv[2],"session_id":"s"}))' "$cmd" "$dir")
  out=$(printf '%s' "$event" | CLAUDE_PROJECT_DIR=$PROJ /bin/sh -c "$HOOK_CMD" 2>/tmp/rt32r/ask.err); rc=$?
  d=$(printf '%s' "$out" | grep -o '"permissionDecision":"[a-z]*"' || echo "no answer (allowed)")
  printf 'rc=%s %-34s cwd=%s <- %s\n' "$rc" "$d" "$dir" "$cmd"
done
