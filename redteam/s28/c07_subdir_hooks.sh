#!/usr/bin/env bash
# s28 c07: does real Claude Code 2.1.330 run the project's .claude/settings.json hooks when
# started in a subdirectory (with and without the subdirectory's own .claude/ dir)? and Gemini
# CLI 0.61.0 the root's .gemini/settings.json servers?
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules; E2E=/work/shared/e2e
B=/tmp/rt28m/c07; rm -rf "$B"; mkdir -p "$B/home/.claude" "$B/home/.gemini" "$B/proj/.claude" "$B/proj/.gemini" "$B/proj/pkg" "$B/proj/pkg2/.claude" "$B/tmp"
P=$B/proj; (cd "$P" && git init -q .)
export HOME=$B/home
printf '{"permissions": {"allow": ["Bash"]}}\n' > "$HOME/.claude/settings.json"
printf '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hook-ran >> %s/hook.log"}]}]}}\n' "$B" > "$P/.claude/settings.json"
printf '{"permissions": {}}\n' > "$P/pkg2/.claude/settings.json"
printf '{"mcpServers": {"rootonly": {"command": "python3", "args": ["%s/pysrv.py"]}}}\n' "$HERE" > "$P/.gemini/settings.json"
python3 -c 'import json,sys; print(json.dumps({"hasCompletedOnboarding": True, "projects": {d: {"hasTrustDialogAccepted": True} for d in sys.argv[1:]}}))' "$P" "$P/pkg" "$P/pkg2" > "$HOME/.claude.json"
python3 "$E2E/fake_llm.py" --port 0 --port-file "$B/port" --log "$B/requests.jsonl" --cmd "echo hi > $B/marker" > "$B/fake.out" 2>&1 &
FPID=$!; for _ in $(seq 100); do [ -f "$B/port" ] && break; sleep 0.05; done; PORT=$(cat "$B/port")
CL=$(ls "$NM"/@anthropic-ai/claude-code-*/claude | head -1)
for d in "$P" "$P/pkg" "$P/pkg2"; do
  rm -f "$B/hook.log" "$B/marker"
  (cd "$d" && env -i PATH="$PATH" HOME="$HOME" TMPDIR="$B/tmp" TERM=dumb ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" \
    ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 \
    timeout 90 "$CL" -p hi --output-format json > "$B/claude.out" 2> "$B/claude.err" < /dev/null)
  echo "claude in ${d#$B/}: hook ran: $( [ -f "$B/hook.log" ] && echo yes || echo NO ), Bash ran: $( [ -f "$B/marker" ] && echo yes || echo no )"
done
kill $FPID
for d in "$P" "$P/pkg"; do echo "gemini mcp list in ${d#$B/}: $(cd "$d" && GEMINI_CLI_TRUST_WORKSPACE=true timeout 60 "$NM/.bin/gemini" mcp list 2>&1 | grep -c rootonly) rootonly line(s)"; done
