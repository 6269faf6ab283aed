#!/usr/bin/env bash
# s28 a03: after an MCP move tool moved ~/.config away (a02, the second row: allowed), the
# next `hookwise hook` process (Claude Code's Bash) finds no user policy: `rm -rf` passes.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
B=/tmp/rt28m/a03; rm -rf "$B"; mkdir -p "$B/home/.config/hookwise" "$B/proj/.git" "$B/victim"
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
unset HOOKWISE_USER_POLICY
printf 'version: 1\nrules:\n  - id: no-rm-r\n    match: {tool: shell, command: rm -r}\n    action: deny\n' > "$HOME/.config/hookwise/policy.yaml"
payload() { python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]}}))' "$B/proj" "$1"; }
cd "$B/proj"
echo "== before: rm -rf victim"; payload "rm -rf $B/victim" | "$HW" hook --host claude; echo " rc=$?"
echo "== an MCP move_file of ~/.config (the proxy allows it: a02), done here with mv"
mv "$HOME/.config" "$B/bak"
echo "== after: rm -rf victim"; payload "rm -rf $B/victim" | "$HW" hook --host claude; echo " rc=$?"
