"""A shell tool's other arguments that change what its command does, read into lines.

Servers take them next to the command (Node's ``spawn(command, args, {env, cwd})``, Go's
``exec.Command`` with ``cmd.Env``, ``cmd.Stdin``, ``cmd.Dir``), so a call decided on the
command alone runs something else: ``{"command": "bash", "args": ["-c", "rm -rf x"]}``,
``env: {"GIT_CONFIG_KEY_0": "core.fsmonitor", ...}``, ``{"command": "sh", "stdin": ...}``,
``working_dir`` outside the rules' directory. Each becomes command lines the engine decides
(the stricter verdict wins), or the call is unverifiable where no line says what runs.
Which keys play which part: ``accounting.shell_extra``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping
from typing import Any

from hookwise.policy.arg_roles import role, shell_extra
from hookwise.policy.canonical import SHELL
from hookwise.policy.tool_input import shell_command

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# a line of more than one command: stdin goes to whichever of them reads it
_COMPOUND = frozenset(";&|\n(){}`")
_READ_DIRS = ("cwd", "workdir", "path", "directory", "dir_path")


class UnverifiableError(ValueError):
    """The arguments change what runs in a way no command line states."""


def with_cwd(args: Mapping[str, Any]) -> Mapping[str, Any]:
    """``args`` with the one working-directory argument under another spelling
    (``working_dir``, ``chdir``, ``in``...) also given as ``cwd``, where the rules read it;
    two of them are unverifiable (``accounting``)."""
    dirs = [str(k) for k in args if shell_extra(str(k)) == "dir"]
    if len(dirs) != 1 or dirs[0] in _READ_DIRS or not isinstance(args[dirs[0]], str):
        return args
    return {**args, "cwd": args[dirs[0]]}


def _words(key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(
        isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value
    ):
        return [str(v) for v in value]
    raise UnverifiableError(f"its argument {key!r} is not a list of words")


def _env(key: str, value: Any) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    items: list[tuple[str, Any]]
    if isinstance(value, Mapping):
        items = [(str(k), v) for k, v in value.items()]
    elif isinstance(value, list) and all(isinstance(v, str) and "=" in v for v in value):
        items = [(v.partition("=")[0], v.partition("=")[2]) for v in value]
    else:
        raise UnverifiableError(f"its argument {key!r} is not an environment (names to strings)")
    for name, text in items:
        if not _NAME.fullmatch(name):
            raise UnverifiableError(
                f"its argument {key!r} sets {name!r}, which is no shell variable name "
                "(an exported function or a name the rules cannot write on a line)"
            )
        if isinstance(text, bool) or not isinstance(text, (str, int, float)):
            raise UnverifiableError(f"its argument {key!r} gives {name!r} a {type(text).__name__}")
        pairs.append((name, str(text)))
    return pairs


def _heredoc(line: str, body: str) -> str:
    if any(c in _COMPOUND for c in line):
        raise UnverifiableError(
            "its stdin argument goes to whichever command of the line reads it, and the line "
            "runs more than one"
        )
    text = body[:-1] if body.endswith("\n") else body
    mark = "HOOKWISE_STDIN"
    while mark in text.split("\n"):
        mark += "_"
    return f"{line} <<'{mark}'\n{text}\n{mark}"


def _quoted(command: str) -> Callable[[list[str]], str]:
    return lambda words: shlex.join([command, *words])


def _blanked(command: str) -> Callable[[list[str]], str]:
    return lambda words: " ".join([command, *words])


def readings(args: Mapping[str, Any]) -> list[str]:
    """The command lines the call also runs, given its argv, environment and stdin
    arguments (empty: the command alone says it). Raises :class:`UnverifiableError`."""
    _, command = shell_command(args)
    if command is None:
        return []
    argv: list[str] | None = None
    env: list[tuple[str, str]] = []
    stdin: str | None = None
    files: list[str] = []  # a file or path list beside the command: its words too (s27 F2)
    for raw, value in args.items():
        key = str(raw)
        kind = shell_extra(key)
        if role(key, SHELL) in ("file", "paths") and value not in (None, "", []):
            files += _words(key, value)
        if kind == "argv" and value not in (None, [], ""):
            if argv is not None:
                raise UnverifiableError("it carries two argument lists; the server may use either")
            argv = _words(key, value)
        elif kind == "env" and value not in (None, {}, []):
            env += _env(key, value)
        elif kind == "stdin" and value not in (None, ""):
            if not isinstance(value, str) or stdin is not None:
                raise UnverifiableError(f"its input argument {key!r} is not one string")
            stdin = value
    if argv is None and not env and stdin is None and not files:
        return []
    # exec'd as argv, or joined with blanks by a server spawning through a shell; files
    # after the arguments or before them
    lines = [command]
    if argv is not None or files:
        orders = [[*(argv or []), *files], [*files, *(argv or [])]]
        joined = [f(words) for words in orders for f in (_quoted(command), _blanked(command))]
        lines = list(dict.fromkeys(joined))
    if stdin is not None:
        lines = [_heredoc(line, stdin) for line in lines]
    if env:
        assigned = " ".join(f"{name}={shlex.quote(text)}" for name, text in env)
        # on the first command, as the shell analyses it; exported, for every command
        lines = [f"{prefix}{line}" for line in lines
                 for prefix in (f"{assigned} ", f"export {assigned}; ")]  # fmt: skip
    return lines
