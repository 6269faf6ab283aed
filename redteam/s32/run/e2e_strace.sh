#!/usr/bin/env bash
# #3b with the real Claude Code 2.1.330 (no `hookwise run`): the CLI under the strace of
# strace_host.sh (started with it here, as the attached one would be: every process's
# second execve fails with ENOENT); hookwise's portable command, 10 s timeout.
# usage: e2e_strace.sh [strace|control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-/tmp/rt30r/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-120}
mkdir -p "$E2E_RUN_DIR"
HOOK_CMD=$(/work/wt-rt32r/.venv/bin/python -c 'import sys; from hookwise.config.hookwise_command import portable_command; print(portable_command("claude"))' | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 CLAUDE_VIA=flag
export EXTRAENV="XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state"
[ "${1:-strace}" = strace ] && export WRAP="strace -f -qq -e trace=execve -e inject=execve:error=ENOENT:when=2 -o /dev/null"
/work/shared/e2e/run_claude.sh "strace-$1" 2>&1 | grep -E "rc=" | head -2
d=$(ls -td "$E2E_RUN_DIR"/claude-strace-* | head -1); echo "run dir $d"
[ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran" || echo "no marker (denied)"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('denials:', str(d.get('permission_denials'))[:160])" "$d/stdout.json" 2>&1 | head -2
