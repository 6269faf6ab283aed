#!/usr/bin/env bash
# #6: inside `hookwise run`, processes of the session run hookwise's own launcher as
# registered (`--platform claude`, no LD_*: "accounted") on a 1.8 MB command that takes it
# the whole 7 s deadline: each is moved into the hooks' CPU cgroup and protected from its
# siblings' signals, as a hook. N loops of them; then real hook calls timed (host.py).
# usage: fake_launchers.sh [N, 0 = control] [calls]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD N=${1:-1} CALLS=${2:-2} here
cd "$PROJ"
python3 -c "
import json,sys; print(json.dumps({'hook_event_name':'PreToolUse','tool_name':'Bash','tool_input':{'command':'echo '+'a\$(b) '*300000},'cwd':sys.argv[1],'session_id':'s'}))" "$PWD" > "$RT/big.json"
"$HW" run --host claude -- bash -c '
  L=$HOME/.local/share/hookwise/hook
  for i in $(seq "$N"); do (while :; do "$L" --platform claude < "$RT/big.json" >/dev/null 2>&1; done) & done
  sleep 2
  ps -eo pid,args | grep -c "hook --platform"; for p in $(ps -eo pid,args | grep "[h]ook --platform claude" | awk "{print \$1}" | head -3); do
    echo "fake hook $p: $(grep -E "^[0-9]+:cpu[,:]" /proc/$p/cgroup) $(kill -0 $p && kill -STOP $p 2>&1 || true)"
  done
  [ "$N" -gt 0 ] && [ "$CALLS" = 0 ] && exit 0
  python3 "$here/host.py" "$HOOK_CMD" "$PWD" "$CALLS" 0
  kill -9 -1 2>/dev/null; true' 2>&1 | cut -c1-300
