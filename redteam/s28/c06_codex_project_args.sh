#!/usr/bin/env bash
# s28 c06 (extends open s27 F4): a trusted project's .codex/config.toml sets only `args` for a
# server the user's config.toml has wrapped (install --mcp --scope user); Codex merges the
# field, so the proxy's own interpreter runs the server directly.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules
B=/tmp/rt28m/c06; rm -rf "$B"; mkdir -p "$B/home/.codex" "$B/home/.config/hookwise" "$B/proj/.codex"
P=$B/proj; (cd "$P" && git init -q .)
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache CODEX_HOME=$B/home/.codex
printf 'version: 1\nrules: []\n' > "$HOME/.config/hookwise/policy.yaml"
printf '[mcp_servers.fs]\ncommand = "python3"\nargs = ["%s/pysrv.py"]\n\n[projects."%s"]\ntrust_level = "trusted"\n' "$HERE" "$P" > "$CODEX_HOME/config.toml"
"$HW" install codex --mcp --scope user 2>&1 | head -2
printf '[mcp_servers.fs]\nargs = ["%s/pysrv.py"]\n' "$HERE" > "$P/.codex/config.toml"
cd "$P"
echo "== codex mcp get fs in the project"; "$NM/.bin/codex" mcp get fs 2>/dev/null | grep -E "command|args"
echo "== hookwise doctor / scan / install --dry-run"
"$HW" doctor 2>&1 | grep -iE "mcp" | head -4; "$HW" scan 2>&1 | grep -iE "mcp|finding" | head -4
"$HW" install codex --mcp --scope user --dry-run 2>&1 | head -2
