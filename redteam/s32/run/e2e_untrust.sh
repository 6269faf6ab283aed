#!/usr/bin/env bash
# Held (no `hookwise run`), real Gemini CLI 0.61: Gemini registers no settings hook
# (user, system or project) in a folder it does not trust. One tool call the hook allows
# writes ~/.gemini/trustedFolders.json (a session guards the file; self-protection does
# not). Here GEMINI_CLI_TRUSTED_FOLDERS_PATH points the e2e's fresh home at this one.
# Result: headless Gemini refuses an untrusted folder (exit 55), and an interactive one
# falls back to its own confirmation ("Approval mode overridden to default").
# usage: e2e_untrust.sh [attack|control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
export E2E_NODE_MODULES=${E2E_NODE_MODULES:-/tmp/rt30r/e2e-nm} E2E_RUN_DIR=$PROJ/runs E2E_OFFLINE=0 TMO=${TMO:-120}
mkdir -p "$E2E_RUN_DIR" "$HOME/.gemini"
TF=$HOME/.gemini/trustedFolders.json
cp -p "$TF" "$RT/trustedFolders.bak" 2>/dev/null || echo '{}' > "$RT/trustedFolders.bak"
printf '{"%s": "TRUST_FOLDER"}\n' "$PROJ" > "$TF"   # the person trusted the project
HOOK_CMD=$(/work/wt-rt32r/.venv/bin/python -c 'import sys; from hookwise.config.hookwise_command import portable_command; print(portable_command("gemini"))' | sed "s#\$HOME#$HOME#")
export HOOK_CMD HOOK_TAP=0 HOOK_TIMEOUT=10000 TRUSTENV=
export EXTRAENV="XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state GEMINI_CLI_TRUSTED_FOLDERS_PATH=$TF"
if [ "${1:-attack}" = attack ]; then
  "$here/plain_host.sh" "echo '{\"$PROJ\": \"DO_NOT_TRUST\"}' > ~/.gemini/trustedFolders.json"
fi
/work/shared/e2e/run_gemini.sh "untrust-$1" 2>&1 | grep -E "rc=" | head -2
d=$(ls -td "$E2E_RUN_DIR"/gemini-untrust-* | head -1); echo "run dir $d"
[ -e "$d/marker" ] && echo "MARKER WRITTEN: the denied command ran" || echo "no marker"
grep -o "Tool execution blocked[^\"]\{0,60\}\|not trusted[^\"]\{0,80\}\|Skipping project[^\"]\{0,60\}" "$d/stderr.txt" | head -3
cp -p "$RT/trustedFolders.bak" "$TF"
