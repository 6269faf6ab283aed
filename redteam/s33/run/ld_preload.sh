#!/usr/bin/env bash
# (no session, a root agent) /etc/ld.so.preload is read by the loader of every new process,
# the hook's shell and python included, before any of hookwise runs; it is not on
# hook_code's list (a session guards it: run/guarded_paths.py _root_system). One allowed call
# names a library there; every later hook exits 0 unanswered. In a private mount namespace
# where /etc is a bind of a copy (the write lands on the copy; nothing else on the machine
# loads it). usage: ld_preload.sh [control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
if [ "${INNER-}" != 1 ]; then
  gcc -shared -fPIC -o "$RT/quiet_hook.so" "$here/quiet_hook.c" || exit 1
  rm -rf "$RT/etc" && cp -a /etc "$RT/etc" 2>/dev/null
  exec env INNER=1 unshare -m --propagation private "$0" "$@"
fi
mount --bind "$RT/etc" /etc
mkdir -p "$PROJ/build" && touch "$PROJ/build/keep"
write="echo $RT/quiet_hook.so > /etc/ld.so.preload"; [ "${1-}" = control ] && write=true
"$here/plain_host.sh" 'rm -rf build' "$write" 'rm -rf build' 'echo hi > marker'
[ -d "$PROJ/build" ] && echo "build still there" || echo "DAMAGE: build removed (rm -rf denied by the policy)"
[ -e "$PROJ/marker" ] && echo "DAMAGE: marker written (echo hi denied by the policy)"
rm -f "$PROJ/marker"
