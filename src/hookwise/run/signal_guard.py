"""Signals to a hook from another process of the session, refused before they are sent.

Every process of a session has the same uid, so the kernel lets any of them kill or stop a
hook; Claude Code and Gemini CLI take a hook that dies (or times out, stopped) as a
non-blocking error and run the tool. The exec listener (run/exec_watch.py) is also handed
every call that could signal another process (``libc.exec_notifier_program``: signal 0
and a thread's SIGURG pass at once) and asks :class:`SignalGuard` here, in the supervisor,
outside the session's pid namespace.

**Protected**: a live hook (seen at its exec, by pid and start time, so a reused pid is not
protected), and a child of a host that has not exec'd yet (the window between the host's
fork and the hook's exec). Hosts are the agent (init's first child) and the parent of every
hook seen. A host's child that has exec'd something else (a tool's shell, an MCP server) is
not protected: a tool call may still kill another tool's process.

**Scheduling** (``sched_setscheduler``, ``sched_setparam``, ``sched_setattr``,
``sched_setaffinity``, ``setpriority``, ``ioprio_set`` aimed at another process) follows the
same rule, with the hosts protected too (a hook inherits its host's class and nice).

**Refused**: a signal whose targets include a protected process, from a process that is not
an ancestor of it (the host, and the shell or ``timeout`` that started the hook, may end
it). Every signal but 0 counts (a stopped hook times out too). Targets, as the kernel reads
them, in the sender's pid namespace (translated through ``NSpid``/``NSpgid`` of
``/proc/<pid>/status``): ``kill(pid)`` and ``rt_sigqueueinfo`` that process (or the one a
thread id names), ``kill(0)`` the sender's group, ``kill(-1)`` every process it sees but its
namespace's init, ``kill(-pgid)`` the group, ``tkill``/``tgkill``/``rt_tgsigqueueinfo`` the
thread's process. ``pidfd_send_signal`` names its target by a descriptor the sender's other
threads could swap between a check and the call: the guard takes the sender's file
(``pidfd_getfd``), checks the process it refers to and sends the signal itself through it,
answering with the result (the receiver sees it as sent from outside: ``si_pid`` 0).
``fcntl(F_SETOWN)`` names where a file's I/O signals (SIGIO, or any ``F_SETSIG`` chose,
SIGKILL included) go later: refused for a protected process, and for a process group a hook
is or could be in (a host's); its forms that pass the owner through memory
(``F_SETOWN_EX``, ``ioctl FIOSETOWN``/``SIOCSPGRP``) could change after the check and are
refused inside whatever they name.

The decision reads a few ``/proc`` files of the sender and of the protected processes (none
takes the memory lock a busy process holds), and answers CONTINUE at once when nothing is
protected. One that fails answers EPERM while a hook is registered (fail closed), CONTINUE
otherwise, and is recorded once (``failed``).
"""

from __future__ import annotations

import _thread
import os
import time

from hookwise.run.hook_output import HOST_THREADS, children_within, threads

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

EPERM, EBADF = 1, 9
TICKS = os.sysconf("SC_CLK_TCK")
MAX_EXECS = 65536  # pids remembered as having exec'd before the gone ones are dropped
MAX_DEPTH = 256  # parents walked looking for the sender among a target's ancestors
# threads of all the hosts together whose files a decision reads (of one process:
# hook_output.HOST_THREADS): past them the decision cannot account for what it did not
# read, and refuses while a hook runs (red team s30 run #4)
THREADS_READ = 1024
PIDFD_SIGNAL_PROCESS_GROUP = 4
SIGINFO_SIZE = 128
F_SETOWN, F_SETOWN_EX = 8, 15
FIOSETOWN, SIOCSPGRP = 0x8901, 0x8902
# (call, index of the pid argument, index of the signal argument, how the pid is read)
SCHEDULING = ("sched_setparam", "sched_setscheduler", "sched_setaffinity", "sched_setattr")
PRIO_PROCESS, PRIO_PGRP, PRIO_USER = 0, 1, 2  # setpriority's ``which`` (ioprio_set's: + 1)
TARGETS = {
    "kill": (0, 1, "kill"),
    "rt_sigqueueinfo": (0, 1, "pid"),
    "tkill": (0, 1, "thread"),
    "tgkill": (1, 2, "thread"),
    "rt_tgsigqueueinfo": (1, 2, "thread"),
}


def _s32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


class Stat:
    """The fields of ``/proc/<pid>/stat`` the guard reads."""

    __slots__ = ("comm", "pgrp", "ppid", "start", "state", "threads")

    def __init__(self, text: str) -> None:
        head, _, rest = text.rpartition(")")
        self.comm = head.partition("(")[2]
        fields = rest.split()
        self.state = fields[0]
        self.ppid = int(fields[1])
        self.pgrp = int(fields[2])
        self.threads = int(fields[17])
        self.start = int(fields[19])  # clock ticks after boot


def read_stat(pid: int) -> Stat | None:
    """``pid``'s stat, read from its main thread's file: the process's own sums the times
    of every thread (0.9 ms a read with 3000 threads), and the fields read here are the
    same in both."""
    try:
        with open(f"/proc/{pid}/task/{pid}/stat", "rb") as handle:
            return Stat(handle.read().decode("utf-8", "replace"))
    except (OSError, ValueError, IndexError):
        return None


def read_ids(path: str) -> dict[str, list[int]]:
    """The ``Tgid``, ``NStgid``, ``NSpid`` and ``NSpgid`` lines of a ``status`` file (the
    ids from this ``/proc``'s namespace down to the process's own)."""
    out: dict[str, list[int]] = {}
    with open(path, "rb") as handle:
        for line in handle:
            name, _, value = line.partition(b":")
            if name in (b"Tgid", b"NStgid", b"NSpid", b"NSpgid"):
                out[name.decode()] = [int(word) for word in value.split()]
                if len(out) == 4:
                    break
    return out


class Sender:
    """The calling thread: its process (outer pid), its ids in its own pid namespace's
    level (``level``: 0 is the supervisor's), and its process group (outer)."""

    __slots__ = ("level", "nspgid", "nspid", "nstgid", "pid", "tid")

    def __init__(self, tid: int) -> None:
        ids = read_ids(f"/proc/{tid}/status")
        self.tid = tid
        self.pid = ids["Tgid"][0]
        self.nspid = ids["NSpid"]
        self.nstgid = ids["NStgid"]
        self.nspgid = ids.get("NSpgid", [])
        self.level = len(self.nspid) - 1

    def comm(self) -> str:
        stat = read_stat(self.pid)
        return stat.comm if stat is not None else ""

    def program(self) -> str:
        try:
            return os.readlink(f"/proc/{self.pid}/exe")  # (no memory lock, unlike cmdline)
        except OSError:
            return ""


class Refusal:
    """One signal refused: who sent it, to which protected process, which signal."""

    __slots__ = ("call", "command", "program", "sender", "signal", "target", "target_command")

    def __init__(self, call: str, sender: Sender, target: int, sig: int) -> None:
        self.call = call
        self.sender = sender.pid
        self.command = sender.comm()
        self.program = sender.program()
        self.target = target
        stat = read_stat(target)
        self.target_command = stat.comm if stat is not None else ""
        self.signal = sig

    def scheduling(self) -> bool:
        """Whether the call refused changes scheduling (not a signal)."""
        return self.call in SCHEDULING or self.call in ("setpriority", "ioprio_set")

    def describe(self) -> str:
        what = "changed the scheduling of" if self.scheduling() else f"sent signal {self.signal} to"
        return (
            f"pid {self.sender} ({self.command}) {what} pid {self.target} "
            f"({self.target_command}) with {self.call}"
        )


class Answer:
    """The listener's reply: CONTINUE, or a result (``error`` a positive errno or 0)."""

    __slots__ = ("error", "go_on", "value")

    def __init__(self, go_on: bool, error: int = 0, value: int = 0) -> None:
        self.go_on = go_on
        self.error = error
        self.value = value


CONTINUE = Answer(True)
REFUSE = Answer(False, EPERM)


class SignalGuard:
    """The protected processes (kept by the listener's thread alone) and the decisions."""

    def __init__(self, on_refused: Callable[[Refusal], None]) -> None:
        self.hooks: dict[int, int] = {}  # outer pid -> a pidfd on it (readable once it ends)
        self.hosts: dict[int, int] = {}  # the parents of hooks seen, the same way
        self.execs: dict[int, float] = {}  # outer pid -> boot time (s) of its last exec
        self.agent: Callable[[], int | None] = lambda: None
        self.init_pid = 0
        self.on_refused = on_refused
        self.refused = 0
        self.decided = 0
        self.failed: str | None = None
        # a host whose threads were past the bound: said at the end (the first one)
        self.unaccounted: str | None = None
        self.refused_unaccounted = 0  # signals refused because of it
        self._complete = True  # whether the last protected() read every host's threads
        self._take_fd: Callable[[int, int], int] | None = None
        # the registries change in this thread and are read by the sink's (protected())
        self._lock = _thread.allocate_lock()

    # what the exec watch tells -----------------------------------------------------

    def exec_seen(self, pid: int) -> None:
        """Any exec: ``pid`` is no longer a host's copy waiting to exec."""
        self.execs[pid] = time.clock_gettime(time.CLOCK_BOOTTIME)
        if len(self.execs) > MAX_EXECS:  # (a long session: forget the processes gone)
            running = {int(name) for name in os.listdir("/proc") if name.isdigit()}
            self.execs = {p: at for p, at in self.execs.items() if p in running}

    def hook_seen(self, pid: int) -> None:
        """A hook's exec (waiting, so ``pid`` is the hook's): protected until it ends, and
        its parent is a host from now on."""
        with self._lock:
            self._hook_seen(pid)

    def _hook_seen(self, pid: int) -> None:
        stat = read_stat(pid)
        if stat is None or pid in self.hooks:
            return
        self.hooks[pid] = _pidfd(pid)
        host = stat.ppid
        if host > 1 and host != self.init_pid and host not in self.hosts:
            pidfd = _pidfd(host)
            parent = read_stat(host)  # (after the pidfd: the same process, or it is gone)
            if pidfd >= 0 and parent is not None and parent.state not in ("Z", "X"):
                self.hosts[host] = pidfd
            elif pidfd >= 0:
                os.close(pidfd)

    # the protected processes -----------------------------------------------------------

    def protected(self) -> list[int]:
        """The live protected processes (outer pids); the registry pruned of dead ones.
        Also asked by the sink's thread (the pipe-holder check spares them)."""
        with self._lock:
            return self._protected()

    def _protected(self) -> list[int]:
        out = _alive(self.hooks)
        hosts = _alive(self.hosts)
        agent = self.agent()
        counted = sorted((threads(h), h) for h in hosts if h != agent)
        if agent is not None:  # (the agent first, then the hosts of fewest threads)
            counted.insert(0, (threads(agent), agent))
        # a hook's own children before their exec too: the registered command's shell forks
        # `hookwise hook` (its fallback), and that copy still bears the shell's command line
        budget = THREADS_READ
        self._complete = True
        for count, host in [*((threads(h), h) for h in out), *counted]:
            limit = max(min(HOST_THREADS, budget), 1)
            found, complete = children_within(host, limit)
            budget -= max(count, 1) if complete else 1
            if not complete:
                self._complete = False
                if self.unaccounted is None:
                    self.unaccounted = (
                        f"a host of the session (pid {host}, {count} threads) had more "
                        f"threads than the signal guard reads ({HOST_THREADS} a process, "
                        f"{THREADS_READ} in all): signals that could reach its children "
                        "were refused while a hook ran"
                    )
            for child in found:
                if child not in self.hooks and self._unexeced(child):
                    out.append(child)
        return out

    def _unexeced(self, pid: int) -> bool:
        """A host's copy that has not exec'd yet (no exec seen since it started)."""
        stat = read_stat(pid)
        if stat is None or stat.state in ("Z", "X"):
            return False
        at = self.execs.get(pid)
        return at is None or at < stat.start / TICKS

    # decisions -------------------------------------------------------------------------

    def decide(self, call: str, args: list[int], tid: int) -> Answer:
        """kill and its kin, and fcntl's/ioctl's owners (pidfd_send_signal: :meth:`pidfd`)."""
        self.decided += 1
        try:
            return self._decide(call, args, tid)
        except Exception as exc:
            return self.failed_with(exc)

    def failed_with(self, exc: BaseException) -> Answer:
        """A decision that raised: EPERM while a hook is registered (fail closed), else
        CONTINUE; the first reason kept."""
        if self.failed is None:
            self.failed = (
                f"the signal guard raised {type(exc).__name__}: {str(exc)[:200]}; signals "
                "were refused while a hook ran"
            )
        return REFUSE if self.hooks else CONTINUE

    def _decide(self, call: str, args: list[int], tid: int) -> Answer:
        if call in SCHEDULING or call in ("setpriority", "ioprio_set"):
            return self._schedule(call, args, tid)  # (SCHEDULING: the sched_* that name a pid)
        if call == "fcntl" and args[1] & 0xFFFFFFFF == F_SETOWN_EX:
            return REFUSE  # (the owner in memory: it could change after a check)
        if call == "ioctl":
            return REFUSE if args[1] & 0xFFFFFFFF in (FIOSETOWN, SIOCSPGRP) else CONTINUE
        if call == "fcntl":
            return self._owner(_s32(args[2]), tid, self.protected())
        at, signal_at, how = TARGETS[call]
        pid, sig = _s32(args[at]), _s32(args[signal_at])
        if sig == 0:
            return CONTINUE
        sender = Sender(tid)
        if pid > 0 and pid in (sender.nstgid[-1], sender.nspid[-1]):
            return CONTINUE  # (itself: raise, abort)
        if call in ("tgkill", "rt_tgsigqueueinfo") and _s32(args[0]) == sender.nstgid[-1]:
            return CONTINUE  # (one of its own threads: the kernel checks the tid is in it)
        protected = self.protected()
        unread = not self._complete and bool(self.hooks)  # (a host's children not all read)
        if not protected and not unread:
            return CONTINUE
        if how == "kill" and pid == 0:
            hit = [x for x in protected if _outer_group(x) == sender_group(sender)]
        elif how == "kill" and pid == -1:
            hit = [x for x in protected if _visible(x, sender.level)]
        elif how == "kill" and pid < -1:
            hit = [x for x in protected if _group_at(x, sender.level) == -pid]
        elif pid > 0:
            hit = [x for x in protected if _named(x, pid, sender.level)]
        else:
            return CONTINUE  # (the kernel answers EINVAL or ESRCH)
        if unread and not hit:
            return self._unaccounted()  # (it may be a copy of a host it could not read)
        return self._verdict(call, sender, hit, sig)

    def _unaccounted(self) -> Answer:
        """A decision on what it could not read, while a hook runs: refused (the safe
        error), counted, and said at the end (:attr:`unaccounted`)."""
        self.refused_unaccounted += 1
        return REFUSE

    def _verdict(self, call: str, sender: Sender, hit: list[int], sig: int) -> Answer:
        refused = [x for x in hit if x != sender.pid and not _ancestor(sender.pid, x)]
        if not refused:
            return CONTINUE
        self.refused += 1
        for target in refused:
            self.on_refused(Refusal(call, sender, target, sig))
        return REFUSE

    def _schedule(self, call: str, args: list[int], tid: int) -> Answer:
        """A change to another process's scheduling (class, nice, CPUs, I/O class): a hook
        put in ``SCHED_IDLE`` or reniced beside a busy loop answers after the host's timeout
        (red team s26 #1). Refused for the protected processes and the hosts (their next
        hooks inherit it), from a process that is not their ancestor; ``PRIO_USER`` reaches
        every process of the session's one uid."""
        if call in SCHEDULING:
            which, who = PRIO_PROCESS, _s32(args[0])
        else:
            which, who = _s32(args[0]) - (call == "ioprio_set"), _s32(args[1])
        sender = Sender(tid)
        if which == PRIO_PROCESS and who in (0, sender.nspid[-1]):
            return CONTINUE  # (itself; its own threads are named below and pass too)
        with self._lock:
            targets = [*self._protected(), *_alive(self.hosts)]
            unread = not self._complete and bool(self.hooks)
        agent = self.agent()
        if agent is not None and agent not in targets:
            targets.append(agent)
        if which == PRIO_PROCESS:
            hit = [x for x in targets if _named(x, who, sender.level)]
        elif which == PRIO_PGRP and who == 0:
            hit = [x for x in targets if _outer_group(x) == sender_group(sender)]
        elif which == PRIO_PGRP:
            hit = [x for x in targets if _group_at(x, sender.level) == who]
        elif which == PRIO_USER:
            hit = targets
        else:
            return CONTINUE  # (the kernel answers EINVAL)
        if unread and not hit:
            return self._unaccounted()
        return self._verdict(call, sender, hit, 0)

    def _owner(self, owner: int, tid: int, protected: list[int]) -> Answer:
        """``fcntl(fd, F_SETOWN, owner)``: signals later, to that process or group."""
        if owner == 0:
            return CONTINUE
        sender = Sender(tid)
        if owner > 0:
            hit = [x for x in protected if _named(x, owner, sender.level)]
            return self._verdict("fcntl F_SETOWN", sender, hit, 0)
        group = -owner
        # a hook's group now, or one a host's next hook will be in
        members = [*protected, *self.hosts, *filter(None, [self.agent()])]
        hit = [x for x in members if _group_at(x, sender.level) == group]
        return self._verdict("fcntl F_SETOWN", sender, hit, 0)

    def pidfd(self, args: list[int], tid: int, valid: Callable[[], bool]) -> Answer:
        """``pidfd_send_signal(fd, sig, info, flags)``: the sender's file taken, checked and
        used here (``valid``: the notification still waits, so its pid is not reused)."""
        self.decided += 1
        fd, sig, info, flags = _s32(args[0]), _s32(args[1]), args[2], args[3] & 0xFFFFFFFF
        try:
            sender = Sender(tid)
            pidfd = os.pidfd_open(sender.pid)
        except OSError:
            return CONTINUE  # (the sender is gone: nothing is sent)
        except Exception as exc:
            return self.failed_with(exc)
        try:
            if not valid():
                return CONTINUE
            ours = self._take(pidfd, fd)
        except OSError as exc:
            return Answer(False, exc.errno or EBADF)
        finally:
            os.close(pidfd)
        try:
            return self._send(ours, sig, info, flags, sender)
        except Exception as exc:
            return self.failed_with(exc)
        finally:
            os.close(ours)

    def _take(self, pidfd: int, fd: int) -> int:
        if self._take_fd is None:
            from hookwise.run.libc import take_fd  # (ctypes, on the first one only)

            self._take_fd = take_fd
        return self._take_fd(pidfd, fd)

    def _send(self, ours: int, sig: int, info: int, flags: int, sender: Sender) -> Answer:
        target = _fd_pid(ours)
        if target is None:
            return Answer(False, EBADF)  # (not a pidfd)
        if target > 0:  # (a thread's pidfd names its thread: the process is the target)
            target = _ids(target).get("Tgid", [target])[0]
        if target > 0 and sig != 0:
            if target == self.init_pid:  # (from inside, init ignores it: so here)
                return Answer(False, 0)
            if flags & PIDFD_SIGNAL_PROCESS_GROUP:
                group = _outer_group(target)
                hit = [x for x in self.protected() if _outer_group(x) == group]
            else:
                hit = [x for x in self.protected() if x == target]
            verdict = self._verdict("pidfd_send_signal", sender, hit, sig)
            if not verdict.go_on:
                return verdict
        return Answer(False, _send_signal(ours, sig, sender.pid, info, flags))


def _send_signal(pidfd: int, sig: int, sender: int, info: int, flags: int) -> int:
    """Send through our copy of the sender's pidfd; the errno (0: sent). A ``siginfo`` the
    sender passed is read from its memory once and sent as read."""
    import signal

    if not info:
        try:
            signal.pidfd_send_signal(pidfd, sig, None, flags)
        except OSError as exc:
            return exc.errno or EPERM
        return 0
    with open(f"/proc/{sender}/mem", "rb", buffering=0) as memory:
        memory.seek(info)
        data = memory.read(SIGINFO_SIZE)
    if len(data) != SIGINFO_SIZE:
        return 14  # EFAULT
    from hookwise.run.libc import pidfd_send_signal

    return pidfd_send_signal(pidfd, sig, data, flags)


def _pidfd(pid: int) -> int:
    try:
        return os.pidfd_open(pid)
    except OSError:
        return -1


def _alive(registry: dict[int, int]) -> list[int]:
    """The pids of ``registry`` (pid -> pidfd) whose process runs; the others dropped (a
    pidfd is readable once its process ended: no pid reused since is taken for it)."""
    import select

    ended = set()
    if registry:
        poller = select.poll()
        for pidfd in registry.values():
            if pidfd >= 0:
                poller.register(pidfd, select.POLLIN)
        ended = {fd for fd, _event in poller.poll(0)}
    out: list[int] = []
    for pid, pidfd in list(registry.items()):
        if pidfd < 0 or pidfd in ended:
            del registry[pid]
            if pidfd >= 0:
                os.close(pidfd)
        else:
            out.append(pid)
    return out


def sender_group(sender: Sender) -> int:
    return sender.nspgid[0] if sender.nspgid else _outer_group(sender.pid)


def _ids(pid: int) -> dict[str, list[int]]:
    try:
        return read_ids(f"/proc/{pid}/status")
    except (OSError, ValueError):
        return {}


def _outer_group(pid: int) -> int:
    stat = read_stat(pid)
    return stat.pgrp if stat is not None else -1


def _visible(pid: int, level: int) -> bool:
    """Whether a sender at ``level`` sees ``pid``, other than as its namespace's init (a
    deeper namespace is taken as the sender's: refusing a sibling's is the safe error)."""
    nspid = _ids(pid).get("NSpid", [])
    return len(nspid) > level and nspid[level] != 1


def _group_at(pid: int, level: int) -> int | None:
    nspgid = _ids(pid).get("NSpgid", [])
    return nspgid[level] if len(nspgid) > level else None


def _named(pid: int, number: int, level: int) -> bool:
    """Whether ``number``, in a namespace at ``level``, names ``pid`` or one of its
    threads (``kill`` of any thread id signals the whole process)."""
    nspid = _ids(pid).get("NSpid", [])
    if len(nspid) > level and nspid[level] == number:
        return True
    count = threads(pid)
    if count <= 1:
        return False
    if count > HOST_THREADS:
        return True  # (cannot tell within the bound: the safe answer)
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True  # (cannot tell: the safe answer)
    for task in tasks:
        try:
            ids = read_ids(f"/proc/{pid}/task/{task}/status").get("NSpid", [])
        except (OSError, ValueError):
            continue
        if len(ids) > level and ids[level] == number:
            return True
    return False


def _ancestor(sender: int, pid: int) -> bool:
    """Whether ``sender`` is among ``pid``'s parents (the host of a hook, its shell)."""
    for _ in range(MAX_DEPTH):
        stat = read_stat(pid)
        if stat is None or stat.ppid <= 0:
            return False
        if stat.ppid == sender:
            return True
        pid = stat.ppid
    return False


def _fd_pid(fd: int) -> int | None:
    """The process a pidfd of ours refers to (outer pid; -1 once it ended), None when
    ``fd`` is no pidfd."""
    with open(f"/proc/self/fdinfo/{fd}", "rb") as handle:
        for line in handle:
            if line.startswith(b"Pid:"):
                return int(line.split()[1])
    return None
