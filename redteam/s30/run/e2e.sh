#!/usr/bin/env bash
# #1 and #2 against the real Claude Code 2.1.330 inside `hookwise run`: the registered hook
# with hookwise's installed 10 s timeout; stall_wrap.sh (#1: on_hook.py) or subst_wrap.sh
# (#2: hold_subst.py) beside the CLI. usage: e2e.sh [stall|subst|control]
# (E2E_NODE_MODULES: the e2e install, /work/shared/e2e/install.sh /tmp/rt30r/e2e-nm)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-$RT/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-200}
mkdir -p "$E2E_RUN_DIR"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json" | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 CLAUDE_VIA=${CLAUDE_VIA:-flag} here
case ${1:-stall} in stall) export WRAP=$here/stall_wrap.sh;; subst) export WRAP=$here/subst_wrap.sh;; esac
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  python3 "$here/farm.py" /tmp/rt30r/farm-790 790 > /tmp/rt30r/farm-790.path
  /work/shared/e2e/run_claude.sh stall 2>&1 | grep -E "marker|rc="
  d=$(ls -td $E2E_RUN_DIR/claude-stall-* | head -1); echo "run dir $d"
  ls "$d"; [ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(\"result:\", str(d.get(\"result\"))[:200]); print(\"denials:\", d.get(\"permission_denials\"))" "$d/stdout.json" 2>&1 | head -3
  kill -9 -1 2>/dev/null; true' 2>&1 | grep -v "^  " | cut -c1-400
