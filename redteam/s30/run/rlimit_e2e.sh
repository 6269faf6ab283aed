#!/usr/bin/env bash
# #5 against the real Claude Code 2.1.330 without `hookwise run` (a plain hook setup):
# hookwise's portable command, 10 s timeout; rlimit_wrap.sh sets the CLI's RLIMIT_STACK
# before its tool call. usage: rlimit_e2e.sh [attack|control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-$RT/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=60
HOOK_CMD=$(/work/wt-rt30r/.venv/bin/python -c 'from hookwise.config.hookwise_command import portable_command; print(portable_command("claude"))' | sed "s#\$HOME#$HOME#")
# (the CLI's HOME is the run's: the trust store of this red team's home through XDG_CONFIG_HOME,
# which the host is started with, so the hook takes it)
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 CLAUDE_VIA=flag EXTRAENV="XDG_CONFIG_HOME=$HOME/.config"
rm -f "$RT/rlimit_wrap.out"
[ "${1:-attack}" = attack ] && export WRAP=$here/rlimit_wrap.sh
/work/shared/e2e/run_claude.sh rlimit 2>&1 | grep -E "marker|rc="
d=$(ls -td "$E2E_RUN_DIR"/claude-rlimit-* | head -1)
[ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran"
cat "$RT/rlimit_wrap.out" 2>/dev/null
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('result:', str(d.get('result'))[:150]); print('denials:', d.get('permission_denials'))" "$d/stdout.json"
