"""Files on the disk the analysis reads for a decision (git's configuration files and
FETCH_HEAD, netrc and git's credential store) as the program would, without ever blocking.

A FIFO, socket or device can be planted at any of those names by an earlier call (session
29, issue 24): opening a FIFO waits for a writer (the hook would hang to its deadline),
and what a writer gives the hook is not what it gives the program when it runs. Such a
file is never opened; the caller reads the OSError as "cannot be read here"
(unverifiable, naming the file). Standard library only."""

from __future__ import annotations

import posix
import stat

_READ = posix.O_RDONLY | posix.O_NONBLOCK | posix.O_CLOEXEC


def read_head(path: str, limit: int) -> bytes:
    """The first ``limit`` bytes of the regular file at ``path``, through symbolic links;
    FileNotFoundError when there is none, another OSError for anything but a regular
    file (not opened) or an unreadable one."""
    mode = posix.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise OSError(f"{path}: not a regular file (mode {mode:o}); not opened")
    fd = posix.open(path, _READ)
    try:
        if not stat.S_ISREG(posix.fstat(fd).st_mode):  # (swapped since the look)
            raise OSError(f"{path}: not a regular file; not read")
        chunks: list[bytes] = []
        size = 0
        while size < limit:
            chunk = posix.read(fd, min(1 << 20, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        posix.close(fd)
