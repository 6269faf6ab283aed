#!/usr/bin/env bash
# A rule with docs/policy.md's own condition (`when: 'env.CI != "true"'`) is switched off by
# `CI=true` in the project .env (a literal `echo CI=true >> .env` is allowed; Gemini CLI
# exports it to every hook at its next start; the drop covers guard_env's table only).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
cd "$PROJ"
grep -q no-force-push .hookwise/policy.yaml || { cat >> .hookwise/policy.yaml <<'YAML'
  - id: no-force-push
    match: {tool: shell, command: git push --force}
    when: 'env.CI != "true"'
    action: deny
    reason: Push to a new branch instead.
YAML
"$HW" policy trust >/dev/null; }
for line in "" "CI=true"; do
  printf 'SECRET=hunter2\n%s\n' "$line" > .env
  echo "== .env: SECRET=hunter2 ${line}"
  python3 "$here/gemini_host.py" "git push --force origin main" 2>&1 | grep -v "^fatal"
done
printf 'SECRET=hunter2\n' > .env
