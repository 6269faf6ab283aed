#!/usr/bin/env bash
# freeze_hooks.sh with the real Claude Code 2.1.330 (no `hookwise run`): hookwise's portable
# command, a 10 s timeout; with `freeze` the loop of freeze_wrap.sh runs beside the CLI.
# usage: e2e_freeze.sh [freeze|control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-/tmp/rt30r/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-90}
mkdir -p "$E2E_RUN_DIR"
HOOK_CMD=$(/work/wt-rt33r/.venv/bin/python -c 'from hookwise.config.hookwise_command import portable_command; print(portable_command("claude"))' | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 CLAUDE_VIA=flag
export EXTRAENV="XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state"
[ "${1:-freeze}" = freeze ] && export WRAP=$here/freeze_wrap.sh
t0=$(date +%s)
/work/shared/e2e/run_claude.sh "freeze-$1" 2>&1 | grep -E "rc=" | head -2
echo "took $(( $(date +%s) - t0 )) s"
d=$(ls -td "$E2E_RUN_DIR"/claude-freeze-* | head -1); echo "run dir $d"
[ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran" || echo "no marker (denied)"
/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('denials:', str(d.get('permission_denials'))[:200])" "$d/stdout.json" 2>&1 | head -2
G=/sys/fs/cgroup/freezer/rt33r
if [ -d $G ]; then echo THAWED > $G/freezer.state; sleep 1; for p in $(cat $G/tasks); do kill -KILL $p; done; sleep 0.5; rmdir $G 2>/dev/null; fi
