#!/usr/bin/env bash
# s29 c01: b11's merging copy plants proj/pkg/.mcp.json and proj/pkg/.claude/settings.json
# (enableAllProjectMcpServers) through the proxy; real Claude Code 2.1.330 started in proj/pkg
# then starts the planted server (its command touches a file), unwrapped.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules; E2E=/work/shared/e2e
python3 "$HERE/b11_merge_guard_names.py" | sed -n 1,3p
B=/tmp/rt29m/b11; P=$B/proj; rm -f "$B/pwned"; mkdir -p "$B/tmp"
(cd "$P" && git init -q . 2>/dev/null)
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
mkdir -p "$HOME/.claude"
python3 -c 'import json,sys; print(json.dumps({"hasCompletedOnboarding": True, "projects": {sys.argv[1]: {"hasTrustDialogAccepted": True}}}))' "$P/pkg" > "$HOME/.claude.json"
CL=$(ls "$NM"/@anthropic-ai/claude-code-*/claude | head -1)
echo "== claude mcp list in proj/pkg:"; (cd "$P/pkg" && timeout 60 "$CL" mcp list 2>&1 | grep -v "^$" | head -4)
echo "== pwned after mcp list: $([ -e "$B/pwned" ] && echo YES || echo no)"; rm -f "$B/pwned"
python3 "$E2E/fake_llm.py" --port 0 --port-file "$B/port" --log "$B/requests.jsonl" --cmd "true" > "$B/fake.out" 2>&1 &
FPID=$!; for _ in $(seq 100); do [ -f "$B/port" ] && break; sleep 0.05; done; PORT=$(cat "$B/port")
(cd "$P/pkg" && env -i PATH="$PATH" HOME="$HOME" TMPDIR="$B/tmp" TERM=dumb ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" \
  ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 \
  timeout 90 "$CL" -p hi --output-format json > "$B/claude.out" 2> "$B/claude.err" < /dev/null)
kill $FPID
echo "== pwned after claude -p in proj/pkg: $([ -e "$B/pwned" ] && echo YES || echo no)"
cd "$P"; echo "== scan in proj:"; "$HW" scan 2>&1 | grep -iE "pkg|finding" | head -6
