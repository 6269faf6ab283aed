"""Hooks that started and never answered: killed, stopped or starved by another process of
the session, so that the host gave up on them and ran the tool unguarded.

No mount keeps a process of the session from signalling another of the same user: a
background process an earlier tool call left running can kill or stop every hook, and
Claude Code and Gemini CLI take a hook that dies (or times out) as a non-blocking error. So
the supervisor watches instead. A hook inside a session sends ``started`` to the audit sink
as soon as it runs, then its record (or ``done``); the sink learns the sender's pid from the
kernel (``SCM_CREDENTIALS``: a process cannot claim another's), opens a pidfd on it, and a
hook is **lost** when

- it ends without having answered (killed; a crash inside still answers, with an error);
- it stays stopped (``SIGSTOP``, ``T`` in ``/proc/<pid>/stat``) for :data:`STOPPED_FOR`
  seconds while the agent runs (a session suspended with Ctrl-Z stops the agent too);
- it has not answered after :data:`HOOK_TIMEOUT` seconds.

Hooks killed as the session ends (the agent exited: the kernel ends every process of its pid
namespace, and init is exiting first) are not counted. What it cannot see: a hook killed
before it sent ``started`` (its shell, or the first tens
of milliseconds of the interpreter); docs/confinement.md says what else is left.
"""

from __future__ import annotations

import os
import time

from hookwise.run import hook_output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

STOPPED_FOR = 1.0  # seconds a hook may stay stopped while the agent runs
HOOK_TIMEOUT = 600.0  # the longest a host waits for a hook by default (Codex, Gemini CLI)
CHECK_EVERY = 0.25  # seconds between looks at the pending hooks' states
# seconds the pipe-holder look goes on reading, a pass each CHECK_EVERY, the processes its
# first pass could not (hook_output.look): past it, the host still waiting on a pipe a
# process it could not read may hold is killed, so that its timeout does not run the tool
LOOK_FOR = 5.0
PF_EXITING = 0x4  # /proc/<pid>/stat flags: the process is exiting
SIGNALS = {1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL", 15: "SIGTERM"}


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def exiting(pid: int) -> bool:
    """Whether ``pid`` is gone or exiting (set before its pid namespace is emptied)."""
    fields = _stat(pid)
    if fields is None or len(fields) < 7 or fields[0] in ("Z", "X"):
        return True
    return bool(int(fields[6]) & PF_EXITING) if fields[6].isdigit() else False


def _stopped(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and bool(fields) and fields[0] in ("T", "t")


class Hook:
    """One hook that said it started."""

    __slots__ = (
        "command",
        "launched",
        "parent",
        "pid",
        "pidfd",
        "pipes",
        "said_started",
        "since",
        "stopped_since",
        "vouched",
    )

    def __init__(self, pid: int, pidfd: int, command: str, now: float) -> None:
        self.pid = pid
        self.pidfd = pidfd
        self.command = command
        self.since = now
        self.stopped_since: float | None = None
        self.launched = False  # seen starting by the exec watch (run/exec_watch.py)
        self.said_started = False
        # hookwise's own program seen at its exec with no channel, checked when it said
        # `started` (its shell may reap it before its record is read)
        self.vouched = False
        # the pipes the host reads the answer from, and who started the hook (cheap here:
        # the rest is read when it answers, off the path of a hook that just started)
        self.pipes = hook_output.output_pipes(pid)
        self.parent = hook_output.parent(pid) if self.pipes else 0


class Intruder:
    """A process that held a hook's output pipe when the hook answered (killed)."""

    __slots__ = ("command", "hook", "hook_command", "pid", "why")

    def __init__(self, hook: Hook, pid: int, command: str, why: str = hook_output.HELD) -> None:
        self.hook = hook.pid
        self.hook_command = hook.command
        self.pid = pid
        self.command = command
        self.why = why  # held it, or could not be checked within the look's budget

    def describe(self) -> str:
        command = f" ({self.command[:120]})" if self.command else ""
        if self.why == hook_output.HELD:
            return f"pid {self.pid}{command} held the output of hook pid {self.hook}"
        return f"pid {self.pid}{command} near the output of hook pid {self.hook} {self.why}"


class Follow:
    """A look at a hook's output pipe that could not read every process of the session:
    read on, a pass each :data:`CHECK_EVERY` s (what its passes read is ``done``)."""

    __slots__ = ("allowed", "done", "hook", "hosts", "pipe", "readers", "since")

    def __init__(
        self, hook: Hook, pipe: str, allowed: set[int], hosts: tuple[int, ...], now: float
    ) -> None:
        self.hook = hook
        self.pipe = pipe
        self.allowed = allowed
        self.hosts = hosts
        self.since = now
        self.done: frozenset[int] = frozenset()
        self.readers: set[int] = set()


class Lost:
    """A hook that never answered, and how."""

    __slots__ = ("command", "how", "pid", "seconds")

    def __init__(self, hook: Hook, how: str, now: float) -> None:
        self.pid = hook.pid
        self.command = hook.command
        self.how = how
        self.seconds = round(now - hook.since, 3)

    def describe(self) -> str:
        command = f" ({self.command[:120]})" if self.command else ""
        return f"pid {self.pid}{command} {self.how} after {self.seconds:g} s"


class HookWatch:
    """The sink's bookkeeping of started hooks (called from the sink's thread only)."""

    def __init__(self, on_lost: Callable[[Lost], None]) -> None:
        self.pending: dict[int, Hook] = {}
        self.by_fd: dict[int, Hook] = {}
        self.lost: list[Lost] = []
        self.intruders: list[Intruder] = []
        self.answered = 0
        self.on_lost = on_lost
        self.on_intruder: Callable[[Intruder], None] = lambda _intruder: None
        self.root = 0  # the session's init (its pid outside): the processes to look at
        self.agent: Callable[[], int | None] = lambda: None
        self.session_ending: Callable[[], bool] = lambda: False
        # whether one more pidfd fits (the sink's descriptor budget, audit_sink.has_room)
        self.room: Callable[[], bool] = lambda: True
        # the processes the pipe-holder check never kills: the signal guard's protected
        # ones and the hooks the exec watch saw with no channel
        self.protected: Callable[[], list[int]] = lambda: []
        # the hosts the exec watch proved (run/hook_hosts.py): the look reads them first
        self.hosts: Callable[[], list[int]] = lambda: []
        self._last_check = time.monotonic()
        self.following: list[Follow] = []  # looks at output pipes not finished yet

    def launched(self, pid: int, pidfd: int, command: str) -> int | None:
        """The exec watch saw a hook start (its pidfd opened while the exec waited): pending
        from now, before it can say anything (rt24 #9). The pidfd to poll, None when the
        same hook was seen already (the host's shell, now executing the launcher)."""
        hook = self.pending.get(pid)
        if hook is not None and hook.launched:
            os.close(pidfd)
            return None
        if hook is not None:
            self.pending.pop(pid)
            self._forget(hook)
        hook = Hook(pid, pidfd, command, time.monotonic())
        hook.launched = True
        self.pending[pid] = hook
        self.by_fd[pidfd] = hook
        return pidfd

    def launched_hook(self, pid: int) -> bool:
        """Whether ``pid`` is a hook the exec watch saw start, not answered yet."""
        hook = self.pending.get(pid)
        return hook is not None and hook.launched

    def settle_ancestors(self, pid: int) -> list[int]:
        """A hook speaking from a child of the shell the exec watch saw (``hookwise hook``
        run, not executed, by the registered command's fallback): that shell is the same
        hook, not a lost one. The pidfds no longer polled."""
        out: list[int] = []
        for _ in range(4):
            fields = _stat(pid)
            if fields is None or len(fields) < 2 or not fields[1].isdigit():
                break
            pid = int(fields[1])
            hook = self.pending.get(pid)
            if hook is not None and hook.launched and not hook.said_started:
                self.pending.pop(pid)
                fd = self._forget(hook)
                if fd is not None:
                    out.append(fd)
        return out

    def started(self, pid: int) -> tuple[int | None, int | None]:
        """A hook said it started: (the pidfd to poll for its end, None when it already
        ended, which :meth:`check` finds; a pidfd no longer polled, when the same pid said
        it before)."""
        now = time.monotonic()
        known = self.pending.get(pid)
        if known is not None and known.launched and not known.said_started:
            known.said_started = True  # (seen at its exec: polled since)
            return None, None
        old = self.pending.pop(pid, None)
        closed = self._forget(old) if old is not None else None
        try:  # (past the budget: known, not polled; processes saying `started` cost nothing)
            pidfd = os.pidfd_open(pid) if self.room() else -1
        except OSError:
            pidfd = -1
        hook = Hook(pid, pidfd, hook_output.command_line(pid), now)
        hook.said_started = True
        self.pending[pid] = hook
        if pidfd < 0:
            return None, closed
        self.by_fd[pidfd] = hook
        return pidfd, closed

    def vouched(self, pid: int) -> bool:
        hook = self.pending.get(pid)
        return hook is not None and hook.vouched

    def is_hook(self, pid: int) -> bool:
        return pid in self.pending

    def answer(self, pid: int, *, launched: bool = False) -> int | None:
        """The hook's record (or ``done``) arrived: the pidfd no longer polled, if any.
        ``launched``: it came from hookwise's own program that the exec watch saw start as
        registered (on its channel, or from its pid when it had none), the only word the
        pipe-holder check acts on (red team s26 #6: a process that reopened a hook's stdout
        and said ``started`` + ``done`` had the real hook killed)."""
        hook = self.pending.pop(pid, None)
        if hook is None:
            return None
        self.answered += 1
        if launched:
            self._free_output(hook)
        return self._forget(hook)

    def _free_output(self, hook: Hook) -> None:
        """Kill whatever else holds the hook's output pipes (see :mod:`hook_output`), but
        never a process the signal guard protects (a hook, a host's child before its exec):
        a launched hook's stdout is whatever its starter chose, a real hook's pipe too."""
        if not hook.pipes or self.root <= 0:
            return
        protected = set(self.protected())
        hosts = tuple(self.hosts())
        now = time.monotonic()
        for pipe in hook.pipes:
            allowed = hook_output.starters(hook.pid, hook.parent, pipe, self.root) | protected
            self._look(Follow(hook, pipe, allowed, hosts, now))

    def _look(self, follow: Follow) -> None:
        """One pass of the look at ``follow``'s pipe: its proven holders killed; followed
        on when it could not read every process."""
        killed, found = hook_output.kill_intruders(
            self.root, follow.pipe, follow.allowed, follow.hosts, follow.done
        )
        for pid, command, why in killed:
            self._report(Intruder(follow.hook, pid, command, why))
        follow.readers.update(found.readers)
        if not found.finished():
            follow.done = follow.done | set(found.checked)
            self.following.append(follow)

    def _report(self, intruder: Intruder) -> None:
        self.intruders.append(intruder)
        self.on_intruder(intruder)

    def follow_looks(self, now: float) -> None:
        """The next pass of each unfinished look (see :data:`LOOK_FOR`). Fail closed: a
        look that could not read every process within it leaves its host waiting on a
        pipe one of them may hold, until the host's timeout runs the tool unguarded; the
        host (the processes the look saw reading the pipe) is killed instead, saying why,
        never a process only because it could not be read (red team s31 run #3)."""
        following, self.following = self.following, []
        for follow in following:
            if now - follow.since <= LOOK_FOR:
                self._look(follow)
                continue
            for pid in sorted(follow.readers - follow.allowed):
                command = hook_output.command_line(pid)
                try:
                    os.kill(pid, 9)
                except OSError:
                    continue
                self._report(
                    Intruder(
                        follow.hook,
                        pid,
                        command,
                        f"waited on it while processes of the session that "
                        f"{LOOK_FOR:g} s of looks could not read may hold it: killed, so "
                        "that its timeout does not run the tool unguarded",
                    )
                )

    def _forget(self, hook: Hook) -> int | None:
        if hook.pidfd < 0:
            return None
        self.by_fd.pop(hook.pidfd, None)
        os.close(hook.pidfd)
        return hook.pidfd

    def _lose(self, hook: Hook, how: str, now: float, *, died_alone: bool = False) -> int | None:
        """``died_alone``: its end was not the session's (a status other than the SIGKILL
        the kernel sends every process of the session as it ends), so it is lost even when
        this thread reads it after the session began to end (a host's ``timeout`` ending
        its hook, then the agent exiting at once: this thread, slower under load, saw the
        session ending first and said nothing)."""
        self.pending.pop(hook.pid, None)
        fd = self._forget(hook)
        ending = self.session_ending() and not died_alone
        if hook.launched and not ending:
            self._free_output(hook)
        if ending:  # killed with the rest of the session: not lost
            return fd
        if hook.launched and not hook.said_started:
            how += " (seen at its exec, before it could say it started)"
        lost = Lost(hook, how, now)
        self.lost.append(lost)
        self.on_lost(lost)
        return fd

    def ended(self, pidfd: int) -> int | None:
        """A polled hook ended (its queued record already read): lost when it had not
        answered. The pidfd to unregister."""
        hook = self.by_fd.get(pidfd)
        if hook is None:
            return None
        if not exiting(hook.pid):
            # the descriptor number was reused: the hook polled then answered and its pidfd
            # was closed, and one that started in the same batch got the number
            return None
        status = exit_status(pidfd)
        how = _how_it_ended(hook.pid) if status is None else _how_status(status)
        return self._lose(hook, how, time.monotonic(), died_alone=_not_the_sessions(status))

    def check(self) -> list[int]:
        """Look at the pending hooks (every :data:`CHECK_EVERY` s): those that ended before
        a pidfd was opened, stayed stopped, or ran out of time; and the next pass of the
        unfinished looks at output pipes. The pidfds to unregister."""
        now = time.monotonic()
        if self.following and not self.session_ending():
            self.follow_looks(now)
        suspended = now - self._last_check > 4 * CHECK_EVERY + 1  # this process was stopped
        self._last_check = now
        agent = self.agent()
        agent_stopped = agent is not None and _stopped(agent)
        out: list[int | None] = []
        for hook in list(self.pending.values()):
            if hook.pidfd < 0 and _stat(hook.pid) is None:
                out.append(self._lose(hook, "ended without answering", now))
            elif now - hook.since > HOOK_TIMEOUT:
                out.append(self._lose(hook, f"did not answer within {HOOK_TIMEOUT:g} s", now))
            elif not suspended and not agent_stopped and _stopped(hook.pid):
                hook.stopped_since = hook.stopped_since or now
                if now - hook.stopped_since >= STOPPED_FOR:
                    out.append(self._lose(hook, "was stopped (SIGSTOP) by another process", now))
            else:
                hook.stopped_since = None
        return [fd for fd in out if fd is not None]

    def finish(self) -> None:
        """The session ended: the hooks still pending ended with it (not counted)."""
        for hook in list(self.pending.values()):
            self.pending.pop(hook.pid, None)
            self._forget(hook)

    def poll_timeout(self) -> int:
        """Milliseconds the sink may sleep: forever when no hook is pending."""
        return int(CHECK_EVERY * 1000) if self.pending or self.following else -1


PIDFD_GET_INFO = 0xC040FF0B  # _IOWR(0xFF, 11, struct pidfd_info), its first 64 bytes
PIDFD_INFO_EXIT = 0x8


def exit_status(pidfd: int) -> int | None:
    """The wait status of the process ``pidfd`` refers to, once it exited, reaped or not
    (``PIDFD_GET_INFO``, Linux 6.15 on); None where the kernel does not tell."""
    import fcntl
    import struct

    info = bytearray(64)
    struct.pack_into("=Q", info, 0, PIDFD_INFO_EXIT)
    try:
        fcntl.ioctl(pidfd, PIDFD_GET_INFO, info, True)
    except OSError:
        return None
    if not struct.unpack_from("=Q", info, 0)[0] & PIDFD_INFO_EXIT:
        return None
    return int(struct.unpack_from("=i", info, 60)[0])


def _not_the_sessions(status: int | None) -> bool:
    """Whether a known end was not the session's (its SIGKILL to every process)."""
    return status is not None and status & 0x7F != 9


def _how_status(code: int) -> str:
    if code & 0x7F:
        name = SIGNALS.get(code & 0x7F, f"signal {code & 0x7F}")
        return f"was killed ({name}) before it answered"
    return f"exited with status {code >> 8} without answering"


def _how_it_ended(pid: int) -> str:
    """Killed by which signal, when /proc still has the zombie's exit code."""
    fields = _stat(pid)
    if fields is not None and len(fields) > 49 and fields[0] in ("Z", "X"):
        return _how_status(int(fields[49]) if fields[49].isdigit() else 0)
    return "ended without answering"
