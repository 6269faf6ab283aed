"""Hooks that are script files named after their event (Cline), found and run as the host does.

The facts are the host's protocol module's (``HOOK_DIRS``, ``SCRIPT_SUFFIXES``,
``INTERPRETERS``, ``SHEBANG_BY_NAME``, ``SENT_AS``): which directories are read, which file
names count, and the program line the host starts for each file (it reads the ``#!`` line
itself rather than exec the file, so the execute bit does not matter). A repository can
plant anything in those directories, so a file is read only as a regular file, its first
line only, never blocking on a FIFO.
"""

from __future__ import annotations

import importlib
import os
import shlex
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from hookwise.config.dialect_hooks import DialectHooks
from hookwise.config.host_homes import config_dir
from hookwise.config.model import HookEntry, Source
from hookwise.config.registry import Registry
from hookwise.protocol.hosts import host

# The part of a file read for its ``#!`` line (the host reads the whole file for it; a
# longer first line is cut here, which only a hostile file has).
FIRST_LINE_BYTES = 64 * 1024


@dataclass(frozen=True)
class ScriptHook:
    """One hook file: the event its name stands for, where it is, and what the host runs."""

    event: str
    path: Path
    scope: str  # "user" or "project"
    argv: tuple[str, ...]

    @property
    def command(self) -> str:
        """The program line as one shell command (the executor runs ``bash -c``)."""
        return shlex.join(self.argv)


def _facts(name: str) -> ModuleType:
    return importlib.import_module(host(name).module)


def hook_dirs(name: str, workspace: str, env: Mapping[str, str]) -> list[tuple[str, Path]]:
    """(scope, directory) of every directory the host reads hooks from, in its order, each
    once."""
    home = Path(env.get("HOME") or Path.home())
    bases = {"home": home, "config": config_dir(name, env), "project": Path(workspace)}
    out: list[tuple[str, Path]] = []
    for base, relative in _facts(name).HOOK_DIRS:
        path = bases[base] / relative
        if all(str(path) != str(seen) for _, seen in out):
            out.append(("project" if base == "project" else "user", path))
    return out


def event_of(name: str, filename: str) -> str | None:
    """The event a file called ``filename`` is a hook of (its name less a known suffix,
    trimmed, in any case), or None.

    As the host's ``basename(name, extname(name).toLowerCase())``: the suffix is known in
    any case, but taken off only as written in lower case (``PreToolUse.SH`` is no hook)."""
    facts = _facts(name)
    stem, dot, suffix = filename.rpartition(".")
    # path.extname: a leading dot alone is no suffix (".bashrc" has none)
    if not dot or not stem.strip("."):
        stem, suffix = filename, ""
    else:
        suffix = "." + suffix
    if suffix.lower() not in facts.SCRIPT_SUFFIXES:
        return None
    if suffix != suffix.lower():
        stem = filename
    wanted = stem.strip().lower()
    for event in facts.EVENT_NAMES:
        if event.lower() == wanted:
            return str(event)
    return None


def first_line(path: Path) -> str:
    """The first line of a regular file ('' for anything else or an unreadable file)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        head = os.read(fd, FIRST_LINE_BYTES)
    except OSError:
        return ""
    finally:
        os.close(fd)
    text = head.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").split("\n", 1)[0]


def _shebang_program(name: str, words: list[str]) -> list[str]:
    """The program of a ``#!`` line as the host starts it: ``env`` skipped, a shell or
    Python named only by its name (found on PATH), anything else as written."""
    if not words:
        return words
    program = words[0].replace("\\", "/").lower().rsplit("/", 1)[-1]
    if program == "env":
        return _shebang_program(name, words[1:])
    if program in _facts(name).SHEBANG_BY_NAME:
        return [program, *words[1:]]
    return words


def script_argv(name: str, path: Path) -> tuple[str, ...]:
    """What the host starts for the hook file ``path``: its ``#!`` line's program, else the
    interpreter of its suffix, else bash; the file's path last."""
    line = first_line(path).strip()
    if line.startswith("#!"):
        words = line[2:].split()
        if words:
            return (*_shebang_program(name, words), str(path))
    lowered = path.name.lower()
    for suffix, program in _facts(name).INTERPRETERS.items():
        if lowered.endswith(suffix):
            return (*program, str(path))
    return ("bash", str(path))


def _collation_key(path: Path) -> tuple[str, str]:
    """``localeCompare`` of the paths, near enough: letters compared without case first,
    then lower case before upper (punctuation keeps its code-point order here)."""
    text = str(path)
    return text.casefold(), text.swapcase()


def discover(name: str, workspace: str, env: Mapping[str, str]) -> list[ScriptHook]:
    """Every hook file of the host for ``workspace``, in the order it runs them (by path).

    A directory that is missing or cannot be listed gives nothing; a symbolic link is not a
    hook (the host lists regular files only)."""
    found: list[ScriptHook] = []
    seen: set[str] = set()
    for scope, directory in hook_dirs(name, workspace, env):
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            try:
                regular = entry.is_file(follow_symlinks=False)
            except OSError:
                continue
            event = event_of(name, entry.name) if regular else None
            path = Path(entry.path)
            if event is None or str(path) in seen:
                continue
            seen.add(str(path))
            found.append(ScriptHook(event, path, scope, script_argv(name, path)))
    return sorted(found, key=lambda hook: _collation_key(hook.path))


def load_script_hooks(name: str, workspace: str, env: Mapping[str, str]) -> DialectHooks:
    """The host's hook files as registered hooks, in the order it runs them; a file of an
    event the host never runs (Cline 3.0.65's PreCompact) is named in a warning."""
    sent_as: Mapping[str, str | None] = _facts(name).SENT_AS
    title = host(name).title
    entries: list[HookEntry] = []
    warnings: list[str] = []
    files: list[Path] = []
    for hook in discover(name, workspace, env):
        files.append(hook.path)
        if sent_as.get(hook.event, hook.event) is None:
            warnings.append(f"{hook.path}: {title} never runs a {hook.event} hook; not run")
            continue
        config = {"type": "command", "command": hook.command}
        source = Source.PROJECT if hook.scope == "project" else Source.USER
        entries.append(
            HookEntry(config, hook.event, source, origin=str(hook.path), scope=hook.scope)
        )
    return DialectHooks(name, Registry(entries, []), warnings, files=files)


__all__ = [
    "ScriptHook",
    "discover",
    "event_of",
    "hook_dirs",
    "load_script_hooks",
    "script_argv",
]
