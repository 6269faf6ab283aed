"""The Linux system calls the confinement needs and Python 3.11 lacks, through ctypes.

Every call checks its result and raises :class:`OSError` with the errno and what was being
done (the path, the flag), so a refusal names its cause. Linux only; nothing here is
called before :func:`hookwise.run.available.available` said the mechanism works.
"""

from __future__ import annotations

import ctypes
import os
import struct

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

_MACHINE = os.uname().machine
# (audit arch, ioctl number, mount_setattr, close_range) per architecture; the compat ABI's
# (audit arch, ioctl number) second, so a 32-bit program meets the same filter.
_ARCH: dict[str, tuple[int, int, int, int, tuple[int, int]]] = {
    "x86_64": (0xC000003E, 16, 442, 436, (0x40000003, 54)),
    "aarch64": (0xC00000B7, 29, 442, 436, (0x40000028, 54)),
}

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


def arch() -> tuple[int, int, int, int, tuple[int, int]] | None:
    """This machine's numbers, or None when the confinement does not know its ABI."""
    return _ARCH.get(_MACHINE)


def _numbers() -> tuple[int, int, int, int, tuple[int, int]]:
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
            ctypes.c_long(_numbers()[2]),
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
            ctypes.c_long(_numbers()[3]),
            ctypes.c_uint(first),
            ctypes.c_uint(0xFFFFFFFF),
            ctypes.c_uint(0),
        ),
        f"closing descriptors from {first}",
    )


def _filter(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k & 0xFFFFFFFF)


TIOCSTI = 0x5412
TIOCLINUX = 0x541C


def deny_terminal_injection() -> None:
    """A seccomp filter failing ioctl TIOCSTI and TIOCLINUX with EPERM: a confined process
    must not type commands into the terminal the user's shell reads after it exits."""
    audit, ioctl, _setattr, _close, (compat_audit, compat_ioctl) = _numbers()
    ld_w_abs, jeq_k, and_k, ret_k = 0x20, 0x15, 0x54, 0x06
    allow, deny = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
    program = b"".join(
        [
            _filter(ld_w_abs, 4),  # 0: arch
            _filter(jeq_k, audit, 0, 3),  # 1: native -> 2, else 5
            _filter(ld_w_abs, 0),  # 2: nr
            _filter(and_k, 0xBFFFFFFF),  # 3: x32's syscall bit off
            _filter(jeq_k, ioctl, 3, 6),  # 4: ioctl -> 8, else allow (11)
            _filter(jeq_k, compat_audit, 0, 5),  # 5: the compat ABI -> 6, else allow
            _filter(ld_w_abs, 0),  # 6: nr
            _filter(jeq_k, compat_ioctl, 0, 3),  # 7: ioctl -> 8, else allow
            _filter(ld_w_abs, 24),  # 8: args[1], its low 32 bits (the kernel's unsigned int)
            _filter(jeq_k, TIOCSTI, 2, 0),  # 9: -> deny (12)
            _filter(jeq_k, TIOCLINUX, 1, 0),  # 10: -> deny (12)
            _filter(ret_k, allow),  # 11
            _filter(ret_k, deny),  # 12
        ]
    )
    count = len(program) // 8
    buffer = ctypes.create_string_buffer(program, len(program))

    class _Prog(ctypes.Structure):
        _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))

    prog = _Prog(count, ctypes.cast(buffer, ctypes.c_void_p))
    _check(
        _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(prog), 0, 0),
        "installing the seccomp filter",
    )
