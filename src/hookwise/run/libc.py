"""The Linux system calls the confinement needs and Python 3.11 lacks, through ctypes.

Every call checks its result and raises :class:`OSError` with the errno and what was being
done (the path, the flag), so a refusal names its cause. Linux only; nothing here is
called before :func:`hookwise.run.available.available` said the mechanism works.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys

from hookwise.run.arch import (
    ARCHES,
    COMPAT_SECCOMP,
    EXEC_CALLS,
    MACHINE,
    SIGNAL_CALLS,
    Abi,
    Arch,
    SignalCalls,
    arch,
)

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000

MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18

AT_FDCWD = -100
AT_RECURSIVE = 0x8000
AT_SYMLINK_NOFOLLOW = 0x100
MOUNT_ATTR_RDONLY = 0x1

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_SECUREBITS = 28
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
# SECBIT_NOROOT, SECBIT_NO_SETUID_FIXUP, SECBIT_KEEP_CAPS_LOCKED, SECBIT_NO_CAP_AMBIENT_RAISE
# and their locks: root inside gains nothing by executing a program.
SECURE_ALL = 0x1 | 0x2 | 0x4 | 0x8 | 0x20 | 0x40 | 0x80

# (the numbers are in arch.py, which the availability check reads without ctypes)
_MACHINE = MACHINE
_ARCH = ARCHES


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.unshare.argtypes = [ctypes.c_int]
_libc.mount.argtypes = [
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_ulong,
    ctypes.c_char_p,
]
_libc.prctl.argtypes = [
    ctypes.c_int,
    ctypes.c_ulong,
    ctypes.c_ulong,
    ctypes.c_ulong,
    ctypes.c_ulong,
]


def _fail(what: str) -> OSError:
    number = ctypes.get_errno()
    return OSError(number, f"{what}: {os.strerror(number)}")


def _check(result: int, what: str) -> int:
    if result < 0:
        raise _fail(what)
    return result


def _numbers() -> Arch:
    found = arch()
    if found is None:
        raise OSError(0, f"unsupported architecture {_MACHINE}")
    return found


def unshare(flags: int) -> None:
    _check(_libc.unshare(flags), f"unshare({flags:#x})")


def mount(source: str | None, target: str, fstype: str | None, flags: int) -> None:
    _check(
        _libc.mount(
            os.fsencode(source) if source is not None else None,
            os.fsencode(target),
            os.fsencode(fstype) if fstype is not None else None,
            flags,
            None,
        ),
        f"mount {target}",
    )


class _MountAttr(ctypes.Structure):
    _fields_ = (
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    )


def make_readonly(target: str, recursive: bool) -> None:
    """Set the mount at ``target`` (and every mount below it) read-only, keeping its other
    flags (nosuid, nodev... locked from the parent namespace cannot be cleared)."""
    attr = _MountAttr(MOUNT_ATTR_RDONLY, 0, 0, 0)
    flags = AT_RECURSIVE if recursive else 0
    _check(
        _libc.syscall(
            ctypes.c_long(_numbers().mount_setattr),
            ctypes.c_int(AT_FDCWD),
            ctypes.c_char_p(os.fsencode(target)),
            ctypes.c_uint(flags),
            ctypes.byref(attr),
            ctypes.c_size_t(ctypes.sizeof(attr)),
        ),
        f"read-only remount of {target}",
    )


def prctl(option: int, arg2: int = 0, arg3: int = 0, what: str = "") -> None:
    _check(_libc.prctl(option, arg2, arg3, 0, 0), what or f"prctl({option})")


def drop_capabilities(last_cap: int) -> None:
    """No capability in any set (bounding, ambient, inheritable, permitted, effective), and
    root's exceptions locked off: even uid 0 gains none by executing a program."""
    prctl(PR_SET_SECUREBITS, SECURE_ALL, what="locking the securebits")
    for cap in range(last_cap + 1):
        prctl(PR_CAPBSET_DROP, cap, what=f"dropping capability {cap} from the bounding set")
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, what="clearing the ambient capabilities")
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this thread
    data = (ctypes.c_uint32 * 6)()  # two {effective, permitted, inheritable}, all empty
    _check(_libc.capset(header, data), "dropping every capability (capset)")


def close_from(first: int) -> None:
    """Close every descriptor from ``first`` on (close_range(2))."""
    _check(
        _libc.syscall(
            ctypes.c_long(_numbers().close_range),
            ctypes.c_uint(first),
            ctypes.c_uint(0xFFFFFFFF),
            ctypes.c_uint(0),
        ),
        f"closing descriptors from {first}",
    )


TIOCSTI = 0x5412
TIOCLINUX = 0x541C
F_SETLEASE = 1024
PTRACE_ATTACH = 16
PTRACE_SEIZE = 0x4206
EPERM = 1
ENOSYS = 38
X32_BIT = 0x40000000

_LD_W_ABS, _JEQ_K, _JGE_K, _JSET_K, _RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
_ERRNO = 0x00050000  # SECCOMP_RET_ERRNO | errno
# offsets in struct seccomp_data (little-endian: an argument's low 32 bits come first)
_NR, _ARCH_AT = 0, 4


def _arg(index: int, high: bool = False) -> int:
    return 16 + 8 * index + (4 if high else 0)


# (kind, value, jump if true, jump if false): label (value: its name), ld, ret, jeq, jge, jset
Program = list[tuple[str, int | str, str, str]]


def _abi_checks(abi: Abi, prefix: str, seccomp: int, fcntls: tuple[int, ...]) -> Program:
    """After the number is loaded: the calls this ABI must check, by number."""
    return [
        *[
            item
            for index, number in enumerate(fcntls)
            for item in (
                ("jeq", number, "lease", f"{prefix}f{index}"),
                ("label", f"{prefix}f{index}", "", ""),
            )
        ],
        ("jeq", abi.ioctl, "ioctl", f"{prefix}1"),
        ("label", f"{prefix}1", "", ""),
        ("jeq", abi.ptrace, "ptrace", f"{prefix}2"),
        ("label", f"{prefix}2", "", ""),
        ("jeq", abi.process_vm_writev, "eperm", f"{prefix}3"),
        ("label", f"{prefix}3", "", ""),
        ("jeq", abi.pidfd_getfd, "eperm", f"{prefix}4"),
        ("label", f"{prefix}4", "", ""),
        ("jeq", abi.prlimit64, "prlimit", f"{prefix}5"),
        ("label", f"{prefix}5", "", ""),
        *[
            item
            for index, number in enumerate(abi.io_uring)
            for item in (
                ("jeq", number, "eperm", f"{prefix}u{index}"),
                ("label", f"{prefix}u{index}", "", ""),
            )
        ],
        ("jeq", seccomp, "seccomp", "allow"),
    ]


def filter_program(numbers: Arch, machine: str = MACHINE) -> bytes:
    """The classic BPF program of :func:`install_filter`, assembled (labels resolved)."""
    native, compat = numbers.native, numbers.compat
    program: Program = [
        ("ld", _ARCH_AT, "", ""),
        ("jeq", native.audit, "native", "compat_arch"),
        ("label", "native", "", ""),
        ("ld", _NR, "", ""),
        *([("jge", X32_BIT, "enosys", "native_calls")] if numbers.x32 else []),
        ("label", "native_calls", "", ""),
        *_abi_checks(native, "n", EXEC_CALLS[machine][2], SIGNAL_CALLS[machine][0]["fcntl"]),
        ("label", "compat_arch", "", ""),
        ("jeq", compat.audit, "compat", "allow"),
        ("label", "compat", "", ""),
        ("ld", _NR, "", ""),
        *_abi_checks(compat, "c", COMPAT_SECCOMP[machine], SIGNAL_CALLS[machine][1]["fcntl"]),
        # fcntl(fd, F_SETLEASE, ...): a lease on a file the session owns (hookwise's launcher)
        # holds every open of it, a hook's included, for the lease-break time (red team s31
        # run #1); nothing an agent runs needs one
        ("label", "lease", "", ""),
        ("ld", _arg(1), "", ""),
        ("jeq", F_SETLEASE, "eperm", "allow"),
        # ioctl(fd, request): TIOCSTI and TIOCLINUX (the kernel reads an unsigned int)
        ("label", "ioctl", "", ""),
        ("ld", _arg(1), "", ""),
        ("jeq", TIOCSTI, "eperm", "ioctl2"),
        ("label", "ioctl2", "", ""),
        ("jeq", TIOCLINUX, "eperm", "allow"),
        # ptrace(request, pid...): attaching to a process that did not ask to be traced
        ("label", "ptrace", "", ""),
        ("ld", _arg(0), "", ""),
        ("jeq", PTRACE_ATTACH, "eperm", "ptrace2"),
        ("label", "ptrace2", "", ""),
        ("jeq", PTRACE_SEIZE, "eperm", "allow"),
        # prlimit64(pid, resource, new, old): a new limit for another process
        ("label", "prlimit", "", ""),
        ("ld", _arg(0), "", ""),
        ("jeq", 0, "allow", "prlimit2"),
        ("label", "prlimit2", "", ""),
        ("ld", _arg(2), "", ""),
        ("jeq", 0, "prlimit3", "eperm"),
        ("label", "prlimit3", "", ""),
        ("ld", _arg(2, high=True), "", ""),
        ("jeq", 0, "allow", "eperm"),
        # seccomp(op, flags, ...): a filter with a listener of its own would take the signal
        # calls (and execs) of its processes from the session's listener (the newest filter
        # answering USER_NOTIF is the one notified)
        ("label", "seccomp", "", ""),
        ("ld", _arg(1), "", ""),
        ("jset", SECCOMP_FILTER_FLAG_NEW_LISTENER, "eperm", "allow"),
        ("label", "allow", "", ""),
        ("ret", _ALLOW, "", ""),
        ("label", "eperm", "", ""),
        ("ret", _ERRNO | EPERM, "", ""),
        ("label", "enosys", "", ""),
        ("ret", _ERRNO | ENOSYS, "", ""),
    ]
    return _assemble(program)


def _assemble(program: Program) -> bytes:
    labels: dict[str, int] = {}
    index = 0
    for item in program:
        if item[0] == "label":
            labels[str(item[1])] = index
        else:
            index += 1
    out: list[bytes] = []
    index = 0
    for item in program:
        kind = item[0]
        if kind == "label":
            continue
        if kind == "ld":
            out.append(_filter(_LD_W_ABS, int(item[1])))
        elif kind == "ret":
            out.append(_filter(_RET_K, int(item[1])))
        else:
            code = {"jeq": _JEQ_K, "jge": _JGE_K, "jset": _JSET_K}[kind]
            jt = labels[str(item[2])] - index - 1
            jf = labels[str(item[3])] - index - 1
            if not (0 <= jt <= 255 and 0 <= jf <= 255):
                raise ValueError(f"seccomp filter: jump out of range at {index}")
            out.append(_filter(code, int(item[1]), jt, jf))
        index += 1
    return b"".join(out)


def _filter(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k & 0xFFFFFFFF)


class _SockFprog(ctypes.Structure):
    """struct sock_fprog: a classic BPF program's length and instructions."""

    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


SECCOMP_SET_MODE_FILTER = 1
SECCOMP_FILTER_FLAG_NEW_LISTENER = 8
_USER_NOTIF = 0x7FC00000  # SECCOMP_RET_USER_NOTIF


SIGURG = 23  # Go's runtime preempts its own threads with tgkill(SIGURG) every few ms
F_SETOWN, F_SETOWN_EX = 8, 15
FIOSETOWN, SIOCSPGRP = 0x8901, 0x8902
PRIO_PROCESS, IOPRIO_WHO_PROCESS = 0, 1


def exec_notifier_program(numbers: Arch, machine: str = MACHINE) -> bytes:
    """A filter that hands to a listener every ``execve``/``execveat`` and every call that
    could signal another process (native and compat ABI), and allows everything else (the
    session's own filter still applies). Let through at once, as they can never hurt and
    are frequent: signal 0 (an existence check), and SIGURG by ``tkill``/``tgkill``
    (ignored by default; Go sends it to its own threads every few milliseconds). The
    listener (run/exec_watch.py, run/signal_guard.py) sees the rest: ``kill``, ``tkill``,
    ``tgkill``, ``rt_sigqueueinfo``, ``rt_tgsigqueueinfo``, ``pidfd_send_signal``, and the
    ways to name the process a file's I/O signals go to (``fcntl`` ``F_SETOWN`` and
    ``F_SETOWN_EX``, ``ioctl`` ``FIOSETOWN`` and ``SIOCSPGRP``), and the calls that change
    another process's scheduling (``sched_setparam``, ``sched_setscheduler``,
    ``sched_setaffinity``, ``sched_setattr``, ``setpriority``, ``ioprio_set``; a process's
    own, named by 0, passes)."""
    native, compat, _seccomp = EXEC_CALLS[machine]
    signals = SIGNAL_CALLS[machine]
    program: Program = [
        ("ld", _ARCH_AT, "", ""),
        ("jeq", numbers.native.audit, "n", "compat_arch"),
        *_exec_checks(native, signals[0], "n"),
        ("label", "compat_arch", "", ""),
        ("jeq", numbers.compat.audit, "c", "allow"),
        *_exec_checks(compat, signals[1], "c"),
        # kill(pid, sig), rt_sigqueueinfo(tgid, sig, info), pidfd_send_signal(fd, sig, ...)
        ("label", "sig1", "", ""),
        ("ld", _arg(1), "", ""),
        ("jeq", 0, "allow", "notify"),
        # rt_tgsigqueueinfo(tgid, tid, sig, info)
        ("label", "sig2", "", ""),
        ("ld", _arg(2), "", ""),
        ("jeq", 0, "allow", "notify"),
        # tkill(tid, sig)
        ("label", "tsig1", "", ""),
        ("ld", _arg(1), "", ""),
        ("jeq", 0, "allow", "tsig"),
        # tgkill(tgid, tid, sig)
        ("label", "tsig2", "", ""),
        ("ld", _arg(2), "", ""),
        ("jeq", 0, "allow", "tsig"),
        ("label", "tsig", "", ""),
        ("jeq", SIGURG, "allow", "notify"),
        # fcntl(fd, cmd, arg), ioctl(fd, request, arg): naming an owner for SIGIO
        ("label", "fcntl", "", ""),
        ("ld", _arg(1), "", ""),
        ("jeq", F_SETOWN, "notify", "fcntl2"),
        ("label", "fcntl2", "", ""),
        ("jeq", F_SETOWN_EX, "notify", "allow"),
        ("label", "ioctl", "", ""),
        ("ld", _arg(1), "", ""),
        ("jeq", FIOSETOWN, "notify", "ioctl2"),
        ("label", "ioctl2", "", ""),
        ("jeq", SIOCSPGRP, "notify", "allow"),
        # sched_set*(pid, ...): 0 is the caller itself
        ("label", "sched", "", ""),
        ("ld", _arg(0), "", ""),
        ("jeq", 0, "allow", "notify"),
        # setpriority(which, who, prio), ioprio_set(which, who, ioprio): itself only when
        # which names a process (PRIO_PROCESS 0, IOPRIO_WHO_PROCESS 1) and who is 0
        ("label", "prio", "", ""),
        ("ld", _arg(0), "", ""),
        ("jeq", PRIO_PROCESS, "self", "notify"),
        ("label", "ioprio", "", ""),
        ("ld", _arg(0), "", ""),
        ("jeq", IOPRIO_WHO_PROCESS, "self", "notify"),
        ("label", "self", "", ""),
        ("ld", _arg(1), "", ""),
        ("jeq", 0, "allow", "notify"),
        ("label", "allow", "", ""),
        ("ret", _ALLOW, "", ""),
        ("label", "notify", "", ""),
        ("ret", _USER_NOTIF, "", ""),
    ]
    return _assemble(program)


_SIGNAL_TARGETS = {
    "kill": "sig1",
    "rt_sigqueueinfo": "sig1",
    "pidfd_send_signal": "sig1",
    "rt_tgsigqueueinfo": "sig2",
    "tkill": "tsig1",
    "tgkill": "tsig2",
    "fcntl": "fcntl",
    "ioctl": "ioctl",
    "sched_setparam": "sched",
    "sched_setscheduler": "sched",
    "sched_setaffinity": "sched",
    "sched_setattr": "sched",
    "setpriority": "prio",
    "ioprio_set": "ioprio",
}


def _exec_checks(calls: tuple[int, int], signals: SignalCalls, prefix: str) -> Program:
    """One ABI's execve and execveat, to the listener, and its signal calls to their checks
    (``prefix``: its arch's label)."""
    numbered = [
        (number, _SIGNAL_TARGETS[name]) for name, numbers in signals.items() for number in numbers
    ]
    checks: Program = [
        ("label", prefix, "", ""),
        ("ld", _NR, "", ""),
        ("jeq", calls[0], "notify", f"{prefix}e"),
        ("label", f"{prefix}e", "", ""),
        ("jeq", calls[1], "notify", f"{prefix}0"),
    ]
    for index, (number, target) in enumerate(numbered):
        last = index == len(numbered) - 1
        following = "allow" if last else f"{prefix}{index + 1}"
        checks += [("label", f"{prefix}{index}", "", ""), ("jeq", number, target, following)]
    return checks


def install_exec_notifier() -> int:
    """Install :func:`exec_notifier_program` (inherited by every process of the session,
    none can remove it); the listener's descriptor, which the supervisor reads (rt24 #9:
    a hook killed before it said ``started`` left no trace; the exec that starts it waits
    until the supervisor has seen it, and a signal to it until the supervisor decided).
    Needs ``no_new_privs``; before :func:`install_filter`, which refuses new listeners."""
    program = exec_notifier_program(_numbers())
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    return _check(
        _libc.syscall(
            EXEC_CALLS[MACHINE][2],
            SECCOMP_SET_MODE_FILTER,
            SECCOMP_FILTER_FLAG_NEW_LISTENER,
            ctypes.c_void_p(ctypes.addressof(prog)),
        ),
        "installing the exec listener",
    )


# Landlock (the same numbers on every ABI, from 444 on)
LANDLOCK_CREATE_RULESET = 444
LANDLOCK_RESTRICT_SELF = 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET = 1
LANDLOCK_SCOPED_ABI = 6  # the first ABI with scopes (Linux 6.12)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when it has none (or it is disabled)."""
    version = _libc.syscall(LANDLOCK_CREATE_RULESET, None, 0, LANDLOCK_CREATE_RULESET_VERSION)
    return max(int(version), 0)


def scope_abstract_sockets() -> bool:
    """Keep this process and its descendants from connecting to abstract unix sockets made
    outside (a D-Bus or an editor's server at ``@name``: not files, no mount covers them;
    rt24 #3); their own keep working. Landlock's scope needs no access rule, so nothing
    else changes. Whether the kernel has it (ABI 6, Linux 6.12): without, they stay
    reachable, as docs/confinement.md says."""
    if landlock_abi() < LANDLOCK_SCOPED_ABI:
        return False
    attr = (0).to_bytes(16, "little") + LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET.to_bytes(
        8, sys.byteorder
    )
    buffer = ctypes.create_string_buffer(attr, len(attr))
    fd = _check(
        _libc.syscall(LANDLOCK_CREATE_RULESET, buffer, ctypes.c_size_t(len(attr)), 0),
        "creating the Landlock ruleset",
    )
    try:
        _check(_libc.syscall(LANDLOCK_RESTRICT_SELF, fd, 0), "restricting to the Landlock scope")
    finally:
        os.close(fd)
    return True


def install_filter() -> None:
    """The session's seccomp filter (inherited by every process; none can remove it):

    - ioctl TIOCSTI and TIOCLINUX fail with EPERM: a confined process must not type
      commands into the terminal the user's shell reads after it exits;
    - ptrace PTRACE_ATTACH and PTRACE_SEIZE, process_vm_writev and pidfd_getfd fail with
      EPERM: no process traces, writes the memory of, or takes descriptors from another that
      did not ask (its host, a hook), as Yama's ptrace_scope 1 would. PTRACE_TRACEME and the
      requests on a tracee stay: a debugger runs its own program (gdb's run, strace CMD);
    - prlimit64 setting another process's limits fails with EPERM (RLIMIT_CPU kills);
    - io_uring_setup, io_uring_enter and io_uring_register fail with EPERM (as with
      ``kernel.io_uring_disabled`` 2, and in container runtimes' default profiles): a file
      in a ring's fixed-file table is in no descriptor table, so a hook's output pipe held
      there was invisible to the pipe-holder check (red team s26 #7). Node (libuv) and
      Python fall back to plain system calls;
    - fcntl ``F_SETLEASE`` fails with EPERM: a lease on a file the session owns (hookwise's
      launcher, even on a read-only mount) holds every open of it, a hook's among them,
      until the lease-break time, past the host's timeout;
    - seccomp with ``SECCOMP_FILTER_FLAG_NEW_LISTENER`` fails with EPERM: a listener of its
      own would be notified of its processes' signals and execs instead of the session's
      (:func:`exec_notifier_program`), and could let them through;
    - the x32 ABI (x86_64) answers ENOSYS: its numbers differ, and nothing needs it.
    """
    program = filter_program(_numbers())
    count = len(program) // 8
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(count, ctypes.cast(buffer, ctypes.c_void_p))
    _check(
        _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(prog), 0, 0),
        "installing the seccomp filter",
    )


PIDFD_GETFD = 438  # the same number on every ABI
PIDFD_SEND_SIGNAL = 424


def take_fd(pidfd: int, fd: int) -> int:
    """A copy of descriptor ``fd`` of the process ``pidfd`` refers to (``pidfd_getfd``,
    close-on-exec): the supervisor's signal guard checks and uses the very file a sender
    named (run/signal_guard.py)."""
    return _check(
        _libc.syscall(
            ctypes.c_long(PIDFD_GETFD), ctypes.c_int(pidfd), ctypes.c_int(fd), ctypes.c_uint(0)
        ),
        f"taking descriptor {fd} of a process",
    )


def pidfd_send_signal(pidfd: int, sig: int, info: bytes, flags: int) -> int:
    """``pidfd_send_signal`` with a ``siginfo`` (Python's takes none); the errno, 0 when
    sent."""
    buffer = ctypes.create_string_buffer(info, len(info))
    result = _libc.syscall(
        ctypes.c_long(PIDFD_SEND_SIGNAL),
        ctypes.c_int(pidfd),
        ctypes.c_int(sig),
        buffer,
        ctypes.c_uint(flags),
    )
    return ctypes.get_errno() if result < 0 else 0
