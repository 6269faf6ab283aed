#!/usr/bin/env bash
# s29 b09: the hook decides a Write through a link on where the link points at that moment;
# Claude's Write runs after the answer. With cfg -> real: allowed; cfg -> ~/.config: denied.
# (b07/b08's race, for the host's own file tools: the flip loop decides which one it sees.)
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
B=/tmp/rt29m/b09; rm -rf "$B"; mkdir -p "$B/home/.config/hookwise" "$B/proj/.git" "$B/proj/real/hookwise"
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
unset HOOKWISE_USER_POLICY
printf 'version: 1\nrules:\n  - id: no-rm-r\n    match: {tool: shell, command: rm -r}\n    action: deny\n' > "$HOME/.config/hookwise/policy.yaml"
cd "$B/proj"
hook() { python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":sys.argv[2],"content":"version: 1\nrules: []\n"}}))' "$B/proj" "$1" | "$HW" hook --host claude | cut -c1-120; echo " rc=$?"; }
ln -sfn real cfg;            echo "cfg -> real:      $(hook "$B/proj/cfg/hookwise/policy.yaml")"
ln -sfn "$HOME/.config" cfg; echo "cfg -> ~/.config: $(hook "$B/proj/cfg/hookwise/policy.yaml")"
