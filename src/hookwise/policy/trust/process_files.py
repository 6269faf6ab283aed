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


# what stands for the writer's own pid while a /proc path is normalised (no pid has it)
_SELF = "\0self"
# a pid the line itself started (its last background job)
_STARTED = frozenset(["$!", "${!}"])
# bound on /proc/<pid>/root and /cwd re-entries followed (each starts the path over)
_REENTRIES = 8


def normalise(path: str) -> str:
    """``path`` (absolute) as the kernel reads it inside a proc mount: the writer's own
    ``self``, ``thread-self`` (``<pid>/task/<tid>``) and ``$$`` put in place before
    ``..`` is applied (``/proc/self/../$p/fd/1`` is ``$p``'s fd, red team s35 #4;
    ``thread-self/../..`` is the writer's own ``/proc/<pid>``), and the writer's own
    ``root/`` (``/proc/self/root/proc/$p/...``) read again from ``/``. The writer's own
    ``cwd/`` and another process's ``root`` and ``cwd`` stay as they are (its files)."""
    for _ in range(_REENTRIES):
        path = "/" + path.lstrip("/") if path.startswith("//") else path
        for point, kind in mounts():
            inside = point.rstrip("/") + "/"
            if kind != PROC_TYPE or not path.startswith(inside):
                continue
            swapped: list[str] = []
            for part in path[len(inside) :].split("/"):
                swapped += _own(part) if _at_top(swapped) else [part]
            resolved = os.path.normpath(inside + "/".join(swapped))
            rest = resolved[len(inside) :].split("/") if resolved.startswith(inside) else []
            if len(rest) >= 2 and rest[0] == _SELF and rest[1] == "root":
                path = "/" + "/".join(rest[2:])  # (the writer's own root is /)
                break
            return resolved.replace(_SELF, "self")
        else:
            return path
    return path


def _at_top(parts: list[str]) -> bool:
    """Whether the next component is a top entry of the proc mount (a pid's place):
    the parts so far, ``..`` applied, leave nothing."""
    depth = 0
    for part in parts:
        if part in ("", "."):
            continue
        depth = max(0, depth - 1) if part == ".." else depth + 1
    return depth == 0


def _own(part: str) -> list[str]:
    """A top entry of the proc mount that is the writer's own, spelled as its components."""
    if part == "thread-self":
        return [_SELF, "task", _SELF]
    if part in _OWN or part == str(os.getpid()):
        return [_SELF]
    return [part]


def acts_on_processes(path: str) -> str | None:
    """Why writing ``path`` (absolute; a word the line completes when it runs too) acts on
    processes hookwise cannot tell from the host and its hooks; None when it does not."""
    if path.startswith("/dev/fd/"):
        return None  # (the writer's own descriptors)
    path = normalise(path)
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
        if first == "self" or first in _STARTED:
            return None  # (the writer's own, or a job the line started)
        if first.isdigit() or not _DYNAMIC.isdisjoint(first):
            return (
                f"it writes {path}, a file of a process this command did not start (its "
                "limits, memory, descriptors or scheduling): hookwise cannot tell it from "
                "the host or the hooks that guard it"
            )
        return None
    return None
