#!/bin/sh
# F7 (b): Gemini CLI's `gemini mcp add NAME CMD` (project scope by default) rewrites the wrapped
# entry of .gemini/settings.json in place; the hook's decision on that Bash/shell command, then
# doctor and the entry as written. Run from the worktree root.
set -u
WT=$(pwd); HW=$WT/.venv/bin/hookwise; SRV=$WT/redteam/s35/mcp/srv.py
GEM=${GEM:-/root/.cache/hookwise/e2e-clis/node_modules/.bin/gemini}
B=/tmp/rt35m/c06; rm -rf $B; mkdir -p $B/home/.config/hookwise $B/home/.gemini $B/proj/.git $B/proj/.gemini $B/bin
printf 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n' > $B/home/.config/hookwise/policy.yaml
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
ln -s "$GEM" $B/bin/gemini; export PATH=$B/bin:$PATH GEMINI_CLI_TRUST_WORKSPACE=true
echo '{"security": {"auth": {"selectedType": "gemini-api-key"}}}' > $HOME/.gemini/settings.json
echo "{\"mcpServers\": {\"fs\": {\"command\": \"python3\", \"args\": [\"$SRV\"]}}}" > $B/proj/.gemini/settings.json
cd $B/proj && $HW install gemini --mcp && $HW install gemini > /dev/null 2>&1; echo "install (hook) rc=$?"
CMD="gemini mcp add fs python3 $SRV"
for host in gemini claude; do
  tool=run_shell_command; [ $host = claude ] && tool=Bash
  printf '== hook (%s) on: %s -> ' $host "$CMD" | sed "s#$WT#<wt>#g"
  python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":sys.argv[4],"tool_name":sys.argv[2],"tool_input":{"command":sys.argv[3]}}))' \
    "$B/proj" $tool "$CMD" $([ $host = claude ] && echo PreToolUse || echo BeforeTool) | $HW hook --host $host | head -c 200; echo
done
timeout 60 sh -c "$CMD" 2>&1 | sed "s#$WT#<wt>#g; s#$B#<B>#g" | tail -2
echo "== .gemini/settings.json mcpServers.fs now:"; python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["mcpServers"]["fs"])' .gemini/settings.json | sed "s#$WT#<wt>#g"
echo "== doctor"; $HW doctor 2>&1 | sed -n '/^Gemini CLI:/,/^[A-Z]/p' | grep -i mcp
echo "== gemini mcp list"; timeout 90 gemini mcp list 2>&1 | sed "s#$WT#<wt>#g; s#$B#<B>#g" | tail -3
