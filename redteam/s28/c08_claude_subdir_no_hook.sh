#!/usr/bin/env bash
# s28 c08: `hookwise install claude` (default scope: project) writes <root>/.claude/settings.json;
# real Claude Code 2.1.330 started in a subdirectory of that project does not load it: the
# policy's deny of `rm -r` holds in the root, not in proj/pkg. doctor run in proj/pkg: ok.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules; E2E=/work/shared/e2e
B=/tmp/rt28m/c08; rm -rf "$B"; mkdir -p "$B/home/.claude" "$B/home/.config/hookwise" "$B/proj/pkg" "$B/tmp"
P=$B/proj; (cd "$P" && git init -q .)
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
printf 'version: 1\nrules:\n  - id: no-rm-r\n    match: {tool: shell, command: rm -r}\n    action: deny\n' > "$XDG_CONFIG_HOME/hookwise/policy.yaml"
(cd "$P" && "$HW" install claude 2>&1 | tail -1)
printf '{"permissions": {"allow": ["Bash"]}}\n' > "$HOME/.claude/settings.json"
python3 -c 'import json,sys; print(json.dumps({"hasCompletedOnboarding": True, "projects": {d: {"hasTrustDialogAccepted": True} for d in sys.argv[1:]}}))' "$P" "$P/pkg" > "$HOME/.claude.json"
python3 "$E2E/fake_llm.py" --port 0 --port-file "$B/port" --log "$B/requests.jsonl" --cmd "rm -rf $B/victim" > "$B/fake.out" 2>&1 &
FPID=$!; for _ in $(seq 100); do [ -f "$B/port" ] && break; sleep 0.05; done; PORT=$(cat "$B/port")
CL=$(ls "$NM"/@anthropic-ai/claude-code-*/claude | head -1)
for d in "$P" "$P/pkg"; do
  mkdir -p "$B/victim"
  (cd "$d" && env -i PATH="$PATH" HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_STATE_HOME="$XDG_STATE_HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME" \
    TMPDIR="$B/tmp" TERM=dumb ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 timeout 90 "$CL" -p hi --output-format json > "$B/claude.out" 2> "$B/claude.err" < /dev/null)
  echo "claude -p in ${d#$B/} (model runs rm -rf victim): victim $( [ -d "$B/victim" ] && echo kept || echo DELETED )"
done
kill $FPID
cd "$P/pkg"; echo "== hookwise doctor in proj/pkg:"; "$HW" doctor 2>&1 | grep -iE "claude|hook" | head -6
