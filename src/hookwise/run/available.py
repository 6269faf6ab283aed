"""Whether ``hookwise run`` can confine here, and if not, why (it never runs unconfined)."""

from __future__ import annotations

import os
import sys

_SYSCTLS = (
    (
        "/proc/sys/user/max_user_namespaces",
        "0",
        False,
        "user namespaces are disabled (user.max_user_namespaces = 0); "
        "enable them: sysctl -w user.max_user_namespaces=15000",
    ),
    (
        "/proc/sys/kernel/unprivileged_userns_clone",
        "0",
        True,
        "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0); "
        "enable them: sysctl -w kernel.unprivileged_userns_clone=1",
    ),
    (
        "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
        "1",
        True,
        "AppArmor restricts unprivileged user namespaces "
        "(kernel.apparmor_restrict_unprivileged_userns = 1); allow them for this interpreter "
        "with an AppArmor profile (`userns,`), or sysctl -w "
        "kernel.apparmor_restrict_unprivileged_userns=0",
    ),
)


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii") as handle:
            return handle.read().strip()
    except (OSError, ValueError):
        return None


def _probe() -> str | None:
    """Build a namespace as ``hookwise run`` does (read-only bind, fresh /proc, the second
    namespace) in a throw-away child; its failure, or None."""
    from hookwise.run import libc

    here = os.path.dirname(os.path.abspath(__file__))
    uid, gid = os.geteuid(), os.getegid()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        step = "unshare"
        try:
            libc.unshare(libc.CLONE_NEWUSER | libc.CLONE_NEWNS | libc.CLONE_NEWPID)
            step = "the uid/gid map"
            for name, text in (
                ("setgroups", "deny"),
                ("uid_map", f"{uid} {uid} 1"),
                ("gid_map", f"{gid} {gid} 1"),
            ):
                with open(f"/proc/self/{name}", "w", encoding="ascii") as handle:
                    handle.write(text)
            step = "a read-only bind mount"
            libc.mount(None, "/", None, libc.MS_REC | libc.MS_PRIVATE)
            libc.mount(here, here, None, libc.MS_BIND | libc.MS_REC)
            libc.make_readonly(here, True)
            child = os.fork()
            if child == 0:
                step = "a /proc for the pid namespace"
                libc.mount("proc", "/proc", "proc", libc.MS_NOSUID | libc.MS_NODEV | libc.MS_NOEXEC)
                step = "the second namespace"
                libc.unshare(libc.CLONE_NEWUSER | libc.CLONE_NEWNS)
                os._exit(0)
            _pid, status = os.waitpid(child, 0)
            if status:
                os.write(write_end, b"the pid namespace's /proc or the second namespace failed")
            os._exit(0)
        except BaseException as exc:
            reason = exc.strerror if isinstance(exc, OSError) else str(exc)
            os.write(write_end, f"{step} failed: {reason}".encode())
            os._exit(1)
    os.close(write_end)
    try:
        message = b""
        while chunk := os.read(read_end, 4096):
            message += chunk
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)
    return message.decode("utf-8", "replace") or None


def available(probe: bool = True) -> str | None:
    """None when ``hookwise run`` can confine an agent here, else the reason (and the fix
    where there is one). ``probe``: also try it in a throw-away process (a few ms)."""
    if not sys.platform.startswith("linux"):
        return f"hookwise run needs Linux (user and mount namespaces); this is {sys.platform}"
    from hookwise.run.arch import arch

    if arch() is None:
        return f"hookwise run does not know this architecture's system calls ({os.uname().machine})"
    root = os.geteuid() == 0
    for path, refusing, only_unprivileged, why in _SYSCTLS:
        if _read(path) == refusing and not (root and only_unprivileged):
            return why
    if _read("/proc/sys/kernel/cap_last_cap") is None:
        return "/proc is not mounted (hookwise run reads /proc/sys and /proc/self)"
    if probe:
        failed = _probe()
        if failed:
            return f"the kernel refused a confinement step: {failed}"
    return None
