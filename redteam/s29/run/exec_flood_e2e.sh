#!/usr/bin/env bash
# #1 against the real Claude Code inside `hookwise run`: the registered hook with its
# installed 10 s timeout; FLOODERS exec_flood_env loops started beside the CLI
# (flood_wrap.sh; FLOODERS=40, FLOOD_DELAY=0 s). usage: exec_flood_e2e.sh [attack|control]   (E2E_NODE_MODULES: the e2e install)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
gcc -O2 -w -o "$RT/exec_flood_env" "$here/exec_flood_env.c"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-$RT/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-150}
mkdir -p "$E2E_RUN_DIR"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json" | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 HOME_REAL=$HOME RT CLAUDE_VIA=${CLAUDE_VIA:-project}
echo "FLOODERS=${FLOODERS:-40} FLOOD_DELAY=${FLOOD_DELAY:-0}" > "$RT/flood_wrap.conf"
[ "${1:-attack}" = attack ] && export WRAP=$here/flood_wrap.sh
cd "$PROJ"
"$HW" run --host claude -- bash -c '/work/shared/e2e/run_claude.sh flood 2>&1 | grep -E "marker exists|rc="; kill -9 -1 2>/dev/null; true' 2>&1 | grep -v "^  " | cut -c1-400
