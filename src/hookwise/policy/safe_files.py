"""The hook's own files (cache, retry state, audit log) opened so that the agent cannot hang it.

The agent writes where the hook keeps its state (outside ``hookwise run``, and the audit log
everywhere): a FIFO in place of a file makes a blocking ``open`` wait forever, and a hook
killed by the host's timeout lets the tool run. So every open here is non-blocking and never
follows a symlink, and only a regular file is used; anything else is an OSError that names
what was found. Standard library only (hot path).
"""

from posix import O_CLOEXEC as _CLOEXEC

from hookwise.policy import os_lite as os  # os without its import cost

_READ = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | _CLOEXEC
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | _CLOEXEC
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC


def _regular(fd: int, path: str) -> int:
    """``fd`` when it is a regular file; closes it and raises otherwise."""
    mode = os.fstat(fd).st_mode
    if not os.S_ISREG(mode):
        os.close(fd)
        raise OSError(f"{path}: not a regular file (mode {mode:o}); left alone")
    return fd


def read_regular(path: str, limit: int) -> bytes:
    """The bytes of a regular file, at most ``limit`` (more raises); FileNotFoundError as
    usual, ELOOP for a symlink."""
    return _read(_regular(os.open(path, _READ), path), path, limit)


def read_private(path: str, limit: int) -> bytes:
    """:func:`read_regular` of a file this user owns in a directory this user owns, neither
    writable by others: what the hook trusts without checking its content (the compiled
    cache). Anything else is an OSError (a miss: compiled again). Group-writable passes:
    with a umask of 002 every directory is, and the group is the user's own. A program of
    the user's own uid passes this; only `hookwise run` keeps it from the agent."""
    fd = _regular(os.open(path, _READ), path)
    try:
        uid = os.getuid()
        found = (("file", os.fstat(fd)), ("directory", os.stat(os.path.dirname(path) or ".")))
        for what, info in found:
            if info.st_uid != uid or info.st_mode & 0o002:
                raise OSError(f"{path}: the {what} is not this user's alone; left alone")
    except OSError:
        os.close(fd)
        raise
    return _read(fd, path, limit)


def _read(fd: int, path: str, limit: int) -> bytes:
    """Everything ``fd`` holds, at most ``limit`` bytes; closes it."""
    try:
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > limit:
                raise OSError(f"{path}: larger than {limit} bytes; left alone")
            chunks.append(chunk)
    finally:
        os.close(fd)


def open_append(path: str, mode: int = 0o600) -> int:
    """A descriptor appending to the regular file at ``path`` (created if absent)."""
    return _regular(os.open(path, _APPEND, mode), path)


def replace_with(path: str, data: bytes) -> None:
    """Write ``data`` to a new file beside ``path``, then rename it over ``path``: readers see
    the old bytes or the new ones. A name taken at the temporary path (by anything, a FIFO
    included) is an OSError, never a wait."""
    temp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(temp, _NEW, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except BaseException:
        os.close(fd)
        os.unlink(temp)
        raise
    os.close(fd)
    os.replace(temp, path)
