#!/usr/bin/env bash
# #5 (no `hookwise run`: a plain hook setup): a tool call sets its host's RLIMIT_STACK (or
# another limit) with prlimit; every hook the host starts afterwards inherits it. The hook
# (the launcher's python, exec'd by the registered command) dies of SIGSEGV at start:
# status 139, which Claude Code takes as a non-blocking error. host.py stands for the host.
# usage: rlimit_host.sh [stack KiB, 16]   (0: control, no prlimit)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
KIB=${1:-16}
cd "$PROJ"
python3 "$here/host.py" "$HOOK_CMD" "$PWD" 2 0 &
host=$!
sleep 1
# what the tool call runs (its host is its parent's parent in a real CLI; here: by pid).
# The hook decides on the command first: outside a session it has no answer for it (allowed)
cmd="prlimit --pid $host --stack=$((KIB * 1024)):$((KIB * 1024))"
printf '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"cwd":"%s","session_id":"s"}' "$cmd" "$PWD" \
  | sh -c "$HOOK_CMD" >/dev/null 2>&1; echo "hook on \`$cmd\`: rc=$? (0 with no answer: allowed)"
[ "$KIB" -gt 0 ] && $cmd && echo "tool ran: $cmd"
wait $host
