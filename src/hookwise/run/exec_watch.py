"""Every ``exec`` in the session, seen by the supervisor before it happens: a hook is known
from the moment the host's shell starts it, so one killed before it said ``started`` is a
lost hook, not nothing (rt24 #9: a process polling /proc every millisecond killed 10 of 10
hooks in their first milliseconds, and the session said nothing).

init installs a seccomp filter that hands ``execve``/``execveat`` to a listener
(``SECCOMP_RET_USER_NOTIF``, unprivileged under ``no_new_privs``) and sends the listener
here. For each exec the calling process waits in the kernel while this thread reads the new
program and command line from its memory (``/proc/<pid>/mem``: the supervisor owns the
session's user namespace and is an ancestor of every process in it) and, when it is a hook's
(:class:`HookExecs`), opens a pidfd on it (still waiting, so the pid cannot have been
reused), gives it a socket of its own to the audit sink and tells the sink; then the exec
goes on (``SECCOMP_USER_NOTIF_FLAG_CONTINUE``): an exec is never refused here. The same
listener is handed every call that could signal another process, which
:mod:`hookwise.run.signal_guard` decides (EPERM for a signal to a hook from a process that
did not start it). No process inside can remove the filter, nor install one with a listener
of its own (the session's filter refuses ``SECCOMP_FILTER_FLAG_NEW_LISTENER``: the newest
filter's listener would be notified instead of this one).
"""

from __future__ import annotations

import fcntl
import os
import sys

from hookwise.run.hook_hosts import HostStarts, copy_of_parent
from hookwise.run.signal_guard import CONTINUE, Answer, Stat, read_stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from hookwise.run.signal_guard import SignalGuard

# struct seccomp_notif (80 bytes) and seccomp_notif_resp (24): the ioctls encode the sizes
NOTIF_SIZE = 80
RECV = 0xC0502100  # SECCOMP_IOCTL_NOTIF_RECV = _IOWR('!', 0, struct seccomp_notif)
SEND = 0xC0182101  # SECCOMP_IOCTL_NOTIF_SEND = _IOWR('!', 1, struct seccomp_notif_resp)
ID_VALID = 0x40082102  # SECCOMP_IOCTL_NOTIF_ID_VALID = _IOW('!', 2, __u64)
ADDFD = 0x40182103  # SECCOMP_IOCTL_NOTIF_ADDFD = _IOW('!', 3, struct seccomp_notif_addfd)
ADDFD_FLAG_SETFD = 1  # at the number given (as dup2 would), inherited across the exec
FLAG_CONTINUE = 1  # SECCOMP_USER_NOTIF_FLAG_CONTINUE
MAX_ARGS = 5  # argv entries read: a hook's has 3 or 4, so a fifth says "more"
MAX_ENV = 4096  # environment entries (more: not a hook's start hookwise can account for)
MAX_NAMES = 65536  # bytes of the environment's names read in all (more: not accounted)
NAME_CHUNK = 64  # bytes read at a time for one name
PLATFORM = "--platform"  # every hook command hookwise registers passes it
MAX_PATH = 4096
MAX_CHANNELLESS = 65536  # hooks with no channel remembered by pid (no descriptor)


def _same(pid: int, start: int) -> bool:
    """Whether ``pid`` is still the process that started at ``start`` (clock ticks); a
    zombie still is (a hook that sent its record and exited: its pid is not reused until
    its host reaps it, and the host reads its output's end first)."""
    stat = read_stat(pid)
    return stat is not None and stat.start == start


def longest_registered() -> int:
    """The length of the longest command ``hookwise install`` registers (the portable
    script, the longest host's name), as written, before a host expands ``$HOME`` in it."""
    from hookwise.config.hookwise_command import portable_command
    from hookwise.protocol.hosts import HOST_NAMES

    return max(len(portable_command(host).encode()) for host in HOST_NAMES)


def _which(name: str, path: str) -> list[str]:
    """Every executable ``name`` on ``path`` (resolved), and the usual system ones."""
    out: list[str] = []
    for directory in [*path.split(":"), "/bin", "/usr/bin"]:
        candidate = os.path.join(directory or ".", name)
        if os.path.isabs(candidate) and os.access(candidate, os.X_OK):
            out.append(os.path.realpath(candidate))
    return out


class HookExecs:
    """What an exec that starts a hook looks like, for this session: a shell (``sh``,
    ``bash`` of ``PATH`` or the system's) running a registered command that runs only
    hookwise (``is_script``: ``config/hookwise_command.runs_only_hookwise``, handed in by the
    CLI); hookwise's launcher with ``--platform``; the ``hookwise`` command of ``PATH`` with
    ``hook --platform``. Each program by its resolved path, all of them read-only inside: a
    process that names ``--platform`` in a program of its own is no hook (it would get a
    hook's channel and its records the mark of one).

    Only hookwise's own program gets the hook's channel (:meth:`accounted`): the shell runs
    what its environment says first (``BASH_ENV``, exported functions, ``PATH`` and
    ``XDG_DATA_HOME`` choosing the program), so a process of the agent's that runs the
    registered command under an environment of its own got the channel in the shell and
    forged records marked as a launched hook's (red team s25 #3)."""

    def __init__(self, env: dict[str, str], is_script: Callable[[str], bool]) -> None:
        from hookwise.policy.trust.scopes import launcher_path

        path = env.get("PATH") or "/usr/bin:/bin"
        self.shells = {*_which("sh", path), *_which("bash", path)}
        self.launchers = {os.path.realpath(launcher_path(env))}
        self.consoles = set(_which("hookwise", path))
        self.is_script = is_script
        self.start_env = env  # the agent's environment as `hookwise run` started it
        self.max_arg = longest_registered() + MAX_PATH  # (Gemini CLI expands $HOME in it)
        # each hook program by its file (device, inode): an exec's program is looked up
        # with one stat, which the kernel bounds (40 links at most), where a resolution in
        # Python of a path of 790 links took the watch 8 to 16 s, and every hook waited
        # behind it (red team s30 run #1)
        self.files: dict[tuple[int, int], str] = {}
        for kind, paths in (("console", self.consoles), ("launcher", self.launchers),
                            ("shell", self.shells)):  # fmt: skip
            for path in paths:
                try:
                    found = os.stat(path)
                except OSError:
                    continue
                self.files[(found.st_dev, found.st_ino)] = kind

    def program(self, program: str) -> str | None:
        """Which of the hook programs ``program`` is (``shell``, ``launcher``,
        ``console``), None for any other: an exec of any other program is answered without
        reading its arguments (red team s29 run #1: the cost of a decision is not the
        caller's to choose)."""
        try:
            found = os.stat(program)
        except (OSError, ValueError):
            return None  # (past the kernel's 40 links, or no file: no hook program)
        known = self.files.get((found.st_dev, found.st_ino))
        if known is not None:
            return known
        # a program replaced since the session began (hookwise installed again from
        # outside): by its path, now that the kernel has resolved it within its bounds
        real = os.path.realpath(program)
        if real in self.shells:
            return "shell"
        if real in self.launchers:
            return "launcher"
        return "console" if real in self.consoles else None

    def kind(self, program: str, argv: list[str]) -> str | None:
        """``shell``, ``launcher`` or ``console`` for a hook's exec; None for any other. A
        shell's script longer than :attr:`max_arg` (the longest registered command) is none
        (its argv entry reads as that long plus one)."""
        which = self.program(program)
        if which == "shell":
            if len(argv) >= 3 and len(argv[2]) > self.max_arg:
                return None
            hook = len(argv) >= 3 and argv[1] == "-c" and self.is_script(argv[2])
            return "shell" if hook else None
        if which == "launcher":
            return "launcher" if argv[1:2] == [PLATFORM] else None
        hook = which == "console" and argv[1:3] == ["hook", PLATFORM]
        return "console" if hook else None

    def __call__(self, program: str, argv: list[str]) -> bool:
        return self.kind(program, argv) is not None

    def accounted(self, kind: str, argv: list[str], environ: list[tuple[str, str]] | None) -> bool:
        """Whether hookwise's program starts as its own code only, deciding as registered,
        so its records may carry a hook's mark: the arguments ``hookwise install`` writes
        (``--platform HOST`` and nothing else: not ``--policy`` or ``--no-audit``); no
        variable the dynamic loader reads (``LD_*``, ``GCONV_PATH``) and, for the console
        script (a Python without ``-I``), none Python reads (``PYTHON*``), unless it has
        the value it had when the session started (the user's own, not one a process
        inside chose). The launcher's Python runs with ``-IS``. ``environ``: the entries
        whose names have :meth:`prefixes` (:func:`read_environ`); None (unreadable, or
        past what is read): not accounted."""
        options = {"launcher": argv[1:], "console": argv[2:]}.get(kind)
        if options is None or len(options) != 2 or environ is None:
            return False
        return all(self.start_env.get(name) == value for name, value in environ)

    @staticmethod
    def prefixes(kind: str) -> tuple[str, ...]:
        """The names whose values :meth:`accounted` compares."""
        return ("LD_", "GCONV_PATH", *(("PYTHON",) if kind == "console" else ()))

    def value_limit(self, name: str) -> int:
        """Bytes of a compared value worth reading: the session's own value's, plus one
        (longer is another value)."""
        return len(self.start_env.get(name, "").encode("utf-8", "surrogateescape")) + 1


class Notification:
    """One call waiting: its id, the pid (outside), the number, the arch, the arguments
    and, for an exec, where its path, argv and environment are."""

    __slots__ = ("args", "argv_at", "compat", "envp_at", "id", "nr", "path_at", "pid")

    def __init__(self, data: bytes, execveat: set[int]) -> None:
        self.id = int.from_bytes(data[0:8], sys.byteorder)
        self.pid = int.from_bytes(data[8:12], sys.byteorder)
        self.nr = int.from_bytes(data[16:20], sys.byteorder, signed=True)
        arch = int.from_bytes(data[20:24], sys.byteorder)
        self.compat = not arch & 0x80000000  # (__AUDIT_ARCH_64BIT)
        self.args = [
            int.from_bytes(data[32 + 8 * index : 40 + 8 * index], sys.byteorder)
            for index in range(6)
        ]
        shift = 1 if self.nr in execveat else 0  # execveat(dirfd, path, argv, ...)
        self.path_at = self.args[shift]
        self.argv_at = self.args[1 + shift]
        self.envp_at = self.args[2 + shift]


def _string(fd: int, pointer: int, limit: int) -> str:
    text = b""
    while pointer and len(text) < limit:
        chunk = os.pread(fd, 4096 - (pointer + len(text)) % 4096, pointer + len(text))
        if not chunk:
            break
        end = chunk.find(b"\0")
        text += chunk if end < 0 else chunk[:end]
        if end >= 0:
            break
    return text[:limit].decode("utf-8", "surrogateescape")


def _strings(fd: int, at: int, width: int, count: int, limit: int) -> list[str]:
    """The first ``count`` strings of a NULL-ended pointer array at ``at``, each up to
    ``limit`` bytes (one longer reads as ``limit`` + 1 bytes)."""
    out: list[str] = []
    table = os.pread(fd, width * count, at) if at else b""
    for i in range(0, len(table) - width + 1, width):
        pointer = int.from_bytes(table[i : i + width], sys.byteorder)
        if not pointer:
            break
        out.append(_string(fd, pointer, limit + 1))
    return out


def _name(fd: int, pointer: int, budget: int) -> tuple[bytes | None, int] | None:
    """An environment entry's name (the bytes before ``=``; None for an entry with no
    ``=``, which no program reads as a variable) and the bytes read; None past ``budget``."""
    name = b""
    spent = 0
    while True:
        size = min(NAME_CHUNK, 4096 - (pointer + len(name)) % 4096)
        if spent + size > budget:
            return None
        chunk = os.pread(fd, size, pointer + len(name))
        spent += size
        if not chunk:
            return None, spent
        equals, nul = chunk.find(b"="), chunk.find(b"\0")
        if nul >= 0 and not 0 <= equals < nul:
            return None, spent
        if equals >= 0:
            return name + chunk[:equals], spent
        name += chunk


def read_environ(
    pid: int, notification: Notification, prefixes: tuple[str, ...], limit: Callable[[str], int]
) -> list[tuple[str, str]] | None:
    """The entries of an exec's environment whose names start with ``prefixes``, each value
    read up to ``limit(name)`` bytes (longer: that many plus one); None when unreadable,
    longer than :data:`MAX_ENV` entries, or with names past :data:`MAX_NAMES` bytes in all.
    Only the names are read, and the values of those names, so the cost is bounded whatever
    the caller passes (red team s29 run #1: 4,095 pointers to one 16 KiB string made every
    decision read 64 MiB)."""
    width = 4 if notification.compat else 8
    wanted = tuple(p.encode() for p in prefixes)
    out: list[tuple[str, str]] = []
    try:
        fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        at = notification.envp_at
        table = os.pread(fd, width * (MAX_ENV + 1), at) if at else b""
        budget = MAX_NAMES
        for i in range(0, len(table) - width + 1, width):
            pointer = int.from_bytes(table[i : i + width], sys.byteorder)
            if not pointer:
                return out
            found = _name(fd, pointer, budget)
            if found is None:
                return None
            name, spent = found
            budget -= spent
            if name is not None and name.startswith(wanted):
                text = name.decode("utf-8", "surrogateescape")
                out.append((text, _string(fd, pointer + len(name) + 1, limit(text))))
        return None if at else out  # (past MAX_ENV entries: not all of it)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_exec(
    pid: int, notification: Notification, limit: int, kinds: Callable[[str], str | None]
) -> tuple[str, list[str]]:
    """The program (resolved against the process's directory) and, when ``kinds`` names it
    one of the hook programs, the first :data:`MAX_ARGS` entries of argv, each up to
    ``limit`` bytes (longer: that many plus one), read from the waiting process's memory;
    ("", []) when unreadable."""
    width = 4 if notification.compat else 8
    try:
        fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return "", []
    try:
        program = _string(fd, notification.path_at, MAX_PATH)
        if program and not program.startswith("/"):
            program = os.path.join(os.readlink(f"/proc/{pid}/cwd"), program)
        if not program or kinds(program) is None:
            return program, []
        argv = _strings(fd, notification.argv_at, width, MAX_ARGS, limit)
    except OSError:
        return "", []
    finally:
        os.close(fd)
    return program, argv


class ExecWatch:
    """The listener's loop (:meth:`serve`, a thread of the supervisor's): hooks go to
    ``on_hook(pid, pidfd, channel, command, program)`` (``channel``: the sink's end of the
    hook's own socket, -1 when none could be given; ``program``: hookwise's own program
    started as registered, :meth:`HookExecs.accounted`, by a host as a hook,
    :mod:`hookwise.run.hook_hosts`), which must not block; signals are
    decided by ``guard`` (run/signal_guard.py). ``room()`` says whether the sink may hold
    descriptors for one more hook: past it a hook is counted in :attr:`untracked`, not
    watched, so processes posing as hooks cannot use up the supervisor's descriptors (red team s25
    #11: 600 of them, kept alive, and the pipe-holder check failed for a real hook)."""

    def __init__(
        self,
        listener: int,
        on_hook: Callable[[int, int, int, str, bool], None],
        is_hook: HookExecs,
        guard: SignalGuard,
        room: Callable[[], bool] = lambda: True,
    ) -> None:
        from hookwise.run.arch import EXEC_CALLS, MACHINE, SIGNAL_CALLS

        self.listener = listener
        self.on_hook = on_hook
        self.is_hook = is_hook
        self.guard = guard
        self.room = room
        self.untracked = 0  # hooks seen past the sink's room
        # the hooks with no channel of their own (past the room, or a descriptor limit
        # below HOOK_CHANNEL_FD), by pid: (start time in ticks, hookwise's program as
        # registered); no descriptor, so the pipe-holder check can still spare them and
        # hear them from their pid
        self.channelless: dict[int, tuple[int, bool]] = {}
        self.execveat = {EXEC_CALLS[MACHINE][0][1], EXEC_CALLS[MACHINE][1][1]}
        self.execs = {*EXEC_CALLS[MACHINE][0], *EXEC_CALLS[MACHINE][1]}
        native, compat = SIGNAL_CALLS[MACHINE]
        self.calls = {
            (is_compat, number): name
            for is_compat, table in ((False, native), (True, compat))
            for name, numbers in table.items()
            for number in numbers
        }
        self.seen = 0  # execs
        self.hooks = 0  # of which hooks
        self.host_starts = HostStarts()  # which hooks a host started (the CPU cgroup's proof)
        self.host_starts.agent = lambda: self.guard.agent()  # noqa: PLW0108 (set later)
        self.failed: str | None = None

    def serve(self) -> None:
        """Until the session's last process is gone (the listener hangs up)."""
        import select

        poller = select.poll()
        poller.register(self.listener, select.POLLIN)
        while True:
            events = poller.poll()
            if any(
                event & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, event in events
            ):
                return
            self._one()

    def _one(self) -> None:
        buffer = bytearray(NOTIF_SIZE)
        try:
            fcntl.ioctl(self.listener, RECV, buffer, True)
        except OSError:  # (ENOENT: the process was killed while it waited)
            return
        notification = Notification(bytes(buffer), self.execveat)
        answer = CONTINUE
        try:
            if notification.nr in self.execs:
                self._exec(notification)
            else:
                answer = self._signal(notification)
        except Exception as exc:  # (this thread must go on: every exec and signal waits on it)
            answer = self.guard.failed_with(exc)
        finally:
            self._answer(notification, answer)

    def _answer(self, notification: Notification, answer: Answer) -> None:
        response = notification.id.to_bytes(8, sys.byteorder)
        if answer.go_on:
            response += bytes(12) + FLAG_CONTINUE.to_bytes(4, sys.byteorder)
        else:
            response += answer.value.to_bytes(8, sys.byteorder, signed=True)
            response += (-answer.error).to_bytes(4, sys.byteorder, signed=True) + bytes(4)
        try:  # noqa: SIM105 - no contextlib (collections, functools) at the start
            fcntl.ioctl(self.listener, SEND, bytearray(response), True)
        except OSError:  # (killed meanwhile)
            pass

    def _signal(self, notification: Notification) -> Answer:
        call = self.calls.get((notification.compat, notification.nr))
        if call is None:  # (a number this table lacks: the filter names no other)
            return CONTINUE
        if call == "pidfd_send_signal":
            return self.guard.pidfd(
                notification.args, notification.pid, lambda: self._valid(notification)
            )
        return self.guard.decide(call, notification.args, notification.pid)

    def _valid(self, notification: Notification) -> bool:
        valid = bytearray(notification.id.to_bytes(8, sys.byteorder))
        try:
            fcntl.ioctl(self.listener, ID_VALID, valid, True)
        except OSError:
            return False
        return True

    def _exec(self, notification: Notification) -> None:
        self.seen += 1
        stat = read_stat(notification.pid)
        copy = stat is not None and copy_of_parent(notification.pid, stat.ppid)
        self.guard.exec_seen(notification.pid)
        hooks = self.is_hook
        try:
            program, argv = read_exec(notification.pid, notification, hooks.max_arg, hooks.program)
            kind = hooks.kind(program, argv) if argv else None
            by_host = self.host_starts.exec_seen(
                notification.pid, stat, copy, self._kind(kind, program, stat, copy)
            )
            if kind is not None:
                environ = None
                if kind != "shell":
                    environ = read_environ(
                        notification.pid, notification, hooks.prefixes(kind), hooks.value_limit
                    )
                self._hook(notification, argv, hooks.accounted(kind, argv, environ), by_host)
        except Exception as exc:  # the exec goes on whatever this thread met
            self.failed = f"the exec watch raised {type(exc).__name__}: {str(exc)[:200]}"

    def _kind(self, kind: str | None, program: str, stat: Stat | None, copy: bool) -> str | None:
        """What :class:`HostStarts` needs of an exec: ``hook shell``, ``launcher`` or
        ``console``; for a copy of the agent before its first child was seen, ``shell``,
        ``missing`` (no such file: a failed try of a ``PATH`` search) or None (a program:
        a wrapper's host); None for any other (its program not looked up again)."""
        if kind == "shell":
            return "hook shell"
        if kind is not None:
            return kind
        candidate = copy and stat is not None and not self.host_starts.first_child_seen
        if candidate and stat is not None and stat.ppid == self.guard.agent():
            try:
                os.stat(program)
            except (OSError, ValueError):
                return "missing"
            return "shell" if self.is_hook.program(program) == "shell" else None
        return None

    def _hook(
        self, notification: Notification, argv: list[str], accounted: bool, by_host: bool
    ) -> None:
        """Watched from its exec on (a lost hook is known); its own channel only when
        ``accounted`` (:meth:`HookExecs.accounted`); a CPU share of the hooks' only when a
        host started it as a hook too (:mod:`hookwise.run.hook_hosts`)."""
        if not self.room():
            self.untracked += 1
            self._channelless(notification.pid, accounted)
            return
        try:
            pidfd = os.pidfd_open(notification.pid)
        except OSError:
            return
        valid = bytearray(notification.id.to_bytes(8, sys.byteorder))
        try:  # still waiting: the pidfd is the process that execs, not a reused pid
            fcntl.ioctl(self.listener, ID_VALID, valid, True)
        except OSError:
            os.close(pidfd)
            return
        self.hooks += 1
        self.guard.hook_seen(notification.pid)
        channel = self._channel(notification) if accounted else -1
        if channel < 0:  # (a hook's RLIMIT_NOFILE at or below HOOK_CHANNEL_FD: its pid)
            self._channelless(notification.pid, accounted)
        command = " ".join(argv)[:4096]
        self.on_hook(notification.pid, pidfd, channel, command, accounted and by_host)

    def _channelless(self, pid: int, accounted: bool) -> None:
        stat = read_stat(pid)
        if stat is None:
            return
        if len(self.channelless) >= MAX_CHANNELLESS:  # (the gone ones dropped)
            self.channelless = {p: e for p, e in self.channelless.items() if _same(p, e[0])}
        if len(self.channelless) < MAX_CHANNELLESS:
            self.channelless[pid] = (stat.start, accounted)

    def channelless_alive(self) -> list[int]:
        """The hooks with no channel that still run (the sink's thread: a copy)."""
        return [pid for pid, (start, _) in list(self.channelless.items()) if _same(pid, start)]

    def channelless_program(self, pid: int) -> bool:
        """Whether ``pid`` runs hookwise's program, started as registered, seen with no
        channel of its own (:meth:`HookExecs.accounted`), not a later process with its
        pid."""
        entry = self.channelless.get(pid)
        return entry is not None and entry[1] and _same(pid, entry[0])

    def _channel(self, notification: Notification) -> int:
        """A socket of the hook's own, put in it at :data:`HOOK_CHANNEL_FD` while its exec
        waits (``SECCOMP_IOCTL_NOTIF_ADDFD``); the sink's end, or -1. Its records go there
        instead of the session's socket, whose queue any process inside can keep full (rt24
        #8): no other process can send on it (a socket is not reopened through
        ``/proc/<pid>/fd``, and the filter refuses ``pidfd_getfd`` and ``ptrace``)."""
        import _socket

        from hookwise.policy.audit import HOOK_CHANNEL_FD

        ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        try:
            ours.setsockopt(_socket.SOL_SOCKET, _socket.SO_PASSCRED, 1)
            request = notification.id.to_bytes(8, sys.byteorder) + b"".join(
                n.to_bytes(4, sys.byteorder)
                for n in (ADDFD_FLAG_SETFD, theirs.fileno(), HOOK_CHANNEL_FD, 0)
            )
            fcntl.ioctl(self.listener, ADDFD, bytearray(request), True)
        except OSError:  # (a lower RLIMIT_NOFILE, or killed meanwhile: the shared socket)
            ours.close()
            return -1
        finally:
            theirs.close()
        ours.setblocking(False)
        return ours.detach()
