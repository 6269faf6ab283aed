#!/bin/sh
# F4: Claude Code's local-scope (the default of `claude mcp add`) and user-scope MCP servers,
# kept in ~/.claude.json (`projects[<dir>].mcpServers`, `mcpServers`), are never wrapped by
# `install claude --mcp`, which says nothing of them and exits 0; `doctor` says "ok ...
# behind the proxy" naming only .mcp.json's server and exits 0. `scan` reports them (info).
# The real Claude Code (`claude mcp list`) starts all three. Run from the worktree root.
set -u
WT=$(pwd); HW=$WT/.venv/bin/hookwise; SRV=$WT/redteam/s35/mcp/srv.py
CLAUDE=${CLAUDE:-/root/.cache/hookwise/e2e-clis/node_modules/@anthropic-ai/claude-code-linux-x64/claude}
B=/tmp/rt35m/c01; rm -rf $B; mkdir -p $B/home/.config $B/proj/.git
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state \
  XDG_CACHE_HOME=$B/home/.cache
unset CLAUDE_CONFIG_DIR
cat > $HOME/.claude.json <<J
{"hasCompletedOnboarding": true,
 "mcpServers": {"userfs": {"type": "stdio", "command": "python3", "args": ["$SRV"]}},
 "projects": {"$B/proj": {"hasTrustDialogAccepted": true,
   "mcpServers": {"localfs": {"type": "stdio", "command": "python3", "args": ["$SRV"]}}}}}
J
echo "{\"mcpServers\": {\"projfs\": {\"command\": \"python3\", \"args\": [\"$SRV\"]}}}" > $B/proj/.mcp.json
cd $B/proj
echo "== hookwise install claude --mcp (project scope)"; $HW install claude --mcp; echo "rc=$?"
echo "== hookwise install claude --mcp --scope user"; $HW install claude --mcp --scope user; echo "rc=$?"
echo "== hookwise doctor (Claude Code section)"
$HW doctor > $B/doctor.txt 2>&1; echo "rc=$?"; sed -n '/^Claude Code:/,/^[A-Z]/p' $B/doctor.txt
echo "== hookwise scan (mcp-unguarded)"; $HW scan 2>&1 | grep -A1 "mcp-unguarded"
echo "== real Claude Code: claude mcp list"
if [ -x "$CLAUDE" ]; then timeout 90 "$CLAUDE" mcp list 2>&1 | sed "s#$WT#<wt>#g"; else echo "(no claude at $CLAUDE)"; fi
