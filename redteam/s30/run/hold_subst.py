"""A process left by an earlier tool call: as each hook's shell forks for its command
substitution (`m=$(/bin/cat /proc/self/mountinfo)`, which the registered command runs inside
a session when its shell cannot `read -d ''`: dash, Claude Code's /bin/sh), it reopens that
copy's stdout, the substitution's pipe, for writing through /proc/<pid>/fd/1 and keeps it:
the hook's shell never reads the pipe's end, so it never gets to hookwise's program.
Once a hook's shell is seen, its children file is polled until the copy appears.
With HOST (a pid), the host's threads' children files are polled instead of all of /proc
(a host's shell lives for a few milliseconds before its fork).
With WHAT `stdout`, the hook's shell's own stdout is held instead (#3: the pipe the
supervisor's pipe-holder check looks after, made slow to check by fd_hoard.py).
usage: hold_subst.py SECONDS [HOST] [subst|stdout]"""

import os
import sys
import time

end = time.monotonic() + float(sys.argv[1])
seen: set[int] = set()
held: list[int] = []


def cmdline(pid: str) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def parent(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rpartition(b")")[2].split()[1].decode()
    except (OSError, IndexError):
        return "0"


def hold(child: str) -> bool:
    try:
        held.append(os.open(f"/proc/{child}/fd/1", os.O_WRONLY))
    except OSError as exc:
        print(f"pid {child}: {exc}", flush=True)
        return False
    print(f"holding the {what} pipe of pid {child} ({os.readlink(f'/proc/{child}/fd/1')})", flush=True)
    return True


def link(pid: str) -> str:
    try:
        return os.readlink(f"/proc/{pid}/fd/1")
    except OSError:
        return ""


def watch_children(shell: str) -> None:
    """Spin on the shell's children file (cheap) for up to 2 s: its fork for `$(...)` is
    there from the fork until /bin/cat exits, with the substitution's pipe on fd 1 (once
    its fd 1 is no longer the shell's own: the hook's stdout, which the supervisor's
    pipe-holder check would see held)."""
    stop = time.monotonic() + 2
    own = link(shell)
    while time.monotonic() < stop:
        try:
            with open(f"/proc/{shell}/task/{shell}/children", "rb") as handle:
                kids = handle.read().split()
        except OSError:
            return
        for kid in kids:
            if int(kid) not in seen:
                while link(kid.decode()) == own and time.monotonic() < stop:
                    pass  # (forked, its fd 1 not yet the substitution's pipe)
                seen.add(int(kid))
                if link(kid.decode()) and hold(kid.decode()):
                    return


def host_children(host: str) -> list[str]:
    out: list[str] = []
    try:
        tasks = os.listdir(f"/proc/{host}/task")
    except OSError:
        return out
    for task in tasks:
        try:
            with open(f"/proc/{host}/task/{task}/children", "rb") as handle:
                out += [kid.decode() for kid in handle.read().split()]
        except OSError:
            continue
    return out


host = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "-" else None
what = sys.argv[3] if len(sys.argv) > 3 else "subst"
while time.monotonic() < end:
    for name in host_children(host) if host else os.listdir("/proc"):
        if not name.isdigit() or int(name) in seen:
            continue
        line = cmdline(name)
        if b"uid_map" in line and b"hookwise" in line and line.split(b"\0")[1:2] == [b"-c"]:
            seen.add(int(name))
            if cmdline(parent(name)) == line:  # (the copy itself, found by the scan)
                hold(name)
            elif what == "stdout":
                hold(name)
            else:
                watch_children(name)
    time.sleep(0.0002 if host else 0.0005)
