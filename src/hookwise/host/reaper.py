"""A contained hook's whole process tree ends with it, escapees included.

Killing a hook's process group misses what left the group: ``setsid`` children and
double-forked daemons. Two mechanisms find them:

* every process of a contained run inherits a random mark in its environment
  (``HOOKWISE_RUN_MARK``), so when the run ends any process still carrying it is killed,
  wherever it was reparented;
* a long-running server that contains hooks becomes a child subreaper
  (``prctl(PR_SET_CHILD_SUBREAPER)``), so orphans reparent to it instead of init: those
  that cleared their environment are found as its own children and killed too, and the
  ones that exited are reaped, not left as zombies. Only a process whose every child is
  a contained hook may do this (``become_subreaper``): any child it did not spawn
  through the process layer is taken for an escapee.

Linux only (procfs, prctl); elsewhere containment is the process group alone.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import signal
import threading
from collections.abc import Mapping

MARK_VAR = "HOOKWISE_RUN_MARK"
_PR_SET_CHILD_SUBREAPER = 36

_lock = threading.Lock()
_tracked: set[int] = set()  # children the process layer spawned and will reap itself
_subreaper = False


def become_subreaper() -> bool:
    """Make this process the reaper of its descendants' orphans; False where unsupported."""
    global _subreaper  # noqa: PLW0603 - one flag per process, set once at start
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        ok = bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        ok = False
    _subreaper = ok
    return ok


def is_subreaper() -> bool:
    return _subreaper


def marked(env: Mapping[str, str] | None) -> tuple[dict[str, str], str]:
    """``env`` (None: ours) with a fresh mark, and the mark."""
    mark = secrets.token_hex(12)
    base = dict(os.environ if env is None else env)
    base[MARK_VAR] = mark
    return base, mark


def track(pid: int) -> None:
    with _lock:
        _tracked.add(pid)


def untrack(pid: int) -> None:
    with _lock:
        _tracked.discard(pid)


def _pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def _carries(pid: int, needle: bytes) -> bool:
    return needle in b"\0" + _read(f"/proc/{pid}/environ") + b"\0"


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, ppid) from /proc/<pid>/stat; comm may hold anything, even ") "."""
    raw = _read(f"/proc/{pid}/stat")
    fields = raw[raw.rfind(b")") + 2 :].split(b" ", 2)
    if len(fields) < 2:
        return None
    return fields[0].decode(), int(fields[1])


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, 0)


def end_tree(mark: str, leader: int | None = None) -> int:
    """Kill every process still carrying ``mark`` (and, as a subreaper, every orphan
    child); reap the ones that are ours. Returns how many were killed.

    One scan of /proc races with a fork in flight: a child created after the listing
    was read is missed. So scans repeat until one finds nobody new; a SIGKILLed
    parent cannot fork again (the kernel aborts a fork with a fatal signal pending).
    """
    needle = b"\0" + f"{MARK_VAR}={mark}".encode() + b"\0"
    me = os.getpid()
    killed: list[int] = []
    seen: set[int] = set()
    for _ in range(_MAX_SCANS):
        fresh = _scan(needle, me, leader, seen)
        if not fresh:
            break
        killed.extend(fresh)
    for pid in killed:
        stat = _stat(pid)
        if stat is not None and stat[1] == me:
            _reap(pid)
    return len(killed)


_MAX_SCANS = 64  # a fork bomb outpacing the scans is stopped by the host's timeout


def _scan(needle: bytes, me: int, leader: int | None, seen: set[int]) -> list[int]:
    """One pass: kill the marked (and orphaned) processes not killed before."""
    fresh: list[int] = []
    for pid in _pids():
        if pid in (me, leader) or pid in seen:
            continue
        if _carries(pid, needle):
            _kill(pid)
            seen.add(pid)
            fresh.append(pid)
    if _subreaper:
        with _lock:
            ours = set(_tracked)
        for pid in _pids():
            if pid in ours or pid == leader or pid in seen:
                continue
            stat = _stat(pid)
            if stat is None or stat[1] != me:
                continue
            if stat[0] not in ("Z", "X"):
                _kill(pid)
                seen.add(pid)
                fresh.append(pid)
            _reap(pid)
    return fresh
