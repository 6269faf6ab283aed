#!/usr/bin/env bash
# #1: inside `hookwise run`, one exec of a path made of N symlinks (farm.py) costs the
# supervisor's one exec-watch thread seconds of os.path.realpath, and every exec and signal
# of the session waits behind it; a hook's launcher exec past the host's 10 s.
# usage: realpath_stall.sh [control|once|onhook|loop] [N links] [calls]   (loop: LOOPERS=1)
#   once: time one refused exec (its wait = the decision), and a hook call started beside it
#   onhook: on_hook.py fires one such exec as each hook's shell starts; host.py times 3 calls
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD MODE=${1:-once} N=${2:-790} CALLS=${3:-3} here
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  python3 "$here/farm.py" /tmp/rt30r/farm-$N "$N" > /tmp/rt30r/farm-$N.path
  echo "farm: $N links, path $(wc -c < /tmp/rt30r/farm-$N.path) bytes"
  case $MODE in
    once)
      python3 "$here/stall_exec.py" /tmp/rt30r/farm-$N.path &
      exec 9<> <(:); read -t 1 -u 9   # (no exec: a sleep would wait too)
      s=$EPOCHREALTIME
      printf "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf build\"},\"cwd\":\"%s\",\"session_id\":\"s\"}" "$PWD" \
        | sh -c "$HOOK_CMD" >/tmp/rt30r/once.out 2>/dev/null; rc=$?; e=$EPOCHREALTIME
      echo "hook beside it (from $s): rc=$rc $(head -c 70 /tmp/rt30r/once.out) after $(echo "$e - $s" | bc) s"
      wait;;
    onhook)
      python3 "$here/on_hook.py" /tmp/rt30r/farm-$N.path 150 "${PER_HOOK:-2}" &
      python3 "$here/host.py" "$HOOK_CMD" "$PWD" "$CALLS" 0
      kill %1; wait;;
    loop)  # LOOPERS plain loops of the farm exec, no watcher
      for i in $(seq "${LOOPERS:-1}"); do python3 "$here/stall_exec.py" /tmp/rt30r/farm-$N.path 1000 > /dev/null & done
      python3 "$here/host.py" "$HOOK_CMD" "$PWD" "$CALLS" 0
      kill -9 -1;;
    control)
      python3 "$here/host.py" "$HOOK_CMD" "$PWD" "$CALLS" 0;;
  esac
  true' 2>&1 | cut -c1-300
