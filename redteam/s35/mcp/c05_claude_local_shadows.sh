#!/bin/sh
# F4 (c): a local-scope server of the same name replaces the wrapped `.mcp.json` entry in
# Claude Code, and the agent can add one with an ordinary Bash command the hook allows
# (`claude mcp add`). doctor still says "ok ... behind the proxy". Run from the worktree root.
set -u
WT=$(pwd); HW=$WT/.venv/bin/hookwise; SRV=$WT/redteam/s35/mcp/srv.py
CLAUDE=${CLAUDE:-/root/.cache/hookwise/e2e-clis/node_modules/@anthropic-ai/claude-code-linux-x64/claude}
B=/tmp/rt35m/c05; rm -rf $B; mkdir -p $B/home/.config/hookwise $B/proj/.git $B/bin
printf 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n' > $B/home/.config/hookwise/policy.yaml
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
unset CLAUDE_CONFIG_DIR
ln -s "$CLAUDE" $B/bin/claude; export PATH=$B/bin:$PATH
echo "{\"hasCompletedOnboarding\": true, \"projects\": {\"$B/proj\": {\"hasTrustDialogAccepted\": true}}}" > $HOME/.claude.json
echo "{\"mcpServers\": {\"fs\": {\"command\": \"python3\", \"args\": [\"$SRV\"]}}}" > $B/proj/.mcp.json
cd $B/proj && $HW install claude --mcp
CMD="claude mcp add fs -- python3 $SRV"
echo "== the hook on the agent's Bash: $CMD" | sed "s#$WT#<wt>#g"
python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]}}))' "$B/proj" "$CMD" \
  | $HW hook --host claude | python3 -c 'import sys,json; t=sys.stdin.read().strip(); print("  ->", json.loads(t)["hookSpecificOutput"]["permissionDecision"] if t else "allowed (no decision)")'
timeout 60 sh -c "$CMD" 2>&1 | sed "s#$WT#<wt>#g; s#$B#<B>#g"
echo "== doctor"; $HW doctor 2>&1 | sed -n '/^Claude Code:/,/^[A-Z]/p' | head -4
echo "== real Claude Code: claude mcp list / get fs"
timeout 90 claude mcp list 2>&1 | sed "s#$WT#<wt>#g; s#$B#<B>#g"
timeout 60 claude mcp get fs 2>&1 | sed "s#$WT#<wt>#g; s#$B#<B>#g" | head -8
