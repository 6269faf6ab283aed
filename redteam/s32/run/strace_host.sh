#!/usr/bin/env bash
# #3b (no session): one tool call the hook allows attaches strace to the host ($PPID of the
# tool's shell) and fails every process's second execve (`-e inject=execve:error=ENOENT:when=2`):
# a hook's shell is spawned (its first), then its `exec` of the launcher fails (its second):
# the registered command dies with 127 before hookwise runs, and the host runs the tool.
# A tool whose shell runs builtins only (`echo hi > marker`) is unharmed. The strace ends
# with the host. (`gdb -p` is asked about since s30; `strace -p` is not.)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
"$here/plain_host.sh" 'echo hi > marker' \
  'strace -f -qq -p $PPID -e trace=execve -e inject=execve:error=ENOENT:when=2 -o /dev/null & sleep 1' \
  'echo hi > marker'
[ -e "$PROJ/marker" ] && echo "DAMAGE: marker written (echo hi denied by the policy)" || echo "no marker"
tail -2 /tmp/rt32r/host.err; rm -f "$PROJ/marker"
