#!/usr/bin/env bash
# F5 (read side) in the hook: a link made on the line, then read through an input redirection
# or other reader; policy `no-env: files **/.env -> deny`. Prints the hook's decision and, when
# allowed, what bash printed. Run from the worktree root.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
B=/tmp/rt35m/a08; rm -rf "$B"; mkdir -p "$B/home/.config/hookwise" "$B/proj/.git"
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
unset HOOKWISE_USER_POLICY
printf 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n' > "$HOME/.config/hookwise/policy.yaml"
echo SECRET=hunter2 > "$B/proj/.env"; cd "$B/proj"
hook() { python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]}}))' "$B/proj" "$1" | "$HW" hook --host claude | python3 -c 'import sys,json; t=sys.stdin.read().strip(); print(json.loads(t)["hookSpecificOutput"]["permissionDecision"] if t else "allowed")'; }
for cmd in "ln -sf .env n.txt; cat < n.txt" "ln -sf .env n.txt; cat n.txt" "ln -sf .env n.txt; while read l; do echo \$l; done < n.txt" \
  "ln -sf .env n.txt; exec 3< n.txt; cat <&3" "ln -sf .env n.txt; grep SECRET < n.txt" "cat < .env"; do
  rm -f n.txt; d=$(hook "$cmd"); out=""; [ "$d" = allowed ] && out=$(bash -c "$cmd" 2>&1 | head -1)
  printf '  %-58s -> %-8s %s\n' "$cmd" "$d" "$out"
done
