#!/usr/bin/env bash
# Inside `hookwise run`: the agent's autogroup at nice 19 (echo 19 > /proc/self/autogroup, a
# tool call's process) and LOOPS busy loops in an autogroup of their own (setsid): how long
# one hook call (the registered command, as the host runs it) takes, against the 10 s the
# installed hook is given. usage: run_autogroup_hook.sh [attack|control] [loops]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD MODE=${1:-attack} LOOPS=${2:-2}
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  if [ "$MODE" = attack ]; then
    echo 19 > /proc/self/autogroup && echo "agent autogroup: $(cat /proc/self/autogroup)"
    pids=; for i in $(seq "$LOOPS"); do setsid sh -c "while :; do :; done" & pids="$pids $!"; done
  fi
  sleep 1
  for i in 1 2 3; do
    s=$(date +%s.%N)
    printf "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf build\"},\"cwd\":\"%s\",\"session_id\":\"s\"}" "$PWD" \
      | timeout 10 sh -c "$HOOK_CMD" >/tmp/rt28r/ag.out 2>/dev/null; rc=$?
    e=$(date +%s.%N)
    echo "hook $i: rc=$rc ($( [ $rc = 124 ] && echo "host timeout: Claude Code runs the tool" || head -c 80 /tmp/rt28r/ag.out)) $(echo "$e - $s" | bc) s"
  done
  [ -n "${pids:-}" ] && kill $pids; true' 2>&1 | grep -v "^  " | cut -c1-300
