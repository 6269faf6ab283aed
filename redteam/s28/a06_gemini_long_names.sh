#!/usr/bin/env bash
# s28 a06: a tool whose Gemini name is truncated (c05: mcp_fs_write_file_xxxxxxxxxxxx...<30 x>)
# against `mcp: {server: fs, tool: <its name>}`: the hook (Gemini BeforeTool, whose
# mcp_context carries the uncut name, as Gemini 0.61.0 sends it) holds; the native export
# writes the uncut name, which Gemini's policy engine compares with the cut call name.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
B=/tmp/rt28m/a06; rm -rf "$B"; mkdir -p "$B/proj/.git" "$B/home/.config/hookwise"
LONG=write_file_$(printf 'x%.0s' $(seq 60))
TRUNC=$(python3 -c 'import sys; n="mcp_fs_"+sys.argv[1]; print(n[:30]+"..."+n[-30:])' "$LONG")
printf 'version: 1\nrules:\n  - id: no-long\n    match: {mcp: {server: fs, tool: %s}}\n    action: deny\n' "$LONG" > "$B/home/.config/hookwise/policy.yaml"
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state; cd "$B/proj"
for name in "mcp_fs_$LONG" "$TRUNC"; do
  python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[2],"hook_event_name":"BeforeTool","tool_name":sys.argv[1],"tool_input":{"path":"notes.txt","content":"x"},"mcp_context":{"server_name":"fs","tool_name":sys.argv[3]}}))' "$name" "$B/proj" "$LONG" \
    | "$HW" hook --host gemini | cut -c1-120; echo " <- hook, gemini tool $name"
done
echo "== export --host gemini"; "$HW" policy export --host gemini 2>&1 | grep -E "toolName|mcpName|covered|partial" | head -5
