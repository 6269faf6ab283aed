"""What a hook's interpreter reads before it runs a line of hookwise, asked of the
interpreter itself: the symlinks from the path the hook command names to the real binary,
and every entry of its module search path under ``-I -S`` (``sys.path`` of the hook), the
missing ones included (``lib/python311.zip`` comes before the standard library: created
inside a session, it would be imported from by every later hook).

A red team replaced ``<base>/bin/python3`` (a symlink between the virtualenv's ``python3``
and ``python3.11``) and created ``<base>/lib/python311.zip``; only names it knew were guarded.
Nothing here is a list of names: the chain is followed with ``readlink`` and the search path
is what ``<interpreter> -I -S`` prints.
"""

from __future__ import annotations

import os

MAX_LINKS = 40  # as the kernel
PROBE = "import sys; print(*[sys.executable, sys._base_executable, *sys.path], sep='\\0')"


class Consulted:
    """What one interpreter consults at start: symlinks (each link of each chain), the
    binaries they lead to, search path entries that exist, and those that do not (yet)."""

    __slots__ = ("binaries", "links", "missing", "present", "zip")

    def __init__(self) -> None:
        self.links: list[str] = []
        self.binaries: list[str] = []  # where the chains lead
        self.present: list[str] = []
        self.missing: list[str] = []
        self.zip = ""  # the zip landmark's place on sys.path (<prefix>/lib/python3XY.zip)


def chain(path: str) -> tuple[list[str], str]:
    """Every symlink passed on the way from ``path`` to the file it names (a link in a
    directory on the way included, each as the path it was met at), and that file."""
    links: list[str] = []
    pending = [part for part in os.path.abspath(path).split("/") if part]
    current = "/"
    hops = 0
    while pending:
        name = pending.pop(0)
        if name == "..":
            current = os.path.dirname(current)
            continue
        candidate = os.path.join(current, name)
        if not os.path.islink(candidate):
            current = candidate
            continue
        hops += 1
        if hops > MAX_LINKS:
            break
        links.append(candidate)
        target = os.readlink(candidate)
        if target.startswith("/"):
            current = "/"
        pending = [part for part in target.split("/") if part and part != "."] + pending
    return links, current


_CACHE: dict[str, Consulted] = {}
_ASKED: dict[str, tuple[int, int]] = {}  # interpreter -> (pid, read end of its stdout)
_STORE: dict[str, tuple[str, str]] = {}  # interpreter -> (file keeping its answer, key)


def _stored(key: str, cache: str) -> tuple[str, str]:
    """Where the answer of ``key`` is kept in ``cache`` (the sessions' directory, read-only
    in a session), and the line it must start with: what the answer depends on (the binary the
    chain leads to, the interpreter's pyvenv.cfg: inode and ctime, which a copy or a write
    changes), so a changed interpreter is asked again.
    (No hashlib, no subprocess: ``hookwise run``'s start pays for every import.)"""
    import zlib

    real = os.path.realpath(key)
    parts = [key, real]
    for path in (real, os.path.join(os.path.dirname(os.path.dirname(key)), "pyvenv.cfg")):
        try:
            info = os.stat(path)
        except OSError:
            parts.append("-")
            continue
        parts += [str(v) for v in (info.st_dev, info.st_ino, info.st_ctime_ns, info.st_size)]
    line = "\0".join(parts).replace("\n", "\0")
    name = f"{zlib.crc32(key.encode('utf-8', 'surrogateescape')):08x}"
    return os.path.join(cache, f"interpreter-{name}.paths"), line


def ask(interpreter: str, cache: str | None = None) -> None:
    """Start asking ``interpreter`` (run as the hook runs it, ``-I -S``), unless its answer is
    kept in ``cache``: computed while the rest of the guarded paths are."""
    key = os.path.abspath(interpreter)
    if key in _CACHE or key in _ASKED:
        return
    if cache is not None:
        _STORE[key] = _stored(key, cache)
        path, line = _STORE[key]
        try:
            with open(path, "rb") as handle:
                kept = handle.read(1 << 20).decode("utf-8", "surrogateescape")
        except OSError:
            kept = ""
        head, _, body = kept.partition("\n")
        if head == line and body.endswith("\0\n"):
            _CACHE[key] = _read(key, body[:-2].split("\0"))
            return
    read, write = os.pipe()
    try:
        null = os.open(os.devnull, os.O_RDWR)
        try:
            pid = os.posix_spawn(
                key,
                [key, "-I", "-S", "-c", PROBE],
                {},
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, null, 0),
                    (os.POSIX_SPAWN_DUP2, write, 1),
                    (os.POSIX_SPAWN_DUP2, null, 2),
                    (os.POSIX_SPAWN_CLOSE, read),
                ],
            )
        finally:
            os.close(null)
    except OSError:
        os.close(read)
        return
    finally:
        os.close(write)
    _ASKED[key] = (pid, read)


def _keep(key: str, answer: list[str]) -> None:
    """The answer written where it is kept (outside a session: inside, that directory is
    read-only and this fails quietly); whole or not at all."""
    if key not in _STORE or len(answer) < 2:
        return
    path, line = _STORE[key]
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        temporary = f"{path}.{os.getpid()}"
        with open(temporary, "wb") as handle:
            text = line + "\n" + "\0".join(answer) + "\0\n"
            handle.write(text.encode("utf-8", "surrogateescape"))
        os.replace(temporary, path)
    except OSError:
        return


def _answer(key: str, timeout: float) -> list[str]:
    """The interpreter's answer (empty when it does not give one within ``timeout``)."""
    import select
    import time

    ask(key)
    if key not in _ASKED:
        return []
    pid, read = _ASKED.pop(key)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    poller = select.poll()
    poller.register(read, select.POLLIN)
    try:
        while (left := deadline - time.monotonic()) > 0 and poller.poll(left * 1000):
            chunk = os.read(read, 65536)
            if not chunk:
                break
            chunks.append(chunk)
        else:
            os.kill(pid, 9)
            chunks = []
    finally:
        os.close(read)
    _, status = os.waitpid(pid, 0)
    if not chunks or os.waitstatus_to_exitcode(status) != 0:
        return []
    answer = b"".join(chunks).decode("utf-8", "surrogateescape").rstrip("\n").split("\0")
    _keep(key, answer)
    return answer


def consulted(interpreter: str, timeout: float = 10) -> Consulted:
    """What ``interpreter`` reads at start, by its own answer; an interpreter that does not
    answer gives only its chain (the caller guards that)."""
    key = os.path.abspath(interpreter)
    if key not in _CACHE:
        _CACHE[key] = _read(key, _answer(key, timeout))
    return _CACHE[key]


def _read(key: str, answer: list[str]) -> Consulted:
    out = Consulted()
    paths = [key] + ([p for p in answer[:2] if p] if len(answer) >= 2 else [])
    for path in paths:
        links, real = chain(path)
        out.links += [link for link in links if link not in out.links]
        if real not in out.binaries and os.path.exists(real):
            out.binaries.append(real)
    for entry in answer[2:]:
        if entry:
            target = os.path.abspath(entry)
            if not out.zip and target.endswith(".zip"):
                out.zip = target
            (out.present if os.path.lexists(target) else out.missing).append(target)
    return out


# CPython's getpath reads these beside the binaries before any module is imported, even
# under -I -S: a ``._pth`` replaces sys.path; ``pybuilddir.txt`` or ``Modules/Setup.local``
# make it a build tree (``<dir>/Lib`` first on sys.path); ``pyvenv.cfg`` beside the invoked
# binary (or one level up) moves its prefix. No install hookwise supports has any of them
# beside the binaries, except the virtualenv's own ``pyvenv.cfg`` one level up.
START_SUFFIX = "._pth"
BUILD_FILES = ("pybuilddir.txt", "Modules/Setup.local")
VENV_FILE = "pyvenv.cfg"


def _binaries(interpreter: str, found: Consulted) -> list[str]:
    """The invoked path, each link of its chains and where they lead: each one's ``._pth``
    and directory are read at start (getpath's ``executable`` and ``real_executable``)."""
    key = os.path.abspath(interpreter)
    return list(dict.fromkeys([key, *found.links, *found.binaries]))


def installation(binary: str) -> str | None:
    """The prefix ``binary`` belongs to (``<prefix>/bin/pythonX.Y`` beside
    ``<prefix>/lib/pythonX.Y/os.py``, getpath's landmark), or None."""
    prefix = os.path.dirname(os.path.dirname(binary))
    try:
        names = os.listdir(os.path.join(prefix, "lib"))
    except OSError:
        return None
    landmark = any(
        n.startswith("python3") and os.path.isfile(os.path.join(prefix, "lib", n, "os.py"))
        for n in names
    )
    return prefix if landmark else None


def start_directories(interpreter: str, found: Consulted) -> list[str]:
    """Every directory whose *next* contents the interpreter's start depends on: each
    binary's directory (a ``._pth`` or build file created there tomorrow changes sys.path;
    today's sys.path cannot say so) and, for an installed base interpreter, its prefix whole
    (the library's ``._pth``, ``lib/``, a ``pyvenv.cfg`` above ``bin/``)."""
    out: list[str] = []
    for binary in _binaries(interpreter, found):
        directory = os.path.dirname(binary)
        prefix = installation(binary) if binary in found.binaries else None
        for path in (prefix, directory):
            if path and path not in out:
                out.append(path)
    return out


def unexpected_start_files(interpreter: str, found: Consulted) -> list[str]:
    """The start files getpath would read beside ``interpreter``'s binaries that no normal
    install has (planted before a session guarded their directory, or in an unconfined one):
    ``._pth`` files, build-tree markers, a ``pyvenv.cfg`` beside a binary."""
    binaries = _binaries(interpreter, found)
    out = [b + START_SUFFIX for b in binaries]
    for directory in dict.fromkeys(os.path.dirname(b) for b in binaries):
        out += [os.path.join(directory, name) for name in (*BUILD_FILES, VENV_FILE)]
    prefixes = (installation(b) for b in found.binaries)  # (an installation is no venv)
    out += [os.path.join(prefix, VENV_FILE) for prefix in prefixes if prefix]
    return [path for path in out if os.path.lexists(path)]


def _search_start(interpreter: str) -> str:
    """getpath's ``executable_dir``: the ``home`` of the ``pyvenv.cfg`` it reads (one level
    above the invoked binary, else beside it), else the real binary's directory."""
    key = os.path.abspath(interpreter)
    beside = os.path.dirname(key)
    for directory in (os.path.dirname(beside), beside):
        try:
            with open(os.path.join(directory, VENV_FILE), encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        for line in lines:
            name, equals, value = line.partition("=")
            if equals and name.strip().lower() == "home" and "\0" not in value:
                return value.strip()
        break  # (the first pyvenv.cfg read decides, home or not)
    return os.path.dirname(os.path.realpath(key))


def prefix_searches(interpreter: str, found: Consulted) -> list[str]:
    """Where getpath looks for its prefix: from ``executable_dir`` up to ``/``, each
    ancestor's ``<platlibdir>`` (``lib``) is probed for the zip landmark
    (``lib/python3XY.zip``) before anything else, then for ``os.py`` and ``lib-dynload``;
    the first found becomes the prefix and sets ``sys.path``, even under ``-I -S``. So every
    such directory, innermost first, up to the one that holds the zip landmark: what is
    created in one of them decides what every later hook imports (red team s24, #2:
    ``~/.pyenv/versions/lib/python311.zip``). Empty when the interpreter gave no answer."""
    if not found.zip:
        return []
    platlib = os.path.basename(os.path.dirname(found.zip))
    landmark = os.path.basename(found.zip)
    out: list[str] = []
    current = os.path.abspath(_search_start(interpreter))
    while True:
        directory = os.path.join(current, platlib)
        out.append(directory)
        if os.path.isfile(os.path.join(directory, landmark)):
            return out
        parent = os.path.dirname(current)
        if parent == current:
            return out
        current = parent
