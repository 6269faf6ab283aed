#!/usr/bin/env bash
# Finding #1 inside `hookwise run`: the project's .env (shipped with the repository) sets
# LOCPATH + LC_CTYPE; `hookwise run` starts (no refusal: neither is in its list), the real
# Gemini CLI started inside loads the .env, every hook dies before hookwise runs, tools run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-$RT/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0
mkdir -p "$E2E_RUN_DIR"; "$here/mklocale.sh" "$PROJ/loc" >/dev/null
HOOK_CMD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["BeforeTool"][0]["hooks"][0]["command"])' "$PROJ/.gemini/settings.json" | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0
cd "$PROJ"
for env in "SECRET=hunter2\n" "SECRET=hunter2\nLOCPATH=$PROJ/loc\nLC_CTYPE=xx\n"; do
  printf "$env" > .env
  echo "== $PROJ/.env: $env"
  "$HW" run --host gemini -- bash -c '/work/shared/e2e/run_gemini.sh locale 2>&1 | grep "marker exists"
    d=$(ls -td "$E2E_RUN_DIR"/gemini-* | head -1); grep -h -E "Fatal|LookupError|blocked" "$d/stderr.txt" | head -2' 2>&1 | grep -v "^  "
done
printf 'SECRET=hunter2\n' > .env
