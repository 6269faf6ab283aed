"""What a python command line runs: its code, module, script or stdin, found after the
interpreter's own options as python reads them (``python3 -u -Im dotenv``, ``-mdotenv``,
``-X utf8 script.py``), and the module a script path stands for (red team s31 E, F:
``/usr/lib/python3.11//timeit.py``, its ``__pycache__/timeit.cpython-311.pyc``, a package
directory in site-packages, a relative name after ``cd``). Standard library only: the
hot path of ``hookwise hook`` reads it."""

from __future__ import annotations

import re

from hookwise.policy import os_lite as os  # os without its import cost

# python's one-letter options without a value (3.8-3.13), and those taking one
_FLAGS = frozenset("bBdEhiIOPqsSuvVx?R")
_VALUED = frozenset("cmWXQ")
_LONG_VALUED = ("--check-hash-based-pycs",)
_LONG_FLAGS = frozenset(["--help", "--version", "--help-env", "--help-xoptions", "--help-all"])


class Entry:
    """``kind``: "code" (-c), "module" (-m), "script", "stdin" (no operand or ``-``), or
    "unknown" (an option python does not know: it refuses to run); ``value`` the code,
    module or script; ``options`` the option words before it; ``rest`` the words after."""

    __slots__ = ("flags", "kind", "options", "rest", "value")

    def __init__(
        self, kind: str, value: str, options: list[str], rest: list[str], flags: str = ""
    ) -> None:
        self.kind = kind
        self.value = value
        self.options = options
        self.rest = rest
        self.flags = flags  # the one-letter flags before it (-i: stdin is code afterwards)


def python_entry(argv: list[str]) -> Entry:
    """Read python's options as python does: letters cluster (``-IBu``), ``-c``/``-m``/
    ``-W``/``-X`` take the rest of their word or the next word, and the first word that is
    not an option is the script."""
    i = 1
    flags = ""
    while i < len(argv):
        word = argv[i]
        if word == "-":
            return Entry("stdin", "-", argv[1:i], argv[i + 1 :])
        if word == "--":
            if i + 1 < len(argv):
                return Entry("script", argv[i + 1], argv[1:i], argv[i + 2 :])
            return Entry("stdin", "", argv[1:i], [])
        if word.startswith("--"):
            if word in _LONG_VALUED:
                i += 2
                continue
            if word.split("=", 1)[0] in _LONG_VALUED or word in _LONG_FLAGS:
                i += 1
                continue
            return Entry("unknown", word, argv[1:i], argv[i + 1 :])
        if not word.startswith("-"):
            return Entry("script", word, argv[1:i], argv[i + 1 :], flags)
        taken = 0
        for at, letter in enumerate(word[1:], start=1):
            if letter in _VALUED:
                value = word[at + 1 :]
                if not value:
                    value = argv[i + 1] if i + 1 < len(argv) else ""
                    taken = 1
                if letter in "cm":
                    kind = "code" if letter == "c" else "module"
                    return Entry(kind, value, argv[1:i], argv[i + 1 + taken :], flags)
                break
            if letter not in _FLAGS:
                return Entry("unknown", word, argv[1:i], argv[i + 1 :])
            flags += letter
        i += 1 + taken
    return Entry("stdin", "", argv[1:], [])


_VERSIONED = re.compile(r"(?:python|pypy)\d(?:\.\d+)?")
_PYC = re.compile(r"(?P<name>[A-Za-z_]\w*)\.[a-z]+-\d+(?:\.opt-\d)?\.pyc")
_SITES = ("site-packages", "dist-packages")


def script_path(script: str, cwd: str | None) -> str:
    """The script's path as the kernel finds it: joined to the directory a ``cd`` on the
    line went to, ``//`` and ``/./`` and ``..`` folded, links followed where it is
    absolute (``/usr/bin/npm`` is npm's ``npm-cli.js``)."""
    path = script
    if cwd is not None and not path.startswith("/"):
        path = f"{cwd}/{path}"
    path = os.path.normpath(path) if path else path
    if path.startswith("/"):
        path = os.path.realpath(path)
    return path


def library_module(path: str) -> tuple[str, bool] | None:
    """(the dotted module a file or package directory of python's library is, whether it
    is an installed package's rather than the standard library's), or None: the path is
    not under a ``pythonX.Y`` directory. ``.../python3.11/http/server.py`` is
    ``http.server``, ``.../__pycache__/timeit.cpython-311.pyc`` is ``timeit``, a package
    directory (python runs its ``__main__``) is the package."""
    parts = [p for p in path.split("/") if p]
    at = max((k for k, p in enumerate(parts) if _VERSIONED.fullmatch(p)), default=-1)
    if at < 0:
        return None
    rest = parts[at + 1 :]
    installed = bool(rest) and rest[0] in _SITES
    if installed:
        rest = rest[1:]
    rest = [p for p in rest if p != "__pycache__"]
    if not rest:
        return None
    last = rest[-1]
    compiled = _PYC.fullmatch(last)
    if compiled is not None:
        last = compiled.group("name")
    elif last.endswith((".py", ".pyc", ".pyw")):
        last = last.rsplit(".", 1)[0]
    rest[-1] = last
    if rest[-1] in ("__main__", "__init__") and len(rest) > 1:
        rest = rest[:-1]
    if not all(p.isidentifier() for p in rest):
        return None
    return ".".join(rest), installed
