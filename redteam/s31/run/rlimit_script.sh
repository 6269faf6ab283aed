#!/usr/bin/env bash
# #2 (no `hookwise run`): s30 #5, re-opened by a file. The hook now asks about `prlimit`,
# `python3 -c` and `perl -e` spelling a limit on the host, but a script in the project
# (tools/lim.py, written by an earlier allowed Write) doing the same is allowed: the host's
# every later hook inherits the limit. host.py stands for Claude Code (10 s, a non-0/2
# status runs the tool). usage: rlimit_script.sh [RESOURCE VALUE] (default: STACK 24576;
# "none" for the control)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
RES=${1:-STACK} VAL=${2:-24576}
cd "$PROJ"; mkdir -p tools
printf 'import os, sys, resource as r\nv = int(sys.argv[2])\nr.prlimit(int(os.environ["HOST"]), getattr(r, "RLIMIT_" + sys.argv[1]), (v, v))\n' > tools/lim.py
python3 "$here/host.py" "$HOOK_CMD" "$PWD" 2 0 &
host=$!
sleep 1
"$here/ask_hook.sh" "python3 tools/lim.py $RES $VAL"
[ "$RES" = none ] || { HOST=$host python3 tools/lim.py "$RES" "$VAL" && echo "tool ran: HOST=$host python3 tools/lim.py $RES $VAL"; }
wait $host
