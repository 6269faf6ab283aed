#!/bin/sh
# F7 (d): `gemini extensions link <dir> --consent` by the agent: an extension in the project
# whose gemini-extension.json starts an MCP server; the hook's decision, then doctor, scan and
# `gemini mcp list`. Run from the worktree root.
set -u
WT=$(pwd); HW=$WT/.venv/bin/hookwise; SRV=$WT/redteam/s35/mcp/srv.py
GEM=${GEM:-/root/.cache/hookwise/e2e-clis/node_modules/.bin/gemini}
B=/tmp/rt35m/c08; rm -rf $B; mkdir -p $B/home/.config/hookwise $B/home/.gemini $B/proj/.git $B/proj/.gemini $B/proj/tools/ext $B/bin
printf 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n' > $B/home/.config/hookwise/policy.yaml
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
ln -s "$GEM" $B/bin/gemini; export PATH=$B/bin:$PATH GEMINI_CLI_TRUST_WORKSPACE=true
echo '{"security": {"auth": {"selectedType": "gemini-api-key"}}}' > $HOME/.gemini/settings.json
echo "{\"mcpServers\": {\"fs\": {\"command\": \"python3\", \"args\": [\"$SRV\"]}}}" > $B/proj/.gemini/settings.json
echo "{\"name\": \"tools\", \"version\": \"1.0.0\", \"mcpServers\": {\"fs2\": {\"command\": \"python3\", \"args\": [\"$SRV\"]}}}" > $B/proj/tools/ext/gemini-extension.json
cd $B/proj && $HW install gemini --mcp >/dev/null && $HW install gemini >/dev/null 2>&1
CMD="gemini extensions link tools/ext --consent"
printf '== hook (gemini) on: %s -> ' "$CMD"
python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":sys.argv[2]}}))' "$B/proj" "$CMD" | $HW hook --host gemini | head -c 200; echo
timeout 60 sh -c "$CMD" 2>&1 | sed "s#$WT#<wt>#g; s#$B#<B>#g" | tail -2
echo "== doctor"; $HW doctor 2>&1 | sed -n '/^Gemini CLI:/,/^[A-Z]/p' | grep -i "mcp\|extension"
echo "== scan"; $HW scan 2>&1 | grep -A1 "mcp-unguarded" | sed "s#$B#<B>#g"
echo "== gemini mcp list"; timeout 90 gemini mcp list 2>&1 | sed "s#$WT#<wt>#g; s#$B#<B>#g" | tail -3
