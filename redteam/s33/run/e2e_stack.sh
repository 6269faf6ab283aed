#!/usr/bin/env bash
# stack_host.py with the real Claude Code 2.1.330 (no `hookwise run`): hookwise's portable
# command, a 10 s timeout; with `freeze` the loop of stack_wrap.sh runs beside the CLI.
# usage: e2e_freeze.sh [stack|control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-/tmp/rt30r/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-90}
mkdir -p "$E2E_RUN_DIR"
HOOK_CMD=$(/work/wt-rt33r/.venv/bin/python -c 'from hookwise.config.hookwise_command import portable_command; print(portable_command("claude"))' | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 CLAUDE_VIA=flag
export EXTRAENV="XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state"
[ "${1:-stack}" = stack ] && export WRAP=$here/stack_wrap.sh
t0=$(date +%s)
/work/shared/e2e/run_claude.sh "stack-$1" 2>&1 | grep -E "rc=" | head -2
echo "took $(( $(date +%s) - t0 )) s"
d=$(ls -td "$E2E_RUN_DIR"/claude-stack-* | head -1); echo "run dir $d"
[ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran" || echo "no marker (denied)"
/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('denials:', str(d.get('permission_denials'))[:200])" "$d/stdout.json" 2>&1 | head -2
