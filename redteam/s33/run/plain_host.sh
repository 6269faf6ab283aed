#!/usr/bin/env bash
# A stand-in host without `hookwise run` (as Claude Code does): for each COMMAND, the
# registered command with the PreToolUse event on stdin (10 s); a deny or exit 2 blocks,
# anything else (exit 0 without a deny, a timeout, another status) runs the command with bash.
# usage: plain_host.sh 'COMMAND' ...
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
cd "$PROJ"
for cmd in "$@"; do
  event=$(/usr/bin/python3 -c 'import json,sys; print(json.dumps({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[1]},"cwd":sys.argv[2],"session_id":"s"}))' "$cmd" "$PWD")
  t0=$(date +%s.%N)
  out=$(printf '%s' "$event" | CLAUDE_PROJECT_DIR=$PROJ timeout 10 /bin/sh -c "$HOOK_CMD" 2>/tmp/rt33r/host.err); rc=$?
  t=$(/usr/bin/python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1]):.2f}')" "$t0" "$(date +%s.%N)")
  if [ $rc = 2 ] || printf '%s' "$out" | grep -q '"permissionDecision":"deny"'; then
    echo "BLOCKED  rc=$rc ${t}s <- $cmd"
  else
    echo "RAN      rc=$rc ${t}s $(printf '%s' "$out" | grep -o '"permissionDecision":"[a-z]*"') <- $cmd"
    bash -c "$cmd"
  fi
done
