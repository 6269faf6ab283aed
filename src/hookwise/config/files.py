"""Reading a settings file that a repository may have planted.

``Path.read_bytes`` on a FIFO blocks until someone writes to it, and on ``/dev/zero`` never
ends: a hostile repository could hang every tool that loads its settings (``hookwise scan``,
``fire``, the host runtime). Settings are regular files of modest size, so anything else is
an error the loaders already report as "cannot read", never a hang. (The policy hook's
hot path has its own reader, ``policy/trust/scopes.read_policy_file``: it may not import config.)
"""

from __future__ import annotations

import errno
import os
import stat

MAX_SETTINGS_BYTES = 16 * 1024 * 1024
"""Far above any real settings, hooks or extension file; below what would hurt to hold."""

_CHUNK = 1 << 16


def read_file_bytes(path: str | os.PathLike[str], max_bytes: int = MAX_SETTINGS_BYTES) -> bytes:
    """The bytes of a regular file; FileNotFoundError, IsADirectoryError or another OSError
    naming what it is instead (a FIFO, device or socket) or that it is too large."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a FIFO, device or socket)", str(path))
        if info.st_size > max_bytes:
            raise OSError(errno.EFBIG, f"larger than {max_bytes} bytes", str(path))
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > max_bytes:  # it grew while we read
                raise OSError(errno.EFBIG, f"larger than {max_bytes} bytes", str(path))
            chunks.append(chunk)
    finally:
        os.close(fd)


def read_file_text(path: str | os.PathLike[str], max_bytes: int = MAX_SETTINGS_BYTES) -> str:
    """UTF-8 text of a regular file, bad bytes replaced (what the hosts' loaders do)."""
    return read_file_bytes(path, max_bytes).decode("utf-8", errors="replace")


__all__ = ["MAX_SETTINGS_BYTES", "read_file_bytes", "read_file_text"]
