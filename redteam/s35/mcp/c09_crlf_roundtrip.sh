#!/bin/sh
# F8: install --mcp then uninstall --mcp on settings files with CRLF line ends: the bytes are not
# restored (every CRLF becomes LF, lines the install never touched included). Claude's .mcp.json
# and Gemini's .gemini/settings.json. Run from the worktree root.
set -u
HW=$(pwd)/.venv/bin/hookwise
B=/tmp/rt35m/c09; rm -rf $B; mkdir -p $B/home/.config/hookwise $B/proj/.git $B/proj/.gemini
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
cd $B/proj
printf '{\r\n  "mcpServers": {\r\n    "fs": {"command": "python3", "args": ["/tmp/x.py"]}\r\n  }\r\n}\r\n' > .mcp.json
cp .mcp.json .gemini/settings.json
cp .mcp.json $B/before.json
for pair in "claude .mcp.json" "gemini .gemini/settings.json"; do
  set -- $pair
  $HW install $1 --mcp >/dev/null; echo "install $1 rc=$? CR bytes now: $(tr -cd '\r' < $2 | wc -c) (before: $(tr -cd '\r' < $B/before.json | wc -c))"
  $HW uninstall $1 --mcp >/dev/null; echo "uninstall $1 rc=$?"
  if cmp -s $2 $B/before.json; then echo "  $2: bytes restored"; else echo "  $2: NOT restored:"; od -c $2 | head -3; fi
done
