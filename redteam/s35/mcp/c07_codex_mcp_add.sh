#!/bin/sh
# F7 (c): Codex's `codex mcp add NAME -- CMD` over a server `install codex --mcp --scope user`
# wrapped in $CODEX_HOME/config.toml; the hook's decision, the entry after, doctor, and
# `codex mcp get`. Run from the worktree root.
set -u
WT=$(pwd); HW=$WT/.venv/bin/hookwise; SRV=$WT/redteam/s35/mcp/srv.py
CODEX=${CODEX:-/root/.cache/hookwise/e2e-clis/node_modules/.bin/codex}
B=/tmp/rt35m/c07; rm -rf $B; mkdir -p $B/home/.config/hookwise $B/home/.codex $B/proj/.git $B/bin
printf 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n' > $B/home/.config/hookwise/policy.yaml
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache CODEX_HOME=$B/home/.codex
ln -s "$CODEX" $B/bin/codex; export PATH=$B/bin:$PATH
printf '[mcp_servers.fs]\ncommand = "python3"\nargs = ["%s"]\n' "$SRV" > $CODEX_HOME/config.toml
cd $B/proj && $HW install codex --mcp --scope user
CMD="codex mcp add fs -- python3 $SRV"
printf '== hook (codex) on: %s -> ' "$CMD" | sed "s#$WT#<wt>#g"
python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]},"model":"m","permission_mode":"default","turn_id":"t"}))' "$B/proj" "$CMD" | $HW hook --host codex | head -c 200; echo
timeout 60 sh -c "$CMD" 2>&1 | sed "s#$WT#<wt>#g; s#$B#<B>#g" | tail -2
echo "== config.toml now:"; sed "s#$WT#<wt>#g; s#$B#<B>#g" $CODEX_HOME/config.toml
echo "== doctor"; $HW doctor 2>&1 | sed -n '/^Codex:/,/^[A-Z]/p' | grep -i mcp
