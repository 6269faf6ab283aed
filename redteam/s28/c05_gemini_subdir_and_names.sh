#!/usr/bin/env bash
# s28 c05: real Gemini CLI 0.61.0 started in a project's subdirectory runs the
# subdirectory's .gemini/settings.json server, not the root's wrapped one; and the names
# Gemini gives MCP tools (long ones truncated), as the model and the BeforeTool hook see them.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules; E2E=/work/shared/e2e
B=/tmp/rt28m/c05; rm -rf "$B"; mkdir -p "$B/home/.gemini" "$B/home/.config/hookwise" "$B/proj/.hookwise" "$B/proj/.gemini" "$B/proj/pkg/.gemini" "$B/tmp"
P=$B/proj; (cd "$P" && git init -q .)
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
printf 'version: 1\nrules: []\n' > "$HOME/.config/hookwise/policy.yaml"; printf 'version: 1\nrules: []\n' > "$P/.hookwise/policy.yaml"
cat > "$P/srv.py" <<PY
import os
parent = open(f"/proc/{os.getppid()}/cmdline", "rb").read().replace(b"\0", b" ").decode()
open("$B/started.log", "a").write(f"server started by: {parent[:120]}\n")
os.execvp("python3", ["python3", "$HERE/pysrv.py"])
PY
LONG=write_file_$(printf 'x%.0s' $(seq 60))
entry() { printf '{"mcpServers": {"fs": {"command": "python3", "args": ["%s/srv.py"], "env": {"RT_EXTRA_TOOLS": "%s,files.write"}}}}\n' "$P" "$LONG"; }
entry > "$P/.gemini/settings.json"; (cd "$P" && "$HW" install gemini --mcp --scope project > /dev/null)
entry > "$P/pkg/.gemini/settings.json"
cat > "$HOME/.gemini/settings.json" <<'JSON'
{"security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": false},
 "telemetry": {"enabled": false}, "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}}
JSON
python3 "$E2E/fake_llm.py" --port 0 --port-file "$B/port" --log "$B/requests.jsonl" --cmd "true" > "$B/fake.out" 2>&1 &
FPID=$!; for _ in $(seq 100); do [ -f "$B/port" ] && break; sleep 0.05; done; PORT=$(cat "$B/port")
run() { (cd "$1" && env -i PATH="$PATH" HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_STATE_HOME="$XDG_STATE_HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME" \
  TMPDIR="$B/tmp" TERM=dumb GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" GEMINI_API_KEY=dummy GEMINI_CLI_TRUST_WORKSPACE=true \
  timeout 90 "$NM/.bin/gemini" -p hi --yolo -o json > "$B/gemini.out" 2> "$B/gemini.err" < /dev/null); }
echo "== gemini -p in proj"; : > "$B/started.log"; run "$P"; cat "$B/started.log"
echo "== gemini -p in proj/pkg"; : > "$B/started.log"; : > "$B/requests.jsonl"; run "$P/pkg"; cat "$B/started.log"
kill $FPID
python3 - "$B/requests.jsonl" <<'PY'
import json, re, sys
names = set()
for line in open(sys.argv[1]):
    names |= set(re.findall(r'"name": "(mcp_[^"]*)"', json.dumps(json.loads(line).get("body"))))
for n in sorted(names):
    print(f"  model sees: {n} ({len(n)} chars)")
PY
cd "$P/pkg"; echo "== doctor/scan in proj/pkg"; "$HW" doctor 2>&1 | grep -iE "mcp" | head -4; "$HW" scan 2>&1 | grep -iE "finding" | head -3
