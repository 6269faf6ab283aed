#!/usr/bin/env bash
# s28 c04: does real Claude Code 2.1.330 start servers from a .mcp.json ABOVE the project
# (a parent directory, as /tmp or a shared checkout root)? and do doctor/scan see them?
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules; E2E=/work/shared/e2e
B=/tmp/rt28m/c04; rm -rf "$B"; mkdir -p "$B/home/.claude" "$B/home/.config/hookwise" "$B/up/proj" "$B/tmp"
P=$B/up/proj; (cd "$P" && git init -q .)
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
printf 'version: 1\nrules: []\n' > "$HOME/.config/hookwise/policy.yaml"
cat > "$B/srv.py" <<PY
import os
parent = open(f"/proc/{os.getppid()}/cmdline", "rb").read().replace(b"\0", b" ").decode()
open("$B/started.log", "a").write(f"server started by: {parent[:120]}\n")
os.execvp("python3", ["python3", "$HERE/pysrv.py"])
PY
printf '{"mcpServers": {"above": {"command": "python3", "args": ["%s/srv.py"]}}}\n' "$B" > "$B/up/.mcp.json"
printf '{"enableAllProjectMcpServers": true}\n' > "$HOME/.claude/settings.json"
python3 -c 'import json,sys; print(json.dumps({"hasCompletedOnboarding": True, "projects": {sys.argv[1]: {"hasTrustDialogAccepted": True}}}))' "$P" > "$HOME/.claude.json"
CL=$(ls "$NM"/@anthropic-ai/claude-code-*/claude | head -1)
(cd "$P" && timeout 60 "$CL" mcp list 2>&1 | grep -v "^$" | head -3)
python3 "$E2E/fake_llm.py" --port 0 --port-file "$B/port" --log "$B/requests.jsonl" --cmd "true" > "$B/fake.out" 2>&1 &
FPID=$!; for _ in $(seq 100); do [ -f "$B/port" ] && break; sleep 0.05; done; PORT=$(cat "$B/port")
(cd "$P" && env -i PATH="$PATH" HOME="$HOME" TMPDIR="$B/tmp" TERM=dumb ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" \
  ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 \
  timeout 90 "$CL" -p hi --output-format json > "$B/claude.out" 2> "$B/claude.err" < /dev/null)
kill $FPID
echo "== started.log:"; cat "$B/started.log" 2>/dev/null || echo "(server not started)"
cd "$P"; "$HW" doctor 2>&1 | grep -iE "mcp" | head -5; "$HW" scan 2>&1 | grep -iE "mcp|finding" | head -5
