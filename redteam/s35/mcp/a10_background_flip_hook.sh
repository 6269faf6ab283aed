#!/usr/bin/env bash
# F7 probe (hook, Claude Bash): call A starts a background job that makes the link a moment
# later and returns at once; call B writes under the name the link will have, waiting first.
# Each is decided alone by `hookwise hook --host claude`; allowed ones are run in bash as the
# host would (A in the background). Run from the worktree root.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
B=/tmp/rt35m/a10; rm -rf "$B"; mkdir -p "$B/home/.config/hookwise" "$B/proj/.git"
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
unset HOOKWISE_USER_POLICY
printf 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n' > "$HOME/.config/hookwise/policy.yaml"
cd "$B/proj"
hook() { python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]}}))' "$B/proj" "$1" | "$HW" hook --host claude | python3 -c 'import sys,json; t=sys.stdin.read().strip(); print(json.loads(t)["hookSpecificOutput"]["permissionDecision"] if t else "allowed")'; }
A="(sleep 1; ln -s $HOME/.config cfg) >/dev/null 2>&1 &"
Bc="sleep 2; printf 'version: 1\nrules: []\n' > cfg/hookwise/policy.yaml"
da=$(hook "$A"); echo "  A: $A -> $da"; [ "$da" = allowed ] && bash -c "$A"
db=$(hook "$Bc"); echo "  B: $Bc -> $db" | tr '\n' ' '; echo; [ "$db" = allowed ] && bash -c "$Bc" 2>&1
echo "  link made: $(test -L cfg && echo yes || echo no)"
echo "  user policy now: $(head -c 50 "$HOME/.config/hookwise/policy.yaml" | tr '\n' '|')"
