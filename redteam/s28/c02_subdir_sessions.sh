#!/usr/bin/env bash
# s28 c02: real Claude Code 2.1.330 and Codex 0.169.0 sessions started in a project's
# subdirectory run the subdirectory's own MCP entry for `fs`, not the root's entry that
# `hookwise install --mcp` wrapped (doctor: ok, scan: 0, install: already).
# Each server start is logged with its parent's command line (started.log).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
WT=$(cd "$HERE/../.." && pwd)
HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules
E2E=/work/shared/e2e
B=/tmp/rt28m/c02; rm -rf "$B"; mkdir -p "$B/home/.codex" "$B/home/.claude" "$B/home/.config/hookwise" "$B/proj/.hookwise" "$B/proj/pkg" "$B/tmp"
P=$B/proj
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache CODEX_HOME=$B/home/.codex
unset HOOKWISE_USER_POLICY
printf 'version: 1\nrules:\n  - id: no-wf\n    match: {mcp: {server: fs, tool: write_file}}\n    action: deny\n' > "$HOME/.config/hookwise/policy.yaml"
printf 'version: 1\nrules: []\n' > "$P/.hookwise/policy.yaml"
(cd "$P" && git init -q .)
cat > "$P/srv.py" <<PY
import os, sys
parent = open(f"/proc/{os.getppid()}/cmdline", "rb").read().replace(b"\0", b" ").decode()
open("$B/started.log", "a").write(f"server started by: {parent[:160]}\n")
os.execvp("python3", ["python3", "$HERE/pysrv.py"])
PY
printf '{"mcpServers": {"fs": {"command": "python3", "args": ["%s/srv.py"]}}}\n' "$P" > "$P/.mcp.json"
mkdir -p "$P/.codex"; printf '[mcp_servers.fs]\ncommand = "python3"\nargs = ["%s/srv.py"]\n' "$P" > "$P/.codex/config.toml"
(cd "$P" && "$HW" install claude --mcp --scope project >/dev/null && "$HW" install codex --mcp --scope project > /dev/null)
# the repository's subdirectory: the same server, its own entry
printf '{"mcpServers": {"fs": {"command": "python3", "args": ["%s/srv.py"]}}}\n' "$P" > "$P/pkg/.mcp.json"
mkdir -p "$P/pkg/.codex"; printf '[mcp_servers.fs]\ncommand = "python3"\nargs = ["%s/srv.py"]\n' "$P" > "$P/pkg/.codex/config.toml"
# the user approved the project's servers and trusts the workspace (s26 F8's setup)
printf '{"enableAllProjectMcpServers": true}\n' > "$HOME/.claude/settings.json"
python3 -c 'import json,sys; print(json.dumps({"hasCompletedOnboarding": True, "projects": {d: {"hasTrustDialogAccepted": True} for d in sys.argv[1:]}}))' "$P" "$P/pkg" > "$HOME/.claude.json"
printf '[projects."%s"]\ntrust_level = "trusted"\n' "$P" >> "$CODEX_HOME/config.toml"
python3 "$E2E/fake_llm.py" --port 0 --port-file "$B/port" --log "$B/requests.jsonl" --cmd "true" > "$B/fake.out" 2>&1 &
FPID=$!; for _ in $(seq 100); do [ -f "$B/port" ] && break; sleep 0.05; done; PORT=$(cat "$B/port")
CL=$(ls "$NM"/@anthropic-ai/claude-code-*/claude | head -1)
run_claude() {
  (cd "$1" && env -i PATH="$PATH" HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_STATE_HOME="$XDG_STATE_HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME" TMPDIR="$B/tmp" TERM=dumb ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" \
    ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 \
    timeout 90 "$CL" -p hi --output-format json > "$B/claude.out" 2> "$B/claude.err" < /dev/null)
}
echo "== claude -p in proj"; : > "$B/started.log"; run_claude "$P"; cat "$B/started.log"
echo "== claude -p in proj/pkg"; : > "$B/started.log"; run_claude "$P/pkg"; cat "$B/started.log"
echo "== codex mcp get fs in proj/pkg"; (cd "$P/pkg" && "$NM/.bin/codex" mcp get fs 2>/dev/null | grep -E "command|args")
kill $FPID 2>/dev/null
echo "== hookwise, run in proj/pkg"
cd "$P/pkg"
"$HW" doctor 2>&1 | grep -iE "mcp" | head -8
"$HW" scan 2>&1 | grep -iE "mcp|finding" | head -8
for h in claude codex; do "$HW" install $h --mcp --scope project --dry-run 2>&1 | sed "s/^/  dry-run $h: /" | head -2; done
