"""Which hooks a host started: the proof a hook needs to enter the hooks' CPU cgroup.

Any process of the session can run the registered command, or hookwise's own program as
registered; s29's fix let only hookwise's program in (not a shell, which runs what its
environment says first), but a process of the session that started the launcher on a
1.8 MB command still had it moved into the hooks' cgroup, protected, burning the whole
7 s deadline there beside the real hooks (red team s30 run #6). So the place is earned by
who started it, read from the exec sequence the watch sees (every exec of the session
waits on it), not from any spelling:

- a **host** is the agent (init's first child), or the agent's first child when what it
  exec'd first was a program, not a shell (a wrapper's real host: npm's ``codex`` and
  ``claude`` start their native binaries so);
- a **hook shell** is a registered command's shell exec'd by a copy of a host (a fork
  that still runs the host's program: a tool's shell that later ``exec``s the command runs
  a shell, and a process the agent did not fork has another parent);
- hookwise's program enters when a hook shell ``exec``s it (the registered command does),
  or a copy of a hook shell or of a host does (the fallback, or a host running it direct).

What it cannot tell: a host that is not the agent or its first child (a host started by a
tool call) has hooks that compete in the session's own CPU share (they still decide, and
the deadline still holds); an MCP server the agent started first passes as a host.
"""

from __future__ import annotations

import os

from hookwise.run.signal_guard import Stat, read_stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

MAX_KEPT = 65536  # hook shells remembered (the gone ones dropped past it)


class HostStarts:
    """The hook shells hosts started (pid -> start ticks), kept by the watch's thread."""

    def __init__(self) -> None:
        self.agent: Callable[[], int | None] = lambda: None
        self.wrapped: tuple[int, int] | None = None  # the agent's first child: (pid, start)
        self.first_child_seen = False
        self.shells: dict[int, int] = {}

    def hosts(self) -> list[int]:
        """The agent and the wrapper's host, while they run (any thread may ask)."""
        agent, wrapped = self.agent(), self.wrapped
        out = [agent] if agent is not None else []
        if wrapped is not None and _same(*wrapped):
            out.append(wrapped[0])
        return out

    def _host(self, pid: int) -> bool:
        if pid > 0 and pid == self.agent():
            return True
        return self.wrapped is not None and self.wrapped[0] == pid and _same(*self.wrapped)

    def _shell(self, pid: int) -> bool:
        start = self.shells.get(pid)
        return start is not None and _same(pid, start)

    def exec_seen(self, pid: int, stat: Stat | None, copy: bool, kind: str | None) -> bool:
        """An exec of ``pid`` (``stat`` read as it waits; ``copy``: it still runs its
        parent's program, :func:`copy_of_parent`; ``kind``: the hook program it names, or
        ``shell`` for any shell, ``missing`` for no file, None for any other program):
        whether it is hookwise's program started by a host as a hook. An exec that fails
        (a ``PATH`` search tries each directory) changes nothing: a copy stays a copy."""
        if stat is None:
            return False
        parent = stat.ppid
        if copy and not self.first_child_seen and kind != "missing" and parent == self.agent():
            self.first_child_seen = True
            if kind is None:  # (a program, not a shell: the wrapper's real host)
                self.wrapped = (pid, stat.start)
        if kind == "hook shell":
            if copy and self._host(parent):
                self._keep(pid, stat.start)
            return False
        if kind not in ("launcher", "console"):
            return False
        by_host = self._shell(pid) or (copy and (self._host(parent) or self._shell(parent)))
        self.shells.pop(pid, None)
        return by_host

    def _keep(self, pid: int, start: int) -> None:
        if len(self.shells) >= MAX_KEPT:
            self.shells = {p: s for p, s in self.shells.items() if _same(p, s)}
        if len(self.shells) < MAX_KEPT:
            self.shells[pid] = start


def copy_of_parent(pid: int, parent: int) -> bool:
    """Whether ``pid`` still runs its parent's program (the same file): a fork that has not
    exec'd yet, whatever exec attempts failed before (each is seen, none changed it). A
    tool's shell that ``exec``s a registered command runs a shell, not its host's program."""
    try:
        mine = os.stat(f"/proc/{pid}/exe")
        theirs = os.stat(f"/proc/{parent}/exe")
    except OSError:
        return False
    return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)


def _same(pid: int, start: int) -> bool:
    stat = read_stat(pid)
    return stat is not None and stat.start == start and stat.state not in ("Z", "X")
