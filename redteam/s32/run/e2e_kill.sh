#!/usr/bin/env bash
# #3 with the real Claude Code 2.1.330 (no `hookwise run`): hookwise's portable command, a
# 10 s timeout; with `kill` the loop of kill_wrap.sh runs beside the CLI.
# usage: e2e_kill.sh [kill|control] [KILL|STOP]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-/tmp/rt30r/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-120}
mkdir -p "$E2E_RUN_DIR"
HOOK_CMD=$(/work/wt-rt32r/.venv/bin/python -c 'import sys; from hookwise.config.hookwise_command import portable_command; print(portable_command("claude"))' | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 CLAUDE_VIA=flag SIG=${2:-KILL}
export EXTRAENV="XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state"
[ "${1:-kill}" = kill ] && export WRAP=$here/kill_wrap.sh
/work/shared/e2e/run_claude.sh "kill-$1" 2>&1 | grep -E "rc=" | head -2
d=$(ls -td "$E2E_RUN_DIR"/claude-kill-* | head -1); echo "run dir $d"
[ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran" || echo "no marker (denied)"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('denials:', str(d.get('permission_denials'))[:200])" "$d/stdout.json" 2>&1 | head -2
pkill -f 'rt32r/home/.local/share/hook\[w\]ise' || true
