"""The part of :mod:`os` the hook uses, without importing :mod:`os`.

``import os`` costs about a fifth of the interpreter's own start: its ``environ`` mapping
pulls in :mod:`collections.abc` and two dozen abstract classes, and the hook would pay
that on every tool call. Here are the :mod:`posix` built-ins that :mod:`os` re-exports,
and :mod:`posixpath`'s functions for ``str`` paths, computed the same way;
tests/policy/test_os_lite.py checks every one against :mod:`os` on generated paths and
real symlink trees. What is rare (``~user``) asks :mod:`os` itself.

The hot-path modules import it as ``os`` (``from hookwise.policy import os_lite as os``),
so they read as ordinary code; ``os.path`` is this module too.
"""

import builtins
import sys
from posix import (
    O_APPEND,
    O_CREAT,
    O_EXCL,
    O_NOFOLLOW,
    O_NONBLOCK,
    O_RDONLY,
    O_WRONLY,
    R_OK,
    W_OK,
    X_OK,
    _exit,
    access,
    close,
    dup2,
    fstat,
    getcwd,
    getpid,
    getuid,
    kill,
    listdir,
    lstat,
    mkdir,
    read,
    readlink,
    replace,
    stat,
    unlink,
    write,
)
from posix import environ as _raw_environ

TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import open  # the same function; typeshed's posix stub lacks it
    from typing import IO, Any
else:
    from posix import open

__all__ = [
    "O_APPEND",
    "O_CREAT",
    "O_EXCL",
    "O_NOFOLLOW",
    "O_NONBLOCK",
    "O_RDONLY",
    "O_WRONLY",
    "R_OK",
    "S_ISBLK",
    "S_ISCHR",
    "S_ISDIR",
    "S_ISFIFO",
    "S_ISLNK",
    "S_ISREG",
    "S_ISSOCK",
    "W_OK",
    "X_OK",
    "_exit",
    "abspath",
    "access",
    "basename",
    "close",
    "dirname",
    "dup2",
    "environ_copy",
    "exists",
    "expanduser",
    "fdopen",
    "fstat",
    "getcwd",
    "getenv",
    "getpid",
    "getuid",
    "isabs",
    "isdir",
    "isfile",
    "islink",
    "join",
    "kill",
    "lexists",
    "listdir",
    "lstat",
    "makedirs",
    "mkdir",
    "normpath",
    "open",
    "path",
    "read",
    "readlink",
    "realpath",
    "replace",
    "split",
    "stat",
    "unlink",
    "write",
]

sep = "/"
_ENCODING = sys.getfilesystemencoding()


def _decode(value: bytes) -> str:
    return value.decode(_ENCODING, "surrogateescape")


def environ_copy() -> dict[str, str]:
    """A copy of the environment, as ``dict(os.environ)`` (os's own when it is loaded:
    only through it can the environment have changed since the process started)."""
    real = sys.modules.get("os")
    if real is not None:
        return dict(real.environ)
    return {_decode(key): _decode(value) for key, value in _raw_environ.items()}


def getenv(name: str) -> str | None:
    """``os.environ.get(name)``."""
    real = sys.modules.get("os")
    if real is not None:
        value: str | None = real.environ.get(name)
        return value
    raw = _raw_environ.get(name.encode(_ENCODING, "surrogateescape"))
    return None if raw is None else _decode(raw)


def fdopen(fd: int, mode: str = "r", buffering: int = -1) -> "IO[Any]":
    """``os.fdopen``: a file object for an open descriptor (it closes the descriptor)."""
    return builtins.open(fd, mode, buffering)


# ------------------------------------------------------------------------- file types
# (stat's S_IS* by their mode bits, POSIX's values: importing _stat costs a module import)


def S_ISDIR(mode: int) -> bool:  # noqa: N802 - the names stat gives them
    return mode & 0o170000 == 0o040000


def S_ISREG(mode: int) -> bool:  # noqa: N802
    return mode & 0o170000 == 0o100000


def S_ISLNK(mode: int) -> bool:  # noqa: N802
    return mode & 0o170000 == 0o120000


def S_ISFIFO(mode: int) -> bool:  # noqa: N802
    return mode & 0o170000 == 0o010000


def S_ISCHR(mode: int) -> bool:  # noqa: N802
    return mode & 0o170000 == 0o020000


def S_ISBLK(mode: int) -> bool:  # noqa: N802
    return mode & 0o170000 == 0o060000


def S_ISSOCK(mode: int) -> bool:  # noqa: N802
    return mode & 0o170000 == 0o140000


# --------------------------------------------------------------------------- posixpath


def isabs(name: str) -> bool:
    return name.startswith("/")


def join(first: str, *rest: str) -> str:
    joined = first
    for part in rest:
        if part.startswith("/"):
            joined = part
        elif not joined or joined.endswith("/"):
            joined += part
        else:
            joined += "/" + part
    return joined


def split(name: str) -> tuple[str, str]:
    cut = name.rfind("/") + 1
    head, tail = name[:cut], name[cut:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def dirname(name: str) -> str:
    return split(name)[0]


def basename(name: str) -> str:
    return name[name.rfind("/") + 1 :]


def normpath(name: str) -> str:
    if (  # already normal (most absolute paths): nothing to do
        name[:1] == "/"
        and "//" not in name
        and "/./" not in name
        and "/../" not in name
        and not name.endswith(("/", "/.", "/.."))
    ):
        return name
    if not name:
        return "."
    slashes = 0
    if name.startswith("/"):
        # POSIX leaves the meaning of exactly two leading slashes to the system
        slashes = 2 if name.startswith("//") and not name.startswith("///") else 1
    parts: list[str] = []
    for part in name.split("/"):
        if part in ("", "."):
            continue
        if part != ".." or (not slashes and not parts) or (parts and parts[-1] == ".."):
            parts.append(part)
        elif parts:
            parts.pop()
    return "/" * slashes + "/".join(parts) or "."


def abspath(name: str) -> str:
    if not name.startswith("/"):
        name = join(getcwd(), name)
    return normpath(name)


def expanduser(name: str) -> str:
    if not name.startswith("~"):
        return name
    end = name.find("/", 1)
    if end < 0:
        end = len(name)
    if end != 1:  # ~user: the password database, through os itself (rare)
        import os.path

        return os.path.expanduser(name)
    home = getenv("HOME")
    if home is None:
        import pwd

        try:
            home = pwd.getpwuid(getuid()).pw_dir
        except KeyError:
            return name
    home = home.rstrip("/")
    return (home + name[end:]) or "/"


def lexists(name: str) -> bool:
    try:
        lstat(name)
    except (OSError, ValueError):
        return False
    return True


def exists(name: str) -> bool:
    try:
        stat(name)
    except (OSError, ValueError):
        return False
    return True


def isdir(name: str) -> bool:
    try:
        return S_ISDIR(stat(name).st_mode)
    except (OSError, ValueError):
        return False


def isfile(name: str) -> bool:
    try:
        return S_ISREG(stat(name).st_mode)
    except (OSError, ValueError):
        return False


def islink(name: str) -> bool:
    try:
        return S_ISLNK(lstat(name).st_mode)
    except (OSError, ValueError):
        return False


def realpath(name: str) -> str:
    """``os.path.realpath(name)`` (not strict): symlinks resolved, loops left as they are."""
    resolved, _ok = _resolve("", name, {})
    return abspath(resolved)


def _resolve(base: str, rest: str, seen: dict[str, str | None]) -> tuple[str, bool]:
    """``base`` joined with ``rest``, resolving symlinks; False when a loop stopped it."""
    if rest.startswith("/"):
        rest = rest[1:]
        base = "/"
    while rest:
        name, _, rest = rest.partition("/")
        if not name or name == ".":
            continue
        if name == "..":
            if base:
                base, last = split(base)
                if last == "..":
                    base = join(base, "..", "..")
            else:
                base = ".."
            continue
        candidate = join(base, name)
        try:
            is_link = S_ISLNK(lstat(candidate).st_mode)
        except OSError:
            is_link = False
        if not is_link:
            base = candidate
            continue
        if candidate in seen:
            known = seen[candidate]
            if known is not None:
                base = known
                continue
            return join(candidate, rest), False  # a loop
        try:
            target = readlink(candidate)
        except OSError:  # a link this process may not read (/proc/1/root): as os.path does
            base = candidate
            continue
        seen[candidate] = None
        base, ok = _resolve(base, target, seen)
        if not ok:
            return join(base, rest), False
        seen[candidate] = base
    return base, True


def makedirs(name: str, mode: int = 0o777, exist_ok: bool = False) -> None:
    head, tail = split(name)
    if not tail:
        head, tail = split(head)
    if head and tail and not exists(head):
        try:  # noqa: SIM105 - contextlib is not loaded on the hot path
            makedirs(head, exist_ok=exist_ok)
        except FileExistsError:
            pass  # made meanwhile by another process
        if tail == ".":
            return
    try:
        mkdir(name, mode)
    except OSError:
        if not exist_ok or not isdir(name):
            raise


# ``os.path.join`` as with os: the module itself (taken from sys.modules, not imported:
# the snapshot binds a module to its package only once it has run)
if TYPE_CHECKING:
    from hookwise.policy import os_lite as path  # noqa: PLW0406 - for the type checker
else:
    path = sys.modules[__name__]
