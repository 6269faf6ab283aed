#!/usr/bin/env bash
# #2: inside `hookwise run`, N processes of the session keep the supervisor's exec watch busy
# (exec_flood.c); a host stand-in (host.py, which starts them) then runs the registered
# command CALLS times and says how long each took after its spawn (a host's timer).
# usage: CALLS=2 exec_flood.sh [N] [bytes|launcher]   (N=0: control; launcher: exec_flood_env.c); results also in $RT/flood.out
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
gcc -O2 -w -o "$RT/exec_flood" "$here/exec_flood.c"
gcc -O2 -w -o "$RT/exec_flood_env" "$here/exec_flood_env.c"
cp "$here/host.py" "$RT/host.py"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD
cd "$PROJ"
"$HW" run --host claude -- python3 "$RT/host.py" "$HOOK_CMD" "$PWD" "${CALLS:-3}" "${1:-100}" "${2:-16384}" 2>&1 | tee "$RT/flood.out" | cut -c1-300
