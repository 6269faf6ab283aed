#!/usr/bin/env bash
# s29 b04: the hook (Claude Code's PreToolUse) on b01-b03's calls: the same readings.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
B=/tmp/rt29m/b04; rm -rf "$B"; mkdir -p "$B/home/.config/hookwise" "$B/proj/.git"
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
unset HOOKWISE_USER_POLICY
printf 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n' > "$HOME/.config/hookwise/policy.yaml"
echo SECRET=hunter2 > "$B/proj/.env"; cd "$B/proj"
hook() { python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":sys.argv[2],"tool_input":json.loads(sys.argv[3])}))' "$B/proj" "$1" "$2" | "$HW" hook --host claude | python3 -c 'import sys,json; t=sys.stdin.read().strip(); print(json.loads(t)["hookSpecificOutput"]["permissionDecision"] if t else "(no decision: allowed)")'; }
P=$B/proj
for t in \
  "ReadMcpResourceTool|{\"server\":\"fs\",\"uri\":\"fs://$P/.env\"}|control (s28 F9)" \
  "ReadMcpResourceTool|{\"server\":\"fs\",\"uri\":\"q://read?name=.env\"}|query template" \
  "mcp__fs__read_resource|{\"uri\":\"fs://$P/.env\"}|tool arg, fs scheme" \
  "mcp__fs__read_resource|{\"uri\":\"workspace://.env\"}|tool arg, workspace scheme" \
  "mcp__fs__read_file|{\"path\":\"$P/.en?\"}|glob in path" \
  "mcp__fs__grep|{\"pattern\":\"SECRET\",\"path\":\"$P\"}|grep tool over the directory" \
  "mcp__fs__read_many|{\"items\":[{\"name\":\"$P/.env\"}]}|nested name" \
  ; do IFS='|' read -r tool input label <<<"$t"; printf '  %-45s %-24s -> %s\n' "$label" "$tool" "$(hook "$tool" "$input")"; done
