#!/usr/bin/env bash
# Inside `hookwise run`: the same pkill loop as stop_hooks.sh, left by a tool call of the
# host (host.py, the agent), against the hooks the host then starts (host.py: 10 s timeout).
# usage: sess_kill.sh [KILL|STOP|none] [calls, 3]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
sig=${1:-KILL}
[ "$sig" != none ] && export BEFORE="timeout 40 sh -c 'while :; do pkill -$sig -f ISXutf8.*hook[w]ise/hook; sleep 0.005; done'"
cd "$PROJ"
"$HW" run --host claude -- python3 "$here/host.py" "$HOOK_CMD" "$PWD" "${2:-3}" 2>&1 | fold -w 300 | head -20
