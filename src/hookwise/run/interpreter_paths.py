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
import subprocess

MAX_LINKS = 40  # as the kernel
PROBE = "import sys; print(*[sys.executable, sys._base_executable, *sys.path], sep='\\0')"


class Consulted:
    """What one interpreter consults at start: symlinks (each link of each chain), the
    binaries they lead to, search path entries that exist, and those that do not (yet)."""

    __slots__ = ("binaries", "links", "missing", "present")

    def __init__(self) -> None:
        self.links: list[str] = []
        self.binaries: list[str] = []  # where the chains lead
        self.present: list[str] = []
        self.missing: list[str] = []


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
_ASKED: dict[str, subprocess.Popen[bytes]] = {}


def ask(interpreter: str) -> None:
    """Start asking ``interpreter`` (run as the hook runs it, ``-I -S``), so that its answer
    is computed while the rest of the guarded paths are (a start costs ~20 ms)."""
    key = os.path.abspath(interpreter)
    if key in _CACHE or key in _ASKED:
        return
    try:
        _ASKED[key] = subprocess.Popen(
            [key, "-I", "-S", "-c", PROBE],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={},
        )
    except OSError:
        return


def _answer(key: str, timeout: float) -> list[str]:
    ask(key)
    process = _ASKED.pop(key, None)
    if process is None:
        return []
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return []
    if process.returncode != 0:
        return []
    return out.decode("utf-8", "surrogateescape").rstrip("\n").split("\0")


def consulted(interpreter: str, timeout: float = 10) -> Consulted:
    """What ``interpreter`` reads at start, by its own answer; an interpreter that does not
    answer gives only its chain (the caller guards that)."""
    key = os.path.abspath(interpreter)
    if key in _CACHE:
        return _CACHE[key]
    out = Consulted()
    answer = _answer(key, timeout)
    paths = [key] + ([p for p in answer[:2] if p] if len(answer) >= 2 else [])
    entries = [p for p in answer[2:] if p]
    for path in paths:
        links, real = chain(path)
        out.links += [link for link in links if link not in out.links]
        if real not in out.binaries and os.path.exists(real):
            out.binaries.append(real)
    for entry in entries:
        target = os.path.abspath(entry)
        (out.present if os.path.lexists(target) else out.missing).append(target)
    _CACHE[key] = out
    return out
