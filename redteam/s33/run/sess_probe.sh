#!/usr/bin/env bash
# Inside `hookwise run`: the writes and process actions of this red team's plain findings,
# from a confined bash (the OS's answer, no hook involved). Writes only to what would be
# refused; each is undone if it landed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
cd "$PROJ"
"$HW" run --host claude -- bash -c '
LIB=/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0
try() { if out=$(eval "$1" 2>&1); then echo "LANDED  $1"; else echo "refused $1: ${out##*: }"; fi; }
try "sleep 0 3>>$LIB"
try "mkdir /sys/fs/cgroup/freezer/rt33r-sess && rmdir /sys/fs/cgroup/freezer/rt33r-sess"
try "echo \$\$ > /sys/fs/cgroup/freezer/tasks"
try "echo 1 > /proc/\$PPID/timerslack_ns"
try "printf \"\" >> /etc/ld.so.preload && { [ -s /etc/ld.so.preload ] || rm -f /etc/ld.so.preload; }"
try "mkdir -p \$HOME/.local/bin && : > \$HOME/.local/bin/node && rm \$HOME/.local/bin/node"
try "printf \"\" >> /usr/bin/node"
try "printf \"\" >> $E2E_NM/@google/gemini-cli/package.json"
grep -E "^(Seccomp|NoNewPrivs|CapEff)" /proc/self/status | tr "\n" " "; echo
' 2>&1 | head -30
