"""Files whose write acts on running processes: a cgroup's control files and another
process's ``/proc/<pid>/`` files.

``echo $p > /sys/fs/cgroup/freezer/x/tasks`` with ``FROZEN`` in ``freezer.state`` freezes
each new hook (no signal, no pid operand: red team s33 #2); ``cgroup.kill``,
``cgroup.procs``, ``cpu.max`` kill, move or starve a group; ``/proc/<pid>/`` files change a
process's limits, memory, descriptors or OOM score, ``/proc/sysrq-trigger`` every process.
Which process that is, the host and its hooks among them, is known only when the line runs:
such a write is unverifiable (ask), as a ``kill`` of a pid is
(shell/commands/process_targets.py). The filesystems are found by type in this process's
mount table, wherever they are mounted; the line's own ``/proc/self`` and ``/proc/$$``
are its own.

Standard library only, read once a process (only for a call that writes).
"""

from __future__ import annotations

from hookwise.policy import os_lite as os  # os without its import cost

CGROUP_TYPES = frozenset(["cgroup", "cgroup2"])
PROC_TYPE = "proc"
# /proc/<name>: the writer itself (the line's shell or the program it runs)
_OWN = frozenset(["self", "thread-self", "$$", "${$}"])
# /proc entries whose write acts on every process (sysrq: kill all, freeze, reboot)
_ALL = frozenset(["sysrq-trigger"])
_DYNAMIC = frozenset("$`*?[")

_MOUNTS: dict[str, list[tuple[str, str]]] = {}  # (read once a process)


def mounts() -> list[tuple[str, str]]:
    """(mount point, type) of this process's cgroup and proc mounts, longest first (the
    kernel's defaults when the table cannot be read)."""
    cached = _MOUNTS.get("")
    if cached is None:
        found: list[tuple[str, str]] = []
        try:
            with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
                lines = handle.read().splitlines()
        except OSError:
            lines = []
        for line in lines:
            left, _sep, right = line.partition(" - ")
            fields = left.split()
            kind = right.split(" ", 1)[0]
            if len(fields) >= 5 and (kind in CGROUP_TYPES or kind == PROC_TYPE):
                found.append((_unescape(fields[4]), kind))
        found = found or [("/proc", PROC_TYPE), ("/sys/fs/cgroup", "cgroup2")]
        cached = _MOUNTS[""] = sorted(set(found), key=lambda item: -len(item[0]))
    return cached


def _unescape(field: str) -> str:
    """mountinfo's octal escapes (``\\040`` for a space)."""
    out: list[str] = []
    index = 0
    while index < len(field):
        code = field[index + 1 : index + 4]
        if field[index] == "\\" and len(code) == 3 and code.isdigit():
            out.append(chr(int(code, 8)))
            index += 4
        else:
            out.append(field[index])
            index += 1
    return "".join(out)


def acts_on_processes(path: str) -> str | None:
    """Why writing ``path`` (absolute; a word the line completes when it runs too) acts on
    processes hookwise cannot tell from the host and its hooks; None when it does not."""
    for point, kind in mounts():
        inside = point.rstrip("/") + "/"
        if path != point and not path.startswith(inside):
            continue
        if kind in CGROUP_TYPES:
            return (
                f"it writes {path}, a cgroup's control file: it moves, freezes, throttles or "
                "kills the processes of a group, which may hold the host or the hooks that "
                "guard it"
            )
        first = path[len(inside) :].split("/", 1)[0]
        if first in _ALL:
            return f"it writes {path}, which acts on every process of the machine"
        if first in _OWN or first == str(os.getpid()):
            return None  # (the writer's own; the hook's own pid is /proc/self resolved)
        if first.isdigit() or not _DYNAMIC.isdisjoint(first):
            return (
                f"it writes {path}, a file of a process this command did not start (its "
                "limits, memory, descriptors or scheduling): hookwise cannot tell it from "
                "the host or the hooks that guard it"
            )
        return None
    return None
