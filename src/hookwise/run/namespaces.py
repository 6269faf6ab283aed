"""The confinement itself: the processes ``hookwise run`` forks and what each one does.

The supervisor (outside, in every parent namespace) forks the **builder**, which:

1. enters a new user, mount and pid namespace (``unshare``), mapping only the caller's own
   uid and gid (``setgroups`` denied), and makes every mount private;
2. pins the ancestors of each guarded path, binds each guarded path read-only, and covers the
   hidden ones (:mod:`hookwise.run.plan`);
3. forks **init**, pid 1 of the new pid namespace, then only waits for it (it is outside the
   agent's pid namespace: nothing inside can see, signal or trace it).

init mounts a fresh ``/proc`` for the pid namespace, then enters a second user and mount
namespace: every mount made above is now locked (the kernel's ``MNT_LOCKED`` and
``MNT_LOCK_READONLY`` for a less privileged namespace), so nothing inside can unmount them or
remount them writable, not even from a namespace of its own (``--read-only-proc`` then makes
/proc read-only too). It drops every capability (all five sets, and root's exceptions through
the securebits), sets ``no_new_privs``, installs the seccomp filter (terminal injection,
attaching to or writing another process: :func:`hookwise.run.libc.install_filter`), closes
every descriptor from 3 on and forks the agent; then it forwards signals and reaps orphans
(:mod:`hookwise.run.init`).

Failures before the agent's ``exec`` are written to the report pipe (one line, ``error ...``)
and end the process with :data:`SETUP_FAILED`; the supervisor prints them.

The builder imports ``ctypes`` itself (the supervisor never does) and reads its plan
(:class:`Launch`, marshalled) from a pipe once it has entered its namespaces; an empty pipe
ends it. The plan is all paths: the builder could be forked before it is made (placeholders
and copies made meanwhile are files of the same file systems, seen through the new mount
namespace too), which was measured and not kept (supervisor.py, ``_Builder.start``).
"""

from __future__ import annotations

import fcntl
import marshal
import os
import sys

from hookwise.run import init
from hookwise.run.signals import signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookwise.run import libc
    from hookwise.run.plan import MountPlan

SETUP_FAILED = 125
NOT_FOUND = 127
NOT_EXECUTABLE = 126
REPORT_FD = 3
GATE_FD = 4  # init reads one byte here before it starts the agent: GO, or anything else
LAUNCH_FD = 5  # the builder reads the marshalled launch here (empty: nothing to start)
NOTIFY_FD = 6  # a unix socket: init sends the exec listener here (run/exec_watch.py)
GO = b"g"

# Kernel settings root could change without a capability (sysctl files check the uid, not a
# capability: kernel.core_pattern runs a program as root outside); read-only, as container
# runtimes make them.
KERNEL_READ_ONLY = ("/sys",)
PROC_READ_ONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")

FORWARDED = (
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGWINCH,
    signal.SIGUSR1,
    signal.SIGUSR2,
)


class Launch:
    """Everything the children need, sent to the builder once the plan is made."""

    __slots__ = (
        "argv",
        "cwd",
        "empty_dir",
        "empty_file",
        "env",
        "hides",
        "pins",
        "read_only_proc",
        "readonly",
        "records",
    )

    def __init__(
        self,
        plan: MountPlan | None,
        *,
        argv: list[str],
        env: dict[str, str],
        cwd: str,
        empty_dir: str,
        empty_file: str,
        read_only_proc: bool = False,
        records: list[tuple[str, str]] | None = None,
    ) -> None:
        self.pins: list[tuple[str, bool]] = list(plan.pins) if plan else []
        self.readonly: list[str] = [path for path, _entry in plan.readonly] if plan else []
        self.hides: list[tuple[str, bool, str]] = (
            [(h.path, h.directory, h.why) for h in plan.hides] if plan else []
        )
        self.read_only_proc = read_only_proc
        """/proc read-only whole (``--read-only-proc``): no process writes another's memory
        through /proc/<pid>/mem, and none can set up a user namespace (uid_map)."""
        self.argv = argv
        self.env = env
        self.cwd = cwd
        self.empty_dir = empty_dir
        self.empty_file = empty_file
        self.records = records or []
        """(a file of the session's, the empty file of the sessions directory it is bound
        over): what the hook and its command read, by uid alone, to know the session (its
        record: policy/confinement.py; its launcher: config/hookwise_command.py)."""

    def to_bytes(self) -> bytes:
        return marshal.dumps(tuple(getattr(self, name) for name in self.__slots__))

    @classmethod
    def from_bytes(cls, data: bytes) -> Launch:
        launch = cls.__new__(cls)
        for name, value in zip(cls.__slots__, marshal.loads(data), strict=True):
            setattr(launch, name, value)
        return launch


def send(fd: int, launch: Launch | None) -> None:
    """Give the builder its launch (None: nothing to start) and close the pipe."""
    try:
        if launch is not None:
            view = memoryview(launch.to_bytes())
            while view:
                view = view[os.write(fd, view) :]
    except BrokenPipeError:
        pass  # (the builder already failed: it said why on the report pipe)
    finally:
        os.close(fd)


def _receive() -> Launch | None:
    chunks = []
    while chunk := os.read(LAUNCH_FD, 1 << 16):
        chunks.append(chunk)
    os.close(LAUNCH_FD)
    return Launch.from_bytes(b"".join(chunks)) if chunks else None


def _report(line: str) -> None:
    data = (line.replace("\n", " ") + "\n").encode("utf-8", "replace")
    try:
        os.write(REPORT_FD, data)
    except OSError:
        return


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    except OSError as exc:
        raise OSError(exc.errno, f"writing {text!r} to {path}: {exc.strerror}") from None
    finally:
        os.close(fd)


def _map_ids(uid: int, gid: int) -> None:
    """This namespace's only ids are the caller's own (setgroups denied first, as the kernel
    requires of an unprivileged gid map)."""
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")


def _bind_self(path: str, is_link: bool) -> None:
    """Bind ``path`` onto itself; a symlink through its ``O_PATH`` descriptor (so the link,
    not where it points, becomes the mount point)."""
    if is_link:
        fd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            at = f"/proc/self/fd/{fd}"
            libc.mount(at, at, None, libc.MS_BIND)
        except OSError as exc:
            raise OSError(exc.errno, f"pinning the symlink {path}: {exc.strerror}") from None
        finally:
            os.close(fd)
        return
    try:
        libc.mount(path, path, None, libc.MS_BIND | libc.MS_REC)
    except OSError as exc:
        raise OSError(exc.errno, f"binding {path} onto itself: {exc.strerror}") from None


def _readonly(path: str, recursive: bool) -> None:
    try:
        libc.make_readonly(path, recursive)
    except OSError as exc:
        raise OSError(exc.errno, f"making {path} read-only: {exc.strerror}") from None


def _kernel_read_only(paths: tuple[str, ...]) -> None:
    for path in paths:
        if os.path.lexists(path):
            _bind_self(path, False)
            _readonly(path, os.path.isdir(path))


def _mount_plan(launch: Launch) -> None:
    libc.mount(None, "/", None, libc.MS_REC | libc.MS_PRIVATE)
    _kernel_read_only(KERNEL_READ_ONLY)
    for path, is_link in launch.pins:
        _bind_self(path, is_link)
    for path in launch.readonly:
        _bind_self(path, False)
        _readonly(path, os.path.isdir(path))
    for path, directory, why in launch.hides:
        source = launch.empty_dir if directory else launch.empty_file
        try:
            libc.mount(source, path, None, libc.MS_BIND)
            _readonly(path, False)
        except FileNotFoundError:  # gone since the plan, or unlinked outside meanwhile
            continue  # (another session's socket): nothing to reach there now
        except OSError as exc:
            raise OSError(exc.errno, f"hiding {path} ({why}): {exc.strerror}") from None
    for source, target in launch.records:
        try:
            libc.mount(source, target, None, libc.MS_BIND)
        except OSError as exc:
            raise OSError(exc.errno, f"binding the session's {target}: {exc.strerror}") from None
        _readonly(target, False)


def _last_cap() -> int:
    with open("/proc/sys/kernel/cap_last_cap", "rb") as handle:
        return int(handle.read())


def _agent(launch: Launch) -> None:
    """The agent's process: default signal handling, then ``exec``."""
    for number in (*FORWARDED, signal.SIGCHLD, signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    try:
        os.execvpe(launch.argv[0], launch.argv, launch.env)
    except FileNotFoundError:
        _report(f"error {launch.argv[0]}: command not found")
        os._exit(NOT_FOUND)
    except OSError as exc:
        _report(f"error cannot run {launch.argv[0]}: {exc.strerror}")
        os._exit(NOT_EXECUTABLE)


def _init(launch: Launch, uid: int, gid: int, last_cap: int) -> None:
    """pid 1: a fresh /proc, the second namespace that locks every mount, no privilege."""
    libc.prctl(libc.PR_SET_PDEATHSIG, signal.SIGKILL, what="setting the parent-death signal")
    try:
        libc.mount("proc", "/proc", "proc", libc.MS_NOSUID | libc.MS_NODEV | libc.MS_NOEXEC)
    except OSError as exc:
        raise OSError(exc.errno, f"mounting /proc for the pid namespace: {exc.strerror}") from None
    _kernel_read_only(PROC_READ_ONLY)
    libc.unshare(libc.CLONE_NEWUSER | libc.CLONE_NEWNS)
    _map_ids(uid, gid)
    if launch.read_only_proc:  # after the maps (written through /proc); locked when copied
        _readonly("/proc", True)
    os.chdir(launch.cwd)  # through the mounts made above, not the directory they cover
    libc.drop_capabilities(last_cap)
    libc.prctl(libc.PR_SET_NO_NEW_PRIVS, 1, what="setting no_new_privs")
    # the listener first: the session's filter then refuses any other (a newer filter's
    # listener would be notified instead of this one)
    listener = libc.install_exec_notifier()
    libc.install_filter()
    _send_listener(listener)
    libc.scope_abstract_sockets()
    libc.prctl(libc.PR_SET_DUMPABLE, 0, what="making init undumpable")
    if os.read(GATE_FD, 1) != GO:  # the supervisor's last checks failed (it says why)
        os._exit(SETUP_FAILED)
    libc.close_from(REPORT_FD + 1)
    child = os.fork()
    if child == 0:
        _agent(launch)
    os.close(REPORT_FD)
    init.serve(child, FORWARDED)


def _send_listener(listener: int) -> None:
    """The exec listener to the supervisor, before the agent can start (closed here after:
    nothing inside may hold it)."""
    import _socket

    sock = _socket.socket(fileno=NOTIFY_FD)
    try:
        rights = listener.to_bytes(4, sys.byteorder)
        sock.sendmsg([b"L"], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
    finally:
        sock.close()
        os.close(listener)


def _builder(supervisor: int) -> None:
    libc.prctl(libc.PR_SET_PDEATHSIG, signal.SIGKILL, what="setting the parent-death signal")
    if os.getppid() != supervisor:
        os._exit(SETUP_FAILED)
    for number in FORWARDED:  # the terminal's signals reach the agent directly
        signal.signal(number, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    uid, gid = os.geteuid(), os.getegid()
    last_cap = _last_cap()
    try:
        libc.unshare(libc.CLONE_NEWUSER | libc.CLONE_NEWNS | libc.CLONE_NEWPID)
    except OSError as exc:
        from hookwise.run.available import available

        why = available(probe=False) or exc.strerror
        raise OSError(exc.errno, f"cannot create the namespaces: {why}") from None
    _map_ids(uid, gid)
    launch = _receive()
    if launch is None:  # the supervisor could not set the session up (it says why)
        os._exit(SETUP_FAILED)
    _mount_plan(launch)
    signal.pthread_sigmask(signal.SIG_BLOCK, [*FORWARDED, signal.SIGCHLD])
    child = os.fork()
    if child == 0:
        try:
            _init(launch, uid, gid, last_cap)
        except BaseException as exc:
            _report(f"error {exc.strerror if isinstance(exc, OSError) else exc}")
        os._exit(SETUP_FAILED)
    _report(f"pid {child}")
    os.close(REPORT_FD)
    os.close(NOTIFY_FD)  # (init's alone: its end is the supervisor's news of a failed init)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    while True:
        try:
            _pid, status = os.waitpid(child, 0)
        except InterruptedError:
            continue
        os._exit(init.exit_code(status))


def spawn(report: int, gate: int, launch: int, notify: int) -> int:
    """Fork the builder (which does everything above); its pid. ``report`` is the write end
    of the report pipe, ``gate`` the read end of the pipe on which the supervisor lets the
    agent start (:data:`GO`), ``launch`` the read end of the one that brings the plan
    (:func:`send`), ``notify`` the socket init sends the exec listener on; the caller
    closes its own copies."""
    supervisor = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    try:
        # all out of the way first: any may already be 3, 4 or 5
        ends = (report, gate, launch, notify)
        fds = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in ends]
        for fd, target in zip(fds, (REPORT_FD, GATE_FD, LAUNCH_FD, NOTIFY_FD), strict=True):
            os.dup2(fd, target, inheritable=False)
        global libc  # noqa: PLW0603 - ctypes is imported here, while the supervisor plans
        from hookwise.run import libc

        libc.close_from(NOTIFY_FD + 1)
        _builder(supervisor)
    except BaseException as exc:
        _report(f"error {exc.strerror if isinstance(exc, OSError) else exc}")
    os._exit(SETUP_FAILED)
