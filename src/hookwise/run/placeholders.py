"""Placeholders: a guarded file or directory that does not exist yet is made before the
agent starts, so it can be bound read-only, and removed after the session when it is still
exactly what was made.

A missing ``.claude/settings.local.json`` cannot be left missing: the agent could create it
(the host still writes its own state in ``.claude/``, so the directory stays writable), and
nothing can be mounted on a name that does not exist. So the supervisor makes it, with
neutral content (``{}``, an empty TOML file, a policy without rules) or as an empty directory,
and binds that read-only. Missing parent directories are made too. After the session each
one is removed only if it is still the one made: same inode, same size and content for a
file, empty for a directory; anything else (someone outside wrote to it meanwhile) is kept.

Sessions run side by side, and one session's placeholder can be another's guarded path:
removing it from outside would lift the other session's mount (the kernel detaches mounts
from a name unlinked in another namespace). So the sessions of a user share a journal (one
directory per user, read-only inside, under an exclusive lock while a session prepares or
ends): what each made, and what each running session binds (a file per session, locked as
long as its supervisor lives). A session ending removes every untouched placeholder of the
journal that no running session binds, those left by an interrupted session included.
"""

from __future__ import annotations

import fcntl
import os
import stat

from hookwise.run.guarded_paths import NEUTRAL_CONTENTS, Guarded


class Made:
    """One file or directory made for the session."""

    __slots__ = ("content", "device", "inode", "path")

    def __init__(self, path: str, content: bytes | None, device: int, inode: int) -> None:
        self.path = path
        self.content = content  # None: a directory
        self.device = device
        self.inode = inode


def _make_parents(path: str, made: list[Made]) -> None:
    missing: list[str] = []
    parent = os.path.dirname(path)
    while not os.path.lexists(parent):
        missing.append(parent)
        parent = os.path.dirname(parent)
    for directory in reversed(missing):
        os.mkdir(directory, 0o755)
        info = os.lstat(directory)
        made.append(Made(directory, None, info.st_dev, info.st_ino))


def create(entries: list[Guarded]) -> list[Made]:
    """Make every missing entry that must exist; what was made, in the order made.

    On an error the ones already made are removed and the error is raised, naming the path.
    """
    made: list[Made] = []
    try:
        for entry in entries:
            if not entry.must_exist or os.path.lexists(entry.path):
                continue
            _make_parents(entry.path, made)
            if entry.directory:
                os.mkdir(entry.path, 0o755)
                info = os.lstat(entry.path)
                made.append(Made(entry.path, None, info.st_dev, info.st_ino))
                continue
            content = entry.placeholder or b""
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(entry.path, flags, 0o644)
            try:
                os.write(fd, content)
                info = os.fstat(fd)
            finally:
                os.close(fd)
            made.append(Made(entry.path, content, info.st_dev, info.st_ino))
    except OSError as exc:
        remove(made)
        where = exc.filename or "a placeholder"
        raise OSError(exc.errno, f"cannot make the placeholder {where}: {exc.strerror}") from None
    return made


def _untouched(item: Made) -> bool:
    try:
        info = os.lstat(item.path)
    except OSError:
        return False
    if (info.st_dev, info.st_ino) != (item.device, item.inode):
        return False
    if item.content is None:
        return stat.S_ISDIR(info.st_mode) and not os.listdir(item.path)
    if not stat.S_ISREG(info.st_mode) or info.st_size != len(item.content):
        return False
    try:
        fd = os.open(item.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        return os.read(fd, len(item.content) + 1) == item.content
    finally:
        os.close(fd)


LOCK_NAME = "run.lock"
JOURNAL_NAME = "run-placeholders"
SESSIONS_NAME = "sessions"


LOCK_WAIT = 10.0
"""Seconds a session waits for the sessions' lock: a supervisor holds it for the moments it
prepares or ends; anyone holding it longer (a confined process can open the file read-only
and ``flock`` it: red team s32 #4) makes the start fail, naming the holder, not hang."""


def take(fd: int, path: str, wait: float | None = None) -> None:
    """``flock(LOCK_EX)`` on ``fd`` within ``wait`` seconds (:data:`LOCK_WAIT`), else
    OSError naming the holder."""
    import errno
    import time

    wait = LOCK_WAIT if wait is None else wait
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise OSError(
                    errno.EWOULDBLOCK,
                    f"{path} has been locked for {wait:g} s by {lock_holder(fd)}; "
                    "hookwise run does not wait longer (end that process, or the session "
                    "it belongs to)",
                ) from None
            time.sleep(0.05)


def lock_holder(fd: int) -> str:
    """Who holds the flock on ``fd``'s file, from /proc/locks (pid and command line)."""
    info = os.fstat(fd)
    try:
        with open("/proc/locks", encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return "another process (/proc/locks is not readable)"
    pids: list[str] = []
    for line in lines:
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 1234 00:2a:5678 0 EOF" (a waiter's line has "->")
        if (
            len(fields) >= 6
            and fields[1] == "FLOCK"
            and "->" not in fields
            and fields[5].rsplit(":", 1)[-1] == str(info.st_ino)
        ):
            pids.append(fields[4])
    if not pids:
        return "another process (not found in /proc/locks)"
    out: list[str] = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
            command = " ".join(a.decode("utf-8", "replace") for a in argv if a)[:200]
        except OSError:
            command = "?"
        out.append(f"pid {pid} ({command})")
    return ", ".join(out)


class Journal:
    """The sessions' shared lock and the record of what they made (see the module doc).

    Held exclusively from the start of a session (before it looks at the file system) until
    :meth:`register`; taken again by :meth:`finish`.
    """

    def __init__(self, directory: str, session: str) -> None:
        self.path = os.path.join(directory, JOURNAL_NAME)
        self.sessions = os.path.join(directory, SESSIONS_NAME)
        self.mine = os.path.join(self.sessions, session)
        self.session_fd = -1
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        self.lock = os.open(os.path.join(directory, LOCK_NAME), flags, 0o600)
        try:
            take(self.lock, os.path.join(directory, LOCK_NAME))
        except OSError:
            os.close(self.lock)
            raise
        self.locked = True

    def record(self, made: list[Made]) -> None:
        if not made:
            return
        lines = "".join(
            f"{'D' if m.content is None else 'F'} {m.device} {m.inode} "
            f"{'' if m.content is None else m.content.hex()} {m.path}\n"
            for m in made
        )
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(self.path, flags, 0o600)
        try:
            os.write(fd, lines.encode("utf-8", "surrogateescape"))
        finally:
            os.close(fd)

    def register(self, paths: list[str]) -> None:
        """This session binds ``paths``: no placeholder among them is removed while it runs
        (its file stays locked as long as the supervisor lives). Releases the journal."""
        os.makedirs(self.sessions, mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
        self.session_fd = os.open(self.mine, flags, 0o600)
        fcntl.flock(self.session_fd, fcntl.LOCK_EX)
        os.write(
            self.session_fd, "".join(f"{p}\n" for p in paths).encode("utf-8", "surrogateescape")
        )
        fcntl.flock(self.lock, fcntl.LOCK_UN)
        self.locked = False

    def _read(self) -> list[Made]:
        try:
            with open(self.path, "rb") as handle:
                text = handle.read().decode("utf-8", "surrogateescape")
        except OSError:
            return []
        out: list[Made] = []
        for line in text.splitlines():
            kind, device, inode, content, path = line.split(" ", 4)
            data = None if kind == "D" else bytes.fromhex(content)
            # (only what a supervisor makes: a journal written by anyone else, naming a
            # real file with its real content, must not get that file removed)
            if data is None or data in NEUTRAL_CONTENTS:
                out.append(Made(path, data, int(device), int(inode)))
        return out

    def _in_use(self) -> tuple[set[str], set[str]]:
        """(the paths bound by the sessions still running, their ids); a session whose file
        is no longer locked ended without finishing: its file is removed."""
        used: set[str] = set()
        running: set[str] = set()
        try:
            names = os.listdir(self.sessions)
        except OSError:
            return used, running
        for name in names:
            path = os.path.join(self.sessions, name)
            if path == self.mine:
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    with open(fd, "rb", closefd=False) as handle:
                        text = handle.read().decode("utf-8", "surrogateescape")
                    used.update(text.splitlines())
                    running.add(name)
                    continue
                os.unlink(path)
            finally:
                os.close(fd)
        return used, running

    def _remove_stale_sockets(self, running: set[str]) -> None:
        """The audit sockets of sessions that ended without finishing (a killed supervisor)."""
        directory = os.path.dirname(self.path)
        mine = os.path.basename(self.mine)
        for name in os.listdir(directory):
            session, dot, suffix = name.partition(".")
            if dot and suffix == "sock" and session not in running and session != mine:
                try:
                    os.unlink(os.path.join(directory, name))
                except FileNotFoundError:
                    continue

    def finish(self, made: list[Made]) -> list[str]:
        """End this session: remove every untouched placeholder of the journal that no
        running session binds; this session's placeholder files kept because they changed."""
        try:
            if not self.locked:  # (held past the wait: the placeholders stay for the next)
                take(self.lock, os.path.join(os.path.dirname(self.path), LOCK_NAME))
            try:
                recorded = self._read()
            except ValueError:
                recorded = list(made)
            used, running = self._in_use()
            self._remove_stale_sockets(running)
            idle = [m for m in recorded if not _bound(m.path, used)]
            kept = set(remove(idle))
            waiting = [m for m in recorded if _bound(m.path, used)]
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(self.path, flags, 0o600)
            os.close(fd)
            self.record(waiting)
            if self.session_fd >= 0:
                os.unlink(self.mine)
            return [m.path for m in made if m.content is not None and m.path in kept]
        finally:
            if self.session_fd >= 0:
                os.close(self.session_fd)
            os.close(self.lock)


def _bound(path: str, used: set[str]) -> bool:
    """Whether a running session binds ``path`` or something inside it (a directory made as
    the parent of another session's placeholder stays in the journal until that one goes)."""
    prefix = path.rstrip("/") + "/"
    return path in used or any(u.startswith(prefix) for u in used)


def remove(made: list[Made]) -> list[str]:
    """Remove what was made and is untouched, innermost first; the paths kept."""
    kept: list[str] = []
    for item in reversed(made):
        if not _untouched(item):
            kept.append(item.path)
            continue
        try:
            if item.content is None:
                os.rmdir(item.path)
            else:
                os.unlink(item.path)
        except OSError:
            kept.append(item.path)
    return kept
