#!/usr/bin/env bash
# #1 and #2 against the real Claude Code 2.1.330 inside `hookwise run`: the registered hook
# with hookwise's installed 10 s timeout; stall_wrap.sh (#1: on_hook.py) or subst_wrap.sh
# (#2: hold_subst.py) or hoard_wrap.sh (#3) beside the CLI. usage: e2e.sh [stall|subst|hoard|control]
# (E2E_NODE_MODULES: the e2e install, /work/shared/e2e/install.sh /tmp/rt30r/e2e-nm)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-$RT/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-200}
mkdir -p "$E2E_RUN_DIR"
CLI=${CLI:-claude}  # or codex (hookwise's portable command for it, run with `bash -c`)
HOOK_CMD=$(/work/wt-rt30r/.venv/bin/python -c 'import sys; from hookwise.config.hookwise_command import portable_command; print(portable_command(sys.argv[1]))' "$CLI" | sed "s#\$HOME#$HOME#")
rm -f "$RT/hold_host"; echo "${HOARD_PROCS:-50}" > "$RT/hoard_procs"; [ "$CLI" = codex ] && echo - > "$RT/hold_host"  # (hoard_wrap.sh)
export CLI HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 CLAUDE_VIA=${CLAUDE_VIA:-flag} here
case ${1:-stall} in stall) export WRAP=$here/stall_wrap.sh;; subst) export WRAP=$here/subst_wrap.sh;; hoard) export WRAP=$here/hoard_wrap.sh;; esac
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  python3 "$here/farm.py" /tmp/rt30r/farm-790 790 > /tmp/rt30r/farm-790.path
  /work/shared/e2e/run_$CLI.sh stall 2>&1 | grep -E "marker|rc="
  d=$(ls -td $E2E_RUN_DIR/$CLI-stall-* | head -1); echo "run dir $d"
  ls "$d"; [ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(\"result:\", str(d.get(\"result\"))[:200]); print(\"denials:\", d.get(\"permission_denials\"))" "$d/stdout.json" 2>&1 | head -3
  [ -f "$d/stdout.jsonl" ] && grep -o "\"aggregated_output\":\"[^\"]*\"\|Command blocked[^\"]*" "$d/stdout.jsonl" | head -3
  kill -9 -1 2>/dev/null; true' 2>&1 | grep -v "^  " | cut -c1-400
