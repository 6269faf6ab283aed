"""This machine's system-call numbers, for the calls and the filter of libc.py, and the
supervisor's own ``prctl``.

Apart from libc.py so that the supervisor never imports ``ctypes`` (a few milliseconds of an
agent's start): :func:`hookwise.run.available.available` tells whether the confinement knows
this architecture from here, and the builder, forked first, imports libc.py while the
supervisor plans.
"""

from __future__ import annotations

import os

MACHINE = os.uname().machine


class Abi:
    """One system-call ABI the filter checks: its audit arch and the numbers it names."""

    __slots__ = (
        "audit",
        "io_uring",
        "ioctl",
        "pidfd_getfd",
        "prlimit64",
        "process_vm_writev",
        "ptrace",
    )

    def __init__(
        self, audit: int, ioctl: int, ptrace: int, process_vm_writev: int, prlimit64: int
    ) -> None:
        self.audit = audit
        self.ioctl = ioctl
        self.ptrace = ptrace
        self.process_vm_writev = process_vm_writev
        self.prlimit64 = prlimit64
        self.pidfd_getfd = 438  # the same number on every ABI (from 424 on)
        self.io_uring = (425, 426, 427)  # io_uring_setup, _enter, _register (the same)


class Arch:
    """A machine's numbers: mount_setattr and close_range (called here), the native ABI,
    and the compat ABI a 32-bit program uses (the filter must catch it too)."""

    __slots__ = ("close_range", "compat", "mount_setattr", "native", "x32")

    def __init__(
        self, mount_setattr: int, close_range: int, native: Abi, compat: Abi, x32: bool
    ) -> None:
        self.mount_setattr = mount_setattr
        self.close_range = close_range
        self.native = native
        self.compat = compat
        self.x32 = x32  # x86_64's x32 ABI: the native arch with bit 30 set in the number


ARCHES: dict[str, Arch] = {
    "x86_64": Arch(
        442, 436, Abi(0xC000003E, 16, 101, 311, 302), Abi(0x40000003, 54, 26, 348, 340), True
    ),
    "aarch64": Arch(
        442, 436, Abi(0xC00000B7, 29, 117, 271, 261), Abi(0x40000028, 54, 26, 377, 369), False
    ),
}


# execve and execveat of the native and the compat ABI, and seccomp(2): the exec watch
# (run/exec_watch.py) is told of every exec in the session through a filter's listener
EXEC_CALLS: dict[str, tuple[tuple[int, int], tuple[int, int], int]] = {
    "x86_64": ((59, 322), (11, 358), 317),
    "aarch64": ((221, 281), (11, 387), 277),
}


# The calls that send a signal to another process, those that name a process a file's I/O
# signals go to (fcntl F_SETOWN, ioctl FIOSETOWN), and those that change another process's
# scheduling (class, nice, CPUs, I/O class: a hook starved past the host's timeout lets the
# tool run, red team s26 #1): handed to the same listener, which refuses them when they
# would reach a hook (run/signal_guard.py). Per ABI: name -> number; "fcntl" may have two
# numbers (fcntl and fcntl64 of the 32-bit ABIs).
SignalCalls = dict[str, tuple[int, ...]]
SIGNAL_CALLS: dict[str, tuple[SignalCalls, SignalCalls]] = {
    "x86_64": (
        {
            "kill": (62,),
            "tkill": (200,),
            "tgkill": (234,),
            "rt_sigqueueinfo": (129,),
            "rt_tgsigqueueinfo": (297,),
            "pidfd_send_signal": (424,),
            "fcntl": (72,),
            "ioctl": (16,),
            "sched_setparam": (142,),
            "sched_setscheduler": (144,),
            "sched_setaffinity": (203,),
            "sched_setattr": (314,),
            "setpriority": (141,),
            "ioprio_set": (251,),
        },
        {
            "kill": (37,),
            "tkill": (238,),
            "tgkill": (270,),
            "rt_sigqueueinfo": (178,),
            "rt_tgsigqueueinfo": (335,),
            "pidfd_send_signal": (424,),
            "fcntl": (55, 221),
            "ioctl": (54,),
            "sched_setparam": (154,),
            "sched_setscheduler": (156,),
            "sched_setaffinity": (241,),
            "sched_setattr": (351,),
            "setpriority": (97,),
            "ioprio_set": (289,),
        },
    ),
    "aarch64": (
        {
            "kill": (129,),
            "tkill": (130,),
            "tgkill": (131,),
            "rt_sigqueueinfo": (138,),
            "rt_tgsigqueueinfo": (240,),
            "pidfd_send_signal": (424,),
            "fcntl": (25,),
            "ioctl": (29,),
            "sched_setparam": (118,),
            "sched_setscheduler": (119,),
            "sched_setaffinity": (122,),
            "sched_setattr": (274,),
            "setpriority": (140,),
            "ioprio_set": (30,),
        },
        {
            "kill": (37,),
            "tkill": (238,),
            "tgkill": (268,),
            "rt_sigqueueinfo": (178,),
            "rt_tgsigqueueinfo": (363,),
            "pidfd_send_signal": (424,),
            "fcntl": (55, 221),
            "ioctl": (54,),
            "sched_setparam": (154,),
            "sched_setscheduler": (156,),
            "sched_setaffinity": (241,),
            "sched_setattr": (380,),
            "setpriority": (97,),
            "ioprio_set": (314,),
        },
    ),
}

# seccomp(2) of the compat ABI (the native one is EXEC_CALLS' last): the session's filter
# refuses a new listener on either, which would take the calls above from this one
COMPAT_SECCOMP = {"x86_64": 354, "aarch64": 383}


def arch() -> Arch | None:
    """This machine's numbers, or None when the confinement does not know its ABI."""
    return ARCHES.get(MACHINE)


PR_SET_DUMPABLE = 4


def undumpable() -> None:
    """``prctl(PR_SET_DUMPABLE, 0)`` through ``_ctypes`` alone: the supervisor's one system
    call Python lacks, without the milliseconds of importing ``ctypes`` (the builder imports
    it, at the same time, for everything else). Raises OSError when refused."""
    import _ctypes

    program = _ctypes.dlopen(None)  # type: ignore[arg-type]  # (None: this program, libc in)
    prctl = _ctypes.dlsym(program, "prctl")
    if _ctypes.call_function(prctl, (PR_SET_DUMPABLE, 0, 0, 0, 0)) != 0:
        raise OSError(0, "making the supervisor undumpable: prctl(PR_SET_DUMPABLE) failed")
