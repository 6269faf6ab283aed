#!/usr/bin/env bash
# #1 against the real Claude Code 2.1.330 (CLI=codex: Codex 0.169) inside `hookwise run` (or without it: plain):
# hookwise's portable command with install's 10 s timeout; lease_wrap.sh beside the CLI.
# usage: e2e.sh [lease|control] [session|plain]
# (E2E_NODE_MODULES: an e2e install, /work/shared/e2e/install.sh DIR)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-/tmp/rt30r/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-120}
mkdir -p "$E2E_RUN_DIR"
HOOK_CMD=$(/work/wt-rt31r/.venv/bin/python -c 'import sys; from hookwise.config.hookwise_command import portable_command; print(portable_command(sys.argv[1]))' "${CLI:-claude}" | sed "s#\$HOME#$HOME#")
export CLI=${CLI:-claude} HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 CLAUDE_VIA=flag here
[ "${1:-lease}" = lease ] && export WRAP=$here/lease_wrap.sh
[ "${2:-session}" = plain ] && export EXTRAENV="XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state"
run='/work/shared/e2e/run_${CLI:-claude}.sh lease 2>&1 | grep -E "marker|rc="
  d=$(ls -td $E2E_RUN_DIR/${CLI:-claude}-lease-* | head -1); echo "run dir $d"
  [ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran" || echo "no marker"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(\"result:\", str(d.get(\"result\"))[:200]); print(\"denials:\", str(d.get(\"permission_denials\"))[:300])" "$d/stdout.json" 2>&1 | head -3
  true'
cd "$PROJ"
if [ "${2:-session}" = session ]; then
  "$HW" run --host claude -- bash -c "$run" 2>&1 | fold -w 300 | head -20
else
  bash -c "$run"
fi
