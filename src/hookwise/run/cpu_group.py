"""A CPU cgroup of the session's own, so that no process of it can starve the hooks through
``/proc/<pid>/autogroup``.

With ``kernel.sched_autogroup_enabled`` 1, the kernel groups the processes of a task group's
sessions (``setsid``) into autogroups and shares the CPU between them; writing 19 to
``/proc/<pid>/autogroup`` (any process of the same uid may, no capability needed) gives the
autogroup that pid is in a weight of 15 against 1024. A process of the session that moves
its busy loops to an autogroup of its own (``setsid``) and writes 19 to a hook's (which is
the agent's) stretched a hook's 0.3 s of CPU to 18-41 s on this machine: past every host's
timeout, and a hook that times out lets the tool run. The write is a file write, which the
seccomp filter cannot see, and ``/proc/<pid>`` files appear with each process, so no mount
made at the start covers them (``--read-only-proc`` does, at its price).

The kernel applies autogroups only to tasks of the *root* task group. So the supervisor puts
the builder (and with it init, the agent and everything it starts) into a CPU cgroup of the
session's own, where it can make one: the cgroup v1 ``cpu`` hierarchy, or a cgroup v2 root
that enables the ``cpu`` controller (root in both, in practice). Inside, ``/sys`` is
read-only, so nothing moves itself out; autogroup writes then change nothing, and the hooks
compete with the session's own processes only as plain tasks. Where no such cgroup can be
made and autogroups apply, the supervisor says so at the start. Measured in
docs/confinement.md ("Other ways to make a hook not answer").
"""

from __future__ import annotations

import os

_ENABLED = "/proc/sys/kernel/sched_autogroup_enabled"


def _own_cgroups() -> dict[str, str]:
    """controller (or "" for cgroup v2) -> this process's path in it."""
    out: dict[str, str] = {}
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        for line in handle:
            _id, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                out[name] = path
    return out


def _mounts() -> dict[str, str]:
    """controller (or "" for cgroup v2) -> where its hierarchy's root is mounted."""
    out: dict[str, str] = {}
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            separator = fields.index("-")
            root, point, kind = fields[3], fields[4], fields[separator + 1]
            if root != "/":
                continue
            if kind == "cgroup2":
                out.setdefault("", point)
            elif kind == "cgroup":
                for option in fields[separator + 3].split(","):
                    out.setdefault(option, point)
    return out


def _in_root_task_group(own: dict[str, str], mounts: dict[str, str]) -> bool:
    """Whether this process's CPU share is the root task group's (where autogroups apply)."""
    if "cpu" in own:
        return own["cpu"] == "/"
    path, base = own.get(""), mounts.get("")
    if path is None or base is None:
        return True
    while path not in ("", "/"):  # (a cgroup has a task group when its parent enables cpu)
        parent = path.rsplit("/", 1)[0] or "/"
        try:
            with open(f"{base}{parent.rstrip('/')}/cgroup.subtree_control") as handle:
                if "cpu" in handle.read().split():
                    return False
        except OSError:
            return True
        path = parent
    return True


def exposed() -> bool:
    """Whether a process of a session started here could set the hooks' CPU share through
    ``/proc/<pid>/autogroup`` (autogroups on, and this process in the root task group)."""
    try:
        with open(_ENABLED) as handle:
            if handle.read().strip() != "1":
                return False
        return _in_root_task_group(_own_cgroups(), _mounts())
    except (OSError, ValueError, IndexError):
        return False  # (no such file: a kernel without autogroups)


class CpuGroup:
    """The session's CPU cgroup, once :meth:`place` made one."""

    def __init__(self) -> None:
        self.path: str | None = None

    def place(self, pid: int, session: str) -> bool:
        """Make the session's cgroup and move ``pid`` into it, when autogroups would
        apply to it; whether it is now out of their reach."""
        if not exposed():
            return True
        try:
            own, mounts = _own_cgroups(), _mounts()
            if "cpu" in own and "cpu" in mounts:
                parent = mounts["cpu"] + own["cpu"].rstrip("/")
            elif own.get("") == "/" and "" in mounts:  # (v2: only the root may enable cpu)
                parent = mounts[""]
                with open(f"{parent}/cgroup.subtree_control", "w") as handle:
                    handle.write("+cpu")
            else:
                return False
            path = f"{parent}/hookwise-run-{session}"
            os.mkdir(path, 0o755)
            self.path = path
            with open(f"{path}/cgroup.procs", "w") as handle:
                handle.write(str(pid))
        except (OSError, ValueError, IndexError):
            return False
        return True

    def remove(self) -> None:
        """Remove the cgroup once its processes are gone (they end with init)."""
        if self.path is None:
            return
        import time

        for _ in range(50):
            try:
                os.rmdir(self.path)
            except FileNotFoundError:
                break
            except OSError:  # EBUSY: a process of the session still exiting
                time.sleep(0.02)
                continue
            break
        self.path = None


EXPOSED = (
    "autogroups apply to this session and it cannot have a CPU cgroup of its own (that "
    "needs root, or a cgroup v2 root with the cpu controller): a process inside can give "
    "the hooks' autogroup the lowest CPU share (`/proc/<pid>/autogroup`) and starve them "
    "past the host's timeout; --read-only-proc or `sysctl kernel.sched_autogroup_enabled=0` "
    "closes it"
)
