#!/usr/bin/env bash
# s28 a05: the hook's Claude ReadMcpResourceTool of a `.env` under a scheme other than file:
# (a template server's fs:///{+path}, workspace://{+path}) passes `files: **/.env`.
B=/tmp/rt28m/a05; rm -rf "$B"; mkdir -p "$B/proj/.git" "$B/home/.config/hookwise"
HW=${HOOKWISE_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/.venv/bin/hookwise}
printf 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n' > "$B/home/.config/hookwise/policy.yaml"
cd "$B/proj"; export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state
for u in "file://$B/proj/.env" "fs://$B/proj/.env" "workspace://.env"; do
  python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[2],"hook_event_name":"PreToolUse","tool_name":"ReadMcpResourceTool","tool_input":{"server":"fs","uri":sys.argv[1]}}))' "$u" "$B/proj" | "$HW" hook --host claude | cut -c1-150
  echo " <- $u"
done
