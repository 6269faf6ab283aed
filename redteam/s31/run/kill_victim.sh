#!/usr/bin/env bash
# #3: inside `hookwise run`, the pipe-holder check that runs as each launched hook answers on
# a pipe (Codex; host.py here) walks the session first (every thread's `children` file of
# every process, unbounded) inside its 0.5 s budget, and kills every process it did not get
# to read. Two processes of THREADS idle threads each makes that walk overrun the budget: an innocent
# process of the session (a stand-in dev server holding a few files) is killed as each hook
# answers. usage: kill_victim.sh [THREADS, 6000]   (0: control)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
export HOOK_CMD THREADS=${1:-6000} here
cd "$PROJ"
"$HW" run --host claude -- bash -c '
  /bin/true; python3 -c "import time; f=[open(\"/dev/null\") for _ in range(40)]; time.sleep(120)" devserver &
  victim=$!
  for i in 1 2; do [ "$THREADS" -gt 0 ] && python3 "$here/threads.py" "$THREADS" 120 & done; [ "$THREADS" -gt 0 ] && sleep 25
  python3 "$here/host.py" "$HOOK_CMD" "$PWD" 1 0
  sleep 1
  sleep 2; st=$(cut -d" " -f3 /proc/$victim/stat 2>/dev/null); if [ -n "$st" ] && [ "$st" != Z ]; then echo "victim (devserver, pid $victim) alive"; else echo "VICTIM KILLED (devserver, pid $victim)"; fi
  kill -9 -1 2>/dev/null; true' 2>&1 | fold -w 300 | head -20
