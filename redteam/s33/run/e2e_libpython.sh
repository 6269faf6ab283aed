#!/usr/bin/env bash
# libpython.sh with the real Claude Code 2.1.330 (no `hookwise run`): in a private mount
# namespace where libpython is a bind of a private copy, the copy is truncated (what the
# allowed `truncate -s 0 <libpython>` of libpython.sh does), then the CLI runs with hookwise's
# portable command (10 s). The harness's own Python is the system one (/usr/bin/python3).
# usage: e2e_libpython.sh [truncate|control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
LIB=/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0
HOOK_CMD=$(/work/wt-rt33r/.venv/bin/python -c 'from hookwise.config.hookwise_command import portable_command; print(portable_command("claude"))' | sed "s#\$HOME#$HOME#")
if [ "${INNER-}" != 1 ]; then
  cp "$LIB" "$RT/libpython.copy"
  export HOOK_CMD; exec env INNER=1 unshare -m --propagation private "$0" "$@"
fi
mount --bind "$RT/libpython.copy" "$LIB"
export PATH=$(dirname "$(command -v node)"):/usr/bin:/bin  # (the harness's python3: the system one)
[ "${1:-truncate}" = truncate ] && truncate -s 0 "$LIB"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-/tmp/rt30r/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-90}
export E2E_PATH="$(dirname "$(command -v node)"):/usr/local/bin:/usr/bin:/bin"
mkdir -p "$E2E_RUN_DIR"
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10 CLAUDE_VIA=flag
export EXTRAENV="XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state"
/work/shared/e2e/run_claude.sh "libpy-$1" 2>&1 | grep -E "rc=" | head -2
d=$(ls -td "$E2E_RUN_DIR"/claude-libpy-* | head -1); echo "run dir $d"
[ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran" || echo "no marker (denied)"
/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('denials:', str(d.get('permission_denials'))[:120])" "$d/stdout.json" 2>&1 | head -2
