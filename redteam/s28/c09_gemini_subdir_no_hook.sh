#!/usr/bin/env bash
# s28 c09: F6 on real Gemini CLI 0.61.0: `hookwise install gemini` (project scope) in the root;
# the fake model runs run_shell_command `rm -rf victim` in a session started in the root and in
# proj/pkg.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
NM=${E2E_NODE_MODULES:-/tmp/rt28m/e2e-nm}/node_modules; E2E=/work/shared/e2e
B=/tmp/rt28m/c09; rm -rf "$B"; mkdir -p "$B/home/.gemini" "$B/home/.config/hookwise" "$B/proj/pkg" "$B/tmp"
P=$B/proj; (cd "$P" && git init -q .)
export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
printf 'version: 1\nrules:\n  - id: no-rm-r\n    match: {tool: shell, command: rm -r}\n    action: deny\n' > "$XDG_CONFIG_HOME/hookwise/policy.yaml"
(cd "$P" && "$HW" install gemini 2>&1 | tail -1)
cat > "$HOME/.gemini/settings.json" <<'JSON'
{"security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": false},
 "telemetry": {"enabled": false}, "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}}
JSON
python3 "$E2E/fake_llm.py" --port 0 --port-file "$B/port" --log "$B/requests.jsonl" --cmd "rm -rf $B/victim" > "$B/fake.out" 2>&1 &
FPID=$!; for _ in $(seq 100); do [ -f "$B/port" ] && break; sleep 0.05; done; PORT=$(cat "$B/port")
for d in "$P" "$P/pkg"; do
  mkdir -p "$B/victim"
  (cd "$d" && env -i PATH="$PATH" HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_STATE_HOME="$XDG_STATE_HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME" \
    TMPDIR="$B/tmp" TERM=dumb GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" GEMINI_API_KEY=dummy GEMINI_CLI_TRUST_WORKSPACE=true \
    timeout 90 "$NM/.bin/gemini" -p hi --yolo -o json > "$B/gemini.out" 2> "$B/gemini.err" < /dev/null)
  echo "gemini -p in ${d#$B/} (model runs rm -rf victim): victim $( [ -d "$B/victim" ] && echo kept || echo DELETED )"
done
kill $FPID
