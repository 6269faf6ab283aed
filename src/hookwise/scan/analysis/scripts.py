"""The script files a command runs: which path, resolved as the host would, and its text.

``"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh``, ``bash x.sh``, ``python3 tools/x.py``,
``node ~/.cache/x.js``, ``source ./env.sh``: the path is resolved against the variables the
host sets (the project directory, the plugin or extension root, the home directory) and the
command's working directory, and the file is read (up to a size limit) to be scanned too.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from hookwise.scan.catalog import POWERSHELLS, SHELL_SOURCES
from hookwise.scan.model import ScriptFile
from hookwise.shell import programs
from hookwise.shell.parser import Command
from hookwise.shell.programs import SHELLS

__all__ = ["MAX_SCRIPT_BYTES", "expand", "language_of", "read_script", "script_paths"]

MAX_SCRIPT_BYTES: Final = 1024 * 1024
_VAR: Final = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_NODES: Final = frozenset(["node", "nodejs", "deno", "bun", "tsx", "ts-node"])
# Interpreter options that take a value (so the value is not the script).
_VALUE_OPTIONS: Final = frozenset(
    [
        "-W",
        "-X",
        "-O",
        "-o",
        "+O",
        "--rcfile",
        "--init-file",
        "-r",
        "--require",
        "--import",
        "--loader",
    ]
)


def expand(word: str, variables: Mapping[str, str], home: str) -> str | None:
    """``word`` with known variables and a leading ``~`` replaced; None if one is unknown."""
    unknown = False

    def value(match: re.Match[str]) -> str:
        nonlocal unknown
        name = match.group(1) or match.group(2)
        if name in variables:
            return variables[name]
        if name == "HOME":
            return home
        unknown = True
        return match.group(0)

    text = _VAR.sub(value, word)
    if text == "~" or text.startswith("~/"):
        text = home + text[1:]
    return None if unknown else text


def language_of(path: str, text: str | None, hint: str | None) -> str:
    first = (text or "").split("\n", 1)[0]
    if hint:
        return hint
    if path.endswith((".py", ".pyw")) or (first.startswith("#!") and "python" in first):
        return "python"
    if path.endswith((".js", ".mjs", ".cjs", ".ts")) or (
        first.startswith("#!") and "node" in first
    ):
        return "node"
    if path.endswith((".ps1", ".psm1")):
        return "powershell"
    if path.endswith((".sh", ".bash", ".zsh")) or (
        first.startswith("#!") and any(s in first for s in ("sh", "bash", "zsh"))
    ):
        return "shell"
    return "shell" if text is not None and "\0" not in text[:4096] else "other"


def _first_operand(argv: list[str], start: int = 1) -> int | None:
    i = start
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return i + 1 if i + 1 < len(argv) else None
        if word in ("-c", "-e", "--eval", "-m", "-p", "--print", "-Command", "-EncodedCommand"):
            return None  # code or module, not a file
        if word.startswith("-") and len(word) > 1:
            i += 2 if word in _VALUE_OPTIONS else 1
            continue
        return i
    return None


# project runners whose ``run`` starts a script (uv run x.py, bun run x.ts, deno run x.ts)
_RUNNERS: Final = frozenset(["uv", "bun", "deno", "poetry", "pdm", "pipenv", "rye", "hatch"])
# their options that take a value (uv run --with requests x.py)
_RUN_VALUES: Final = frozenset(
    ["--with", "--with-editable", "--with-requirements", "--python", "-p", "--project",
     "--directory", "--package", "--extra", "--group", "--env-file", "--index", "--index-url",
     "--extra-index-url", "-f", "--find-links", "--config", "-c", "--cwd", "--env", "-e",
     "--allow-read", "--allow-net", "--import-map", "--lock", "--preload", "-r"]
)  # fmt: skip
_BY_SUFFIX: Final = (
    ((".py", ".pyw"), "python"),
    ((".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx"), "node"),
    ((".sh", ".bash"), "shell"),
)


def _run_target(words: list[str]) -> tuple[str, str | None] | None:
    """The script ``uv run``/``bun run``... starts: a file by its suffix, or the script an
    interpreter named there runs (uv run python x.py); None for a named task or a tool."""
    index = 0
    while index < len(words) and words[index].startswith("-") and words[index] != "--":
        index += 2 if words[index] in _RUN_VALUES else 1
    index += index < len(words) and words[index] == "--"
    if index >= len(words):
        return None
    first = words[index]
    for suffixes, hint in _BY_SUFFIX:
        if first.endswith(suffixes):
            return first, hint
    name = first.rsplit("/", 1)[-1]
    family = programs.interpreter(name)
    if family is not None or name in _NODES:
        operand = _first_operand(words, index + 1)
        if operand is None:
            return None
        return words[operand], "python" if family == "python" else "node"
    return (first, None) if "/" in first else None


def script_paths(command: Command) -> list[tuple[str, str | None]]:
    """(path as written, language hint) of the files ``command`` runs."""
    argv = command.argv
    if not argv:
        return []
    program = command.program
    found: list[tuple[str, str | None]] = []
    if program in _RUNNERS and len(argv) > 2 and argv[1] == "run":
        target = _run_target(argv[2:])
        return [target] if target is not None else []
    if "/" in argv[0] and program not in SHELLS and not programs.interpreter(program):
        found.append((argv[0], None))
        return found
    family = programs.interpreter(program)
    hint = None
    if program in SHELLS:
        hint = "shell"
    elif family == "python":
        hint = "python"
    elif program in _NODES or family == "node":
        hint = "node"
    elif program.lower() in POWERSHELLS:
        hint = "powershell"
        for index, word in enumerate(argv):
            if word.lower() in ("-file", "-f") and index + 1 < len(argv):
                return [(argv[index + 1], hint)]
        return []
    elif program in SHELL_SOURCES:
        hint = "shell"
    elif family is None:
        return found
    if family is not None and programs.interpreter_code(program, argv) is not None:
        return found  # perl -ne CODE, python -Bc CODE: code on the line, no script file
    operand = _first_operand(argv)
    if operand is not None:
        found.append((argv[operand], hint))
    return found


def read_script(path: str, hint: str | None) -> ScriptFile:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SCRIPT_BYTES + 1)
    except FileNotFoundError:
        return ScriptFile(path, None, None, hint or "other", "not found")
    except OSError as exc:
        return ScriptFile(path, None, None, hint or "other", exc.strerror or str(exc))
    digest = hashlib.sha256(data).hexdigest()
    if len(data) > MAX_SCRIPT_BYTES:
        return ScriptFile(path, None, digest, hint or "other", "larger than 1 MiB; not read")
    text = data.decode("utf-8", errors="replace")
    language = language_of(path, text, hint)
    if language == "other":
        return ScriptFile(path, None, digest, language, "binary; not read")
    return ScriptFile(path, text, digest, language)


# paths a script computes for its own files: its directory, the repository's root
_OWN_DIR: Final = re.compile(
    r"""\$\(\s*dirname\s+(["']?)(?:\$0|\$\{0\}|\$\{BASH_SOURCE(?:\[0\])?\}|\$BASH_SOURCE)\1\s*\)"""
    r"|\$\{(?:0|BASH_SOURCE(?:\[0\])?)%/\*\}"
)
_CD_PWD: Final = re.compile(
    r"""\$\(\s*cd\s+(["']?)([^"'$()`;&|]+)\1\s*(?:&&|;)\s*pwd(?:\s+-P)?\s*\)"""
)
_TOPLEVEL: Final = re.compile(
    r"\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)|`\s*git\s+rev-parse\s+--show-toplevel\s*`"
)


def computed(word: str, script_dir: str | None, project: str) -> str:
    """``word`` with the substitutions a script uses to find its own files read as the
    paths they print: ``$(dirname "$0")`` (and ``${BASH_SOURCE[0]%/*}``, ``$(cd ... &&
    pwd)`` around it) is the script's directory, ``$(git rev-parse --show-toplevel)`` the
    repository's root. Any other substitution stays, and the path stays unknown."""
    if "$" not in word and "`" not in word:
        return word
    if script_dir is not None:
        word = _OWN_DIR.sub(lambda _m: script_dir, word)
        word = _CD_PWD.sub(lambda m: m.group(2), word)
    return _TOPLEVEL.sub(lambda _m: project, word)


def resolve(
    word: str,
    variables: Mapping[str, str],
    home: str,
    cwd: str,
    *,
    script_dir: str | None = None,
    project: str | None = None,
) -> str | None:
    if project is not None:
        word = computed(word, script_dir, project)
    if "$(" in word or "`" in word:
        return None  # a path only running it tells
    expanded = expand(word, variables, home)
    if expanded is None:
        return None
    return os.path.normpath(expanded if os.path.isabs(expanded) else os.path.join(cwd, expanded))


def is_file(path: str) -> bool:
    return Path(path).is_file()
