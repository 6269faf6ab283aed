#!/usr/bin/env bash
# Fresh home and project: a trusted policy denying `rm -rf`, reads of `.env` and `echo hi`;
# hooks for claude and gemini (the portable command and the launcher under ~/.local/share).
set -eu
. "$(dirname "$0")/env.sh"
rm -rf "$HOME"; mkdir -p "$PROJ/build" && cd "$PROJ"
git init -q . && git config user.email rt@x && git config user.name rt
mkdir -p .hookwise
cat > .hookwise/policy.yaml <<'YAML'
version: 1
rules:
  - id: no-rm-rf
    match: {tool: shell, command: rm -rf}
    action: deny
    reason: no recursive deletes here
  - id: no-env-read
    match: {tool: [read], files: [.env]}
    action: deny
    reason: .env holds secrets
  - id: no-marker
    match: {tool: shell, command: echo hi}
    action: deny
    reason: the e2e fake model's marker write stands for any denied command
YAML
echo SECRET=hunter2 > .env
git add -A && git commit -qm init
"$HW" policy trust >/dev/null
"$HW" install claude >/dev/null
"$HW" install gemini >/dev/null
echo "home $HOME ready"
