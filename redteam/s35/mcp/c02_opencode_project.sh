#!/bin/sh
# F4 (b): OpenCode's project `opencode.json` `mcp` servers: `install opencode --mcp` refuses,
# saying the project servers "are in a file the host rewrites itself" (OpenCode does not
# rewrite opencode.json), doctor says nothing of them (exit 0), scan reports them (info);
# the real OpenCode (`opencode mcp list`) connects the server unwrapped. Run from the worktree root.
set -u
WT=$(pwd); HW=$WT/.venv/bin/hookwise; SRV=$WT/redteam/s35/mcp/srv.py
OC=${OC:-/root/.cache/hookwise/e2e-plugin-hosts/node_modules/opencode-linux-x64/bin/opencode}
B=/tmp/rt35m/c02; rm -rf $B; mkdir -p $B/home/.config $B/proj/.git
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state \
  XDG_CACHE_HOME=$B/home/.cache XDG_DATA_HOME=$B/home/.local/share
echo "{\"mcp\": {\"oc\": {\"type\": \"local\", \"command\": [\"python3\", \"$SRV\"]}}}" > $B/proj/opencode.json
cd $B/proj
for h in opencode kilo; do echo "== hookwise install $h --mcp"; $HW install $h --mcp; echo "rc=$?"; done
echo "== hookwise doctor (OpenCode section)"; $HW doctor > $B/doctor.txt 2>&1; echo "rc=$?"
sed -n '/^OpenCode:/,/^[A-Z]/p' $B/doctor.txt
echo "== hookwise scan"; $HW scan 2>&1 | grep -A1 "mcp-unguarded"
echo "== real OpenCode: opencode mcp list"
if [ -x "$OC" ]; then timeout 90 "$OC" mcp list 2>&1 | sed "s#$WT#<wt>#g" | tr -d '\033' ; else echo "(no opencode at $OC)"; fi
