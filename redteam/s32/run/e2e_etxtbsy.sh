#!/usr/bin/env bash
# #5 with the real Claude Code 2.1.330 (no `hookwise run`): the launcher's interpreter (the
# copy of etxtbsy.sh) held open for writing beside the CLI; portable command, 10 s timeout.
# usage: e2e_etxtbsy.sh [hold|control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-/tmp/rt30r/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-120}
mkdir -p "$E2E_RUN_DIR"
L=$HOME/.local/share/hookwise/hook; export PY=$RT/venv2/bin/python3
[ -x "$PY" ] || /root/.pyenv/versions/3.11.7/bin/python3.11 -m venv --copies --without-pip "$RT/venv2"
cp -p "$L" "$RT/launcher.bak"; sed -i "1s#^\#!/[^ ]*#\#!$PY#" "$L"
HOOK_CMD=$(/work/wt-rt32r/.venv/bin/python -c 'import sys; from hookwise.config.hookwise_command import portable_command; print(portable_command("claude"))' | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=${HOOK_TAP:-0} HOOK_TIMEOUT=10 CLAUDE_VIA=flag
export EXTRAENV="XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state XDG_CACHE_HOME=$HOME/.cache"
[ "${1:-hold}" = hold ] && export WRAP=$here/etx_wrap.sh
/work/shared/e2e/run_claude.sh "etx-$1" 2>&1 | grep -E "rc=" | head -2
d=$(ls -td "$E2E_RUN_DIR"/claude-etx-* | head -1); echo "run dir $d"
[ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran" || echo "no marker (denied)"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('denials:', str(d.get('permission_denials'))[:160])" "$d/stdout.json" 2>&1 | head -2
cp -p "$RT/launcher.bak" "$L" && echo "launcher restored"
for p in $(pgrep -x sleep); do ls -l /proc/$p/fd 2>/dev/null | grep -q venv2 && kill "$p"; done  # (the holder)
