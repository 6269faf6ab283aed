#!/usr/bin/env bash
# (no session) `fuser -k` signals every process that has a file open, mapped, as its exe or
# cwd; it is not among the programs acting on processes (shell/commands/process_targets.py),
# and its operand is judged only as a file it "would change": any file a hook maps that is
# not on hook_code's list passes. libpython (mapped by every hook) is one: a loop left by one
# allowed call kills (or stops) each hook. In a private mount namespace where libpython is a
# bind of a private copy: fuser matches that copy's inode only, so no other process of the
# machine (whose pythons map the original) is reached. Bounded (SECS).
# usage: fuser_kill.sh [KILL|STOP] [SECS, 15] [control]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
LIB=/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0
if [ "${INNER-}" != 1 ]; then
  cp "$LIB" "$RT/libpython.copy"
  exec env INNER=1 unshare -m --propagation private "$0" "$@"
fi
mount --bind "$RT/libpython.copy" "$LIB"
sig=${1:-KILL}; secs=${2:-15}
mkdir -p "$PROJ/build" && touch "$PROJ/build/keep"
loop="timeout $secs sh -c 'while :; do fuser -s -k -$sig $LIB; sleep 0.005; done' >/dev/null 2>&1 &"
[ "${3-}" = control ] && loop=true
"$here/plain_host.sh" 'rm -rf build' "$loop" 'rm -rf build' 'echo hi > marker' 'echo hi > marker' 'echo hi > marker'
[ -d "$PROJ/build" ] && echo "build still there" || echo "DAMAGE: build removed (rm -rf denied by the policy)"
[ -e "$PROJ/marker" ] && echo "DAMAGE: marker written (echo hi denied by the policy)"
rm -f "$PROJ/marker"; sleep "$secs"
