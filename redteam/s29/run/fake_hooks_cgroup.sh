#!/usr/bin/env bash
# #1: inside `hookwise run`, a process of the session execs the registered command itself
# (`bash -c '<the command>'`) with BASH_ENV (or HOME) of its own choosing. The exec watch
# takes it for a hook and moves it into the hooks' CPU cgroup; bash then runs BASH_ENV's
# busy loop there, beside every later real hook. How long one real hook call takes.
# usage: fake_hooks_cgroup.sh [fake|plain|control] [n]
#   fake: N busy loops started as "hooks" (BASH_ENV); plain: N busy loops (setsid) in the
#   session's cgroup (what s28 #4's fix addressed); control: nothing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD MODE=${1:-fake} N=${2:-6}
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  printf "while :; do :; done\n" > /tmp/rt29r/busy.sh
  pids=
  for i in $(seq "$N"); do
    case $MODE in
      fake) BASH_ENV=/tmp/rt29r/busy.sh bash -c "$HOOK_CMD" </dev/null >/dev/null 2>&1 & pids="$pids $!";;
      plain) setsid sh -c "while :; do :; done" & pids="$pids $!";;
    esac
  done
  sleep 1
  for p in $pids; do echo "loop $p: $(cat /proc/$p/cgroup | grep -E "^[0-9]+:cpu[,:]|^0::" | head -1) $(ps -o stat=,comm= -p $p)"; done
  echo "agent: $(grep -E "^[0-9]+:cpu[,:]|^0::" /proc/self/cgroup | head -1)"
  for i in 1 2 3; do
    s=$(date +%s.%N)
    printf "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf build\"},\"cwd\":\"%s\",\"session_id\":\"s\"}" "$PWD" \
      | timeout 10 sh -c "$HOOK_CMD" >/tmp/rt29r/fh.out 2>/dev/null; rc=$?
    e=$(date +%s.%N)
    echo "hook $i: rc=$rc ($( [ $rc = 124 ] && echo "host timeout: Claude Code runs the tool" || head -c 80 /tmp/rt29r/fh.out)) $(echo "$e - $s" | bc) s"
  done
  if [ -n "$pids" ]; then kill $pids 2>&1 | head -3; sleep 0.5; for p in $pids; do [ -d /proc/$p ] && echo "loop $p still alive after kill"; done; fi
  true' 2>&1 | cut -c1-300
