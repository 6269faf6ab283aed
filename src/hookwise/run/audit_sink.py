"""The session's audit log, written from outside: a confined process can add records, never
remove, truncate, replace or redirect the log.

The supervisor binds a unix datagram socket in the user's session directory (read-only
inside, so the socket cannot be replaced) and appends each record it receives to the real
log, which is read-only inside too. A record is one datagram holding one JSON object of at most
:data:`MAX_RECORD` bytes; anything else is counted and refused. The log is a regular file
opened ``O_APPEND | O_NOFOLLOW | O_NONBLOCK``: a FIFO, a symlink or anything but a regular
file is refused with a message, before the agent starts.

The client the confined hook calls is ``policy/audit.py``'s :func:`send_record`
(``deliver`` picks it when the hook runs confined).
"""

from __future__ import annotations

import _socket
import os
import stat

from hookwise.policy.audit import MAX_RECORD


class SinkError(OSError):
    """The audit log or its socket cannot be used (named in the message)."""


def open_log(path: str) -> int:
    """The log opened for appending (made, mode 600, with its directory, when missing);
    refuses anything but a regular file."""
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
        fd = os.open(path, flags | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise SinkError(exc.errno, _not_a_file(path, mode)) from None
        raise SinkError(exc.errno, f"cannot open the audit log {path}: {exc.strerror}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise SinkError(0, _not_a_file(path, info.st_mode))
    return fd


def _not_a_file(path: str, mode: int) -> str:
    kinds = (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISDIR, "a directory"),
    )
    kind = next((name for test, name in kinds if test(mode)), "not a regular file")
    return f"the audit log {path} is {kind}; remove it (rm {path})"


def line_of(record: bytes) -> bytes | None:
    """The log line for a received record, or None when it is not one JSON object of at most
    :data:`MAX_RECORD` bytes. A raw newline in valid JSON is whitespace, so it is replaced
    by a space: one record stays one line."""
    if len(record) > MAX_RECORD:
        return None
    body = record.strip()
    if not body.startswith(b"{"):
        return None
    import json

    try:
        value = json.loads(body)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    return body.replace(b"\n", b" ").replace(b"\r", b" ") + b"\n"


class AuditSink:
    """The supervisor's side: a bound socket and the open log; :meth:`serve` runs until
    :meth:`stop` (from another thread)."""

    def __init__(self, socket_path: str, log_path: str) -> None:
        self.socket_path = socket_path
        self.log_path = log_path
        self.log = open_log(log_path)
        self.accepted = 0
        self.refused = 0
        self.failed: str | None = None
        self.bound = False
        self.sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_DGRAM | _socket.SOCK_CLOEXEC)
        try:
            self.sock.bind(socket_path)
            self.bound = True
        except OSError as exc:
            self.close()
            raise SinkError(
                exc.errno, f"cannot bind the audit socket {socket_path}: {exc.strerror}"
            ) from None
        self.sock.setblocking(False)
        self._wake_read, self._wake_write = os.pipe()

    def _receive_all(self) -> None:
        while True:
            try:
                record = self.sock.recv(MAX_RECORD + 1)
            except (BlockingIOError, InterruptedError):
                return
            line = line_of(record)
            if line is None:
                self.refused += 1
                continue
            try:
                os.write(self.log, line)
                self.accepted += 1
            except OSError as exc:
                self.failed = f"cannot append to the audit log {self.log_path}: {exc.strerror}"

    def serve(self) -> None:
        import select

        poller = select.poll()
        poller.register(self.sock.fileno(), select.POLLIN)
        poller.register(self._wake_read, select.POLLIN)
        while True:
            ready = {fd for fd, _event in poller.poll()}
            self._receive_all()
            if self._wake_read in ready:
                return

    def stop(self) -> None:
        """Ask :meth:`serve` to drain what is queued and return."""
        os.write(self._wake_write, b"x")

    def close(self) -> None:
        for fd in (self.log, getattr(self, "_wake_read", -1), getattr(self, "_wake_write", -1)):
            if fd >= 0:
                os.close(fd)
        if hasattr(self, "sock"):
            self.sock.close()
        if getattr(self, "bound", False):
            try:
                os.unlink(self.socket_path)
            except FileNotFoundError:
                return
