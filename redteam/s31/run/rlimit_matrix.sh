#!/usr/bin/env bash
# #2 (no `hookwise run`): the real registered hook (claude's portable command) run under
# each resource limit a tool call could set on its host (prlimit --pid <host>, or any
# program calling prlimit64/setrlimit), the event a denied `rm -rf build`. A host takes
# any status but 0 and 2 (and a signal) as a non-blocking error: the tool runs.
# usage: rlimit_matrix.sh ["--nofile=8" ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' "$PROJ/.claude/settings.json")
cd "$PROJ"
event=$(printf '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build"},"cwd":"%s","session_id":"s"}' "$PWD")
[ $# -gt 0 ] || set -- "" --nofile=3 --nofile=5 --nofile=8 --nofile=12 --nofile=16 --nofile=24 --as=50000000 --as=150000000 --data=20000000 --data=60000000 --cpu=1 --sigpending=0 --nproc=1 --fsize=0 --memlock=0 --stack=65536
for lim in "$@"; do
  start=$(date +%s.%N)
  out=$(printf '%s' "$event" | prlimit $lim -- /bin/sh -c "$HOOK_CMD" 2> >(cat > "$RT/err")); rc=$?; sleep 0.2
  took=$(python3 -c "import time; print(f'{time.time()-$start:.2f}')")
  verdict=$(printf '%s' "$out" | grep -o '"permissionDecision":"[a-z]*"' || true)
  printf '%-22s rc=%-3s %ss %s | %s\n' "${lim:-(none)}" "$rc" "$took" "${verdict:-no decision}" "$(tr '\n' ' ' < "$RT/err" | cut -c1-150)"
done
