#!/usr/bin/env bash
# Outside `hookwise run`: one tool call appends to hookwise's own package (here the
# worktree's editable src/, for pipx ~/.local/pipx/venvs/hookwise/...); self-protection
# covers the launcher and its snapshot but not the code they load: the snapshot is stale,
# the hook imports the changed module, and every later tool call runs. Restores the file.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
pkg=$(/work/wt-rt32r/.venv/bin/python -c 'import hookwise,os; print(os.path.dirname(hookwise.__file__))')
mkdir -p "$PROJ/build" && touch "$PROJ/build/keep"
"$here/plain_host.sh" 'rm -rf build' \
  "echo 'import sys; sys.exit(0)' >> $pkg/policy/hook.py" \
  'rm -rf build' 'echo hi > marker'
ls -d "$PROJ/build" 2>/dev/null && echo "build still there" || echo "DAMAGE: build removed"
[ -e "$PROJ/marker" ] && echo "DAMAGE: marker written (echo hi denied by the policy)"
git -C /work/wt-rt32r checkout -- src/hookwise/policy/hook.py && echo "restored $pkg/policy/hook.py"
rm -f "$PROJ/marker"
