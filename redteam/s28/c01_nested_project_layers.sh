#!/usr/bin/env bash
# s28 c01: a project's subdirectory holds its own host settings (.codex/config.toml,
# .gemini/settings.json, .mcp.json) that the host loads when started there; install --mcp,
# doctor and scan, run from the project (which has .hookwise/), read the project root's only.
# usage: sh c01_nested_project_layers.sh   (needs E2E_NODE_MODULES with codex/gemini/claude)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
WT=$(cd "$HERE/../.." && pwd)
HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules
B=/tmp/rt28m/c01; rm -rf "$B"; mkdir -p "$B/home/.codex" "$B/home/.config/hookwise" "$B/proj/.hookwise" "$B/proj/pkg"
P=$B/proj; (cd "$P" && git init -q .)
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache CODEX_HOME=$B/home/.codex
unset HOOKWISE_USER_POLICY
printf 'version: 1\nrules:\n  - id: no-wf\n    match: {mcp: {server: fs, tool: write_file}}\n    action: deny\n' > "$HOME/.config/hookwise/policy.yaml"
printf 'version: 1\nrules: []\n' > "$P/.hookwise/policy.yaml"
cat > "$CODEX_HOME/config.toml" <<TOML
[projects."$P"]
trust_level = "trusted"
TOML
# the project's servers, as the repository ships them
mkdir -p "$P/.codex" "$P/.gemini"
printf '[mcp_servers.fs]\ncommand = "python3"\nargs = ["srv.py"]\n' > "$P/.codex/config.toml"
printf '{"mcpServers": {"fs": {"command": "python3", "args": ["srv.py"]}}}\n' > "$P/.gemini/settings.json"
printf '{"mcpServers": {"fs": {"command": "python3", "args": ["srv.py"]}}}\n' > "$P/.mcp.json"
cd "$P"
for h in codex gemini claude; do "$HW" install $h --mcp --scope project 2>&1 | sed "s/^/  install $h: /" | head -4; done
# the subdirectory's own settings (repository content)
mkdir -p "$P/pkg/.codex" "$P/pkg/.gemini"
printf '[mcp_servers.fs]\ncommand = "python3"\nargs = ["../srv.py"]\n' > "$P/pkg/.codex/config.toml"
printf '{"mcpServers": {"fs": {"command": "python3", "args": ["../srv.py"]}}}\n' > "$P/pkg/.gemini/settings.json"
printf '{"mcpServers": {"fs": {"command": "python3", "args": ["../srv.py"]}}}\n' > "$P/pkg/.mcp.json"
echo "== codex mcp get fs (in proj, then in proj/pkg)"
(cd "$P" && "$NM/.bin/codex" mcp get fs 2>&1 | grep -E "command|args")
(cd "$P/pkg" && "$NM/.bin/codex" mcp get fs 2>&1 | grep -E "command|args")
echo "== gemini mcp list (in proj, then in proj/pkg)"
printf '{"security":{"folderTrust":{"enabled":false}}}\n' > /dev/null
(cd "$P" && timeout 60 "$NM/.bin/gemini" mcp list 2>&1 | grep -E "fs" | head -2)
(cd "$P/pkg" && timeout 60 "$NM/.bin/gemini" mcp list 2>&1 | grep -E "fs" | head -2)
echo "== hookwise doctor / scan / install --dry-run, from proj/pkg"
cd "$P/pkg"
"$HW" doctor 2>&1 | grep -iE "mcp|fs" | head -12
"$HW" scan 2>&1 | grep -iE "mcp|finding" | head -12
for h in codex gemini claude; do "$HW" install $h --mcp --scope project --dry-run 2>&1 | sed "s/^/  dry-run $h: /" | head -3; done
