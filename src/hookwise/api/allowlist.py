"""What execute-with-output may run: argv vectors the operator named, fixed at startup.

Commands come from the network, so an entry means one program file, decided when the
server starts and never by a request: an absolute path (resolved with realpath) or a
bare program name (resolved once against ``SAFE_PATH``). Relative paths (``./hook.sh``,
``.claude/hooks/x.sh``), ``~`` and variables (``$CLAUDE_PROJECT_DIR``) would resolve
against a client-chosen cwd or environment, so they are refused at startup, as is shell
syntax outside quotes: the command runs as an argv, with no shell, so a request for
``ok.sh x; id`` can only ever run ``ok.sh`` with the arguments ``x;`` and ``id``. When
an operator does want a shell, the entry says so (``sh -c 'a; b'``) and only that exact
argv runs.

A request's ``hookConfig.command`` is split the same way (POSIX shell words, no
expansion); its program is resolved the same way (a bare name only through the table
built at startup), and the resulting argv must equal an exact entry or fully match a
regex entry. A regex is matched against ``shlex.join(argv)`` of the resolved argv, so
``/opt/hooks/check\\.sh( [a-z-]+)*`` allows that program with such arguments.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

SAFE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_OPERATOR = re.compile(r"[;&|<>()]+")
_SHELL_CHARS = re.compile(r"[$`]")

Argv = tuple[str, ...]


class AllowListError(ValueError):
    """An allow-list entry the server refuses to start with (the message says why)."""


def split_command(command: str) -> Argv:
    """POSIX shell words, without expansion; ValueError for unbalanced quotes."""
    return tuple(shlex.split(command, posix=True))


def _operators(entry: str) -> list[str]:
    """Unquoted shell operators (``;``, ``|``, ``>``...): an entry written for a shell.
    (``sh -c 'a; b'`` is fine: the operator is inside one quoted argument.)"""
    lexer = shlex.shlex(entry, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return [t for t in lexer if _OPERATOR.fullmatch(t)]


def _program(name: str, programs: Mapping[str, str]) -> str | None:
    """argv[0] as a real path: absolute names resolved, bare names from ``programs``."""
    if name.startswith("/"):
        return os.path.realpath(name)
    if "/" in name or name.startswith("~") or not name:
        return None
    return programs.get(name)


def resolve_entry(entry: str, where: str) -> tuple[Argv, str | None]:
    """An allow-list string as (resolved argv, the bare name it was given as, if any)."""
    if _SHELL_CHARS.search(entry):
        raise AllowListError(
            f"{where}: {entry!r} uses a variable or command substitution ($, `); "
            "name the program by absolute path or bare name, with literal arguments"
        )
    try:
        argv = split_command(entry)
    except ValueError as err:
        raise AllowListError(f"{where}: {entry!r} cannot be split into words: {err}") from None
    if not argv:
        raise AllowListError(f"{where}: empty command")
    shell = _operators(entry)
    if shell:
        raise AllowListError(
            f"{where}: {entry!r} contains shell syntax ({' '.join(shell)}); commands run "
            "without a shell, so list one program and its arguments"
        )
    name = argv[0]
    if name.startswith("/"):
        real = os.path.realpath(name)
        if not os.path.isfile(real) or not os.access(real, os.X_OK):
            raise AllowListError(f"{where}: {name!r} is not an executable file")
        return (real, *argv[1:]), None
    if "/" in name or name.startswith("~"):
        raise AllowListError(
            f"{where}: {name!r} is a relative path; it would resolve against the client's "
            "cwd. Use an absolute path (or a bare program name found in " + SAFE_PATH + ")"
        )
    found = shutil.which(name, path=SAFE_PATH)
    if found is None:
        raise AllowListError(f"{where}: program {name!r} not found in {SAFE_PATH}")
    return (os.path.realpath(found), *argv[1:]), name


@dataclass(frozen=True)
class AllowList:
    """The resolved entries; ``match`` turns a requested command into the argv to run."""

    exact: frozenset[Argv] = frozenset()
    patterns: tuple[re.Pattern[str], ...] = ()
    programs: Mapping[str, str] = field(default_factory=dict)  # bare name -> real path
    sources: tuple[str, ...] = ()  # the entries as written, for the workers and the log

    def match(self, command: str) -> Argv | None:
        """The argv to run for ``command``, or None when nothing allows it."""
        if "\x00" in command:  # no path or argument can hold a NUL byte
            return None
        try:
            argv = split_command(command)
        except ValueError:
            return None
        if not argv:
            return None
        program = _program(argv[0], self.programs)
        if program is None:
            return None
        resolved = (program, *argv[1:])
        if resolved in self.exact:
            return resolved
        joined = shlex.join(resolved)
        if any(p.fullmatch(joined) for p in self.patterns):
            return resolved
        return None


def build_allow_list(
    commands: Iterable[tuple[str, str]], regexes: Iterable[tuple[str, str]]
) -> AllowList:
    """(entry, where) pairs -> an AllowList; AllowListError names the first bad entry."""
    exact: set[Argv] = set()
    programs: dict[str, str] = {}
    sources: list[str] = []
    for entry, where in commands:
        argv, bare = resolve_entry(entry, where)
        exact.add(argv)
        if bare is not None:
            programs[bare] = argv[0]
        sources.append(entry)
    patterns: list[re.Pattern[str]] = []
    for regex, where in regexes:
        try:
            patterns.append(re.compile(regex))
        except re.error as err:
            raise AllowListError(f"{where}: invalid regex: {err}") from None
    return AllowList(frozenset(exact), tuple(patterns), programs, tuple(sources))


def inside_roots(cwd: str, roots: Iterable[Path]) -> str | None:
    """``cwd`` as a real path when it lies inside one of ``roots`` (real paths), else None."""
    real = os.path.realpath(cwd)
    for root in roots:
        base = os.path.realpath(root)
        if real == base or real.startswith(base.rstrip("/") + "/"):
            return real
    return None
