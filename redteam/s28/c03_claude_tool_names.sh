#!/usr/bin/env bash
# s28 c03: the names real Claude Code 2.1.330 gives MCP tools whose names are long or not
# ASCII (what the model calls and the hook sees), against the proxy's host_tool_name.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules
E2E=/work/shared/e2e
B=/tmp/rt28m/c03; rm -rf "$B"; mkdir -p "$B/home/.claude" "$B/proj" "$B/tmp"
export HOME=$B/home
LONG=write_file_$(printf 'x%.0s' $(seq 60))
EXTRA="$LONG,write_f$(printf '\xd1\x96')le,w\xc3\xa9rite"
python3 - "$B/proj/.mcp.json" "$HERE/pysrv.py" "$LONG" <<'PY'
import json, sys
names = [sys.argv[3], "write_f\u0456le", "w\u00e9rite", "a" * 40 + "_" + "b" * 40]
json.dump({"mcpServers": {"fs": {"command": "python3", "args": [sys.argv[2]],
           "env": {"RT_EXTRA_TOOLS": ",".join(names)}}}}, open(sys.argv[1], "w"))
PY
printf '{"enableAllProjectMcpServers": true}\n' > "$HOME/.claude/settings.json"
python3 -c 'import json,sys; print(json.dumps({"hasCompletedOnboarding": True, "projects": {sys.argv[1]: {"hasTrustDialogAccepted": True}}}))' "$B/proj" > "$HOME/.claude.json"
python3 "$E2E/fake_llm.py" --port 0 --port-file "$B/port" --log "$B/requests.jsonl" --cmd "true" > "$B/fake.out" 2>&1 &
FPID=$!; for _ in $(seq 100); do [ -f "$B/port" ] && break; sleep 0.05; done; PORT=$(cat "$B/port")
CL=$(ls "$NM"/@anthropic-ai/claude-code-*/claude | head -1)
(cd "$B/proj" && env -i PATH="$PATH" HOME="$HOME" TMPDIR="$B/tmp" TERM=dumb ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" \
  ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 \
  timeout 90 "$CL" -p hi --output-format json > "$B/claude.out" 2> "$B/claude.err" < /dev/null)
kill $FPID
python3 - "$B/requests.jsonl" <<'PY'
import json, sys
seen = set()
for line in open(sys.argv[1]):
    body = json.loads(line).get("body") or {}
    for t in body.get("tools", []) or []:
        if t.get("name", "").startswith("mcp__"):
            seen.add(t["name"])
for n in sorted(seen):
    print(f"  model sees: {n} ({len(n)} chars)")
PY
