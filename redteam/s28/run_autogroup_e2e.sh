#!/usr/bin/env bash
# The autogroup starvation (run_autogroup_hook.sh) against the real Claude Code inside
# `hookwise run`, the registered hook with its installed 10 s timeout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-$RT/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=120
mkdir -p "$E2E_RUN_DIR"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json" | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10
[ "${1:-attack}" = attack ] && export WRAP=$here/autogroup_wrap.sh
cd "$PROJ"
"$HW" run --host claude -- bash -c '/work/shared/e2e/run_claude.sh autogroup 2>&1 | grep -E "marker exists|rc="' 2>&1 | grep -v "^  " | cut -c1-400
