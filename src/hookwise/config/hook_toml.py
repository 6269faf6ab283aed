"""``<workspace>/.agent/hook.toml``: the TurnStart/TurnEnd hooks of a workspace (seed 003).

The MVP file has two tables, both optional::

    [turn_start]
    command = "path/to/script"   # required; relative paths resolve against the workspace
    args = ["--foo", "bar"]      # optional
    run_on_hook_input = true     # turn_start only: also run for turns a HookInput started

    [turn_end]
    command = "path/to/script"
    args = ["--baz"]

and hookwise's opt-in extensions (the seed's "future" list), none of which changes the
MVP behaviour unless written down::

    [turn_start]  timeout_ms = 5000             # per hook; absent: no timeout (MVP)
    [turn_end]    stop_on_exit_code = 3         # or [3, 4]: stop the session on these codes
    [hook_input]  format = "json"               # "text" (default) or "json"
                  max_bytes = 16384             # HookInput cap (default 16 KiB)
    [loop_guard]  max_consecutive = 3           # opt-in; HookInput turns in a row (3 if absent)

Validation is strict: unknown tables and keys, a missing ``command`` and wrong types are
all reported together in one `HookTomlError`, each naming the file, the line and the key
(tomllib gives no positions, so `config.toml_spans` finds them in the text). A workspace with a
bad hook.toml gets no half-configured session: loading raises instead.
"""

from __future__ import annotations

import difflib
import math
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from hookwise.config.files import read_file_bytes
from hookwise.config.toml_spans import TomlSpans

__all__ = [
    "DEFAULT_HOOK_INPUT_MAX_BYTES",
    "DEFAULT_LOOP_GUARD",
    "HOOK_TOML",
    "HookInputFormat",
    "HookToml",
    "HookTomlError",
    "Problem",
    "TurnHookConfig",
    "TurnHookKind",
    "hook_toml_path",
    "load_hook_toml",
    "parse_hook_toml",
]

HOOK_TOML = Path(".agent") / "hook.toml"
DEFAULT_HOOK_INPUT_MAX_BYTES = 16 * 1024
"""HookInput is cut to this many UTF-8 bytes of trimmed stderr; the cut is marked."""
DEFAULT_LOOP_GUARD = 3
"""At most this many turns in a row may be started by a TurnEnd HookInput."""
MIN_HOOK_INPUT_MAX_BYTES = 64


class TurnHookKind(Enum):
    TURN_START = "turn_start"
    TURN_END = "turn_end"

    @property
    def title(self) -> str:
        """``TurnStart`` / ``TurnEnd``: the name in titles and HookInput texts."""
        return "TurnStart" if self is TurnHookKind.TURN_START else "TurnEnd"


class HookInputFormat(Enum):
    TEXT = "text"  # "HookInput (TurnEnd): <text>"
    JSON = "json"  # {"source": "TurnEnd", "text": "<text>"}


@dataclass(frozen=True)
class TurnHookConfig:
    """One of ``[turn_start]`` / ``[turn_end]``, its command already resolved."""

    kind: TurnHookKind
    command: str  # as written
    argv: tuple[str, ...]  # resolved command, then args
    run_on_hook_input: bool = True  # turn_start only
    timeout_ms: float | None = None  # None: no timeout (the MVP)
    stop_on_exit_codes: frozenset[int] = frozenset()  # turn_end only
    line: int | None = None  # of the table header


@dataclass(frozen=True)
class HookToml:
    """A valid hook.toml. Every field has the MVP default when the file does not set it."""

    path: Path
    workspace: Path
    turn_start: TurnHookConfig | None = None
    turn_end: TurnHookConfig | None = None
    hook_input_format: HookInputFormat = HookInputFormat.TEXT
    hook_input_max_bytes: int = DEFAULT_HOOK_INPUT_MAX_BYTES
    loop_guard: int = 0  # 0: no limit (the MVP); a [loop_guard] table turns it on

    def hook(self, kind: TurnHookKind) -> TurnHookConfig | None:
        return self.turn_start if kind is TurnHookKind.TURN_START else self.turn_end

    def to_json(self) -> dict[str, Any]:
        def one(config: TurnHookConfig | None) -> dict[str, Any] | None:
            if config is None:
                return None
            out: dict[str, Any] = {"command": config.command, "argv": list(config.argv)}
            if config.kind is TurnHookKind.TURN_START:
                out["run_on_hook_input"] = config.run_on_hook_input
            if config.timeout_ms is not None:
                out["timeout_ms"] = config.timeout_ms
            if config.stop_on_exit_codes:
                out["stop_on_exit_code"] = sorted(config.stop_on_exit_codes)
            return out

        return {
            "path": str(self.path),
            "turn_start": one(self.turn_start),
            "turn_end": one(self.turn_end),
            "hook_input": {
                "format": self.hook_input_format.value,
                "max_bytes": self.hook_input_max_bytes,
            },
            "loop_guard": {"max_consecutive": self.loop_guard},
        }


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the file: where, which key, what was expected."""

    line: int | None
    key: str | None
    message: str

    def render(self, path: Path | str) -> str:
        where = f"{path}:{self.line}" if self.line is not None else str(path)
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class HookTomlError(ValueError):
    """hook.toml cannot be used. ``problems`` lists every fault, in file order."""

    def __init__(self, path: Path, problems: list[Problem]) -> None:
        self.path = path
        self.problems = problems
        super().__init__("\n".join(problem.render(path) for problem in problems))


def hook_toml_path(workspace: str | os.PathLike[str]) -> Path:
    return Path(workspace) / HOOK_TOML


def load_hook_toml(workspace: str | os.PathLike[str]) -> HookToml | None:
    """The workspace's hook.toml, None when there is none; `HookTomlError` when it is bad."""
    root = Path(workspace)
    path = hook_toml_path(root)
    try:
        data = read_file_bytes(path)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise HookTomlError(path, [Problem(None, None, "is a directory, not a file")]) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise HookTomlError(path, [Problem(None, None, f"cannot read: {reason}")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problem = Problem(line, None, f"not UTF-8 (byte {exc.start}); TOML files must be UTF-8")
        raise HookTomlError(path, [problem]) from None
    return parse_hook_toml(text, path=path, workspace=root)


# --- validation ------------------------------------------------------------------------

_TABLES = ("turn_start", "turn_end", "hook_input", "loop_guard")
_HOOK_KEYS = {
    "turn_start": ("command", "args", "run_on_hook_input", "timeout_ms"),
    "turn_end": ("command", "args", "timeout_ms", "stop_on_exit_code"),
}
_KEYS: Mapping[str, tuple[str, ...]] = {
    **_HOOK_KEYS,
    "hook_input": ("format", "max_bytes"),
    "loop_guard": ("max_consecutive",),
}
_ONLY_IN = {"run_on_hook_input": "turn_start", "stop_on_exit_code": "turn_end"}
_DECODE_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")
_MAX_TIMEOUT_MS = 2**31 - 1


def _type_name(value: object) -> str:
    names = {
        bool: "a boolean",
        int: "an integer",
        float: "a float",
        str: "a string",
        list: "an array",
        dict: "a table",
    }
    for kind, name in names.items():
        if type(value) is kind:
            return name
    return f"a {type(value).__name__}"  # dates and times


def _suggest(name: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class _Checker:
    def __init__(self, text: str) -> None:
        self.lines = TomlSpans(text)
        self.problems: list[Problem] = []

    def add(self, path: tuple[str, ...], message: str) -> None:
        self.problems.append(Problem(self.lines.find(path), ".".join(path), message))

    def table(self, doc: dict[str, Any], name: str) -> dict[str, Any] | None:
        value = doc.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.add((name,), f"must be a table ([{name}]), got {_type_name(value)}")
            return None
        for key in value:
            if key in _KEYS[name]:
                continue
            owner = _ONLY_IN.get(key)
            if owner is not None and owner != name:
                self.add((name, key), f"unknown key; {key} is only valid in [{owner}]")
            else:
                allowed = ", ".join(_KEYS[name])
                hint = _suggest(key, _KEYS[name])
                self.add((name, key), f"unknown key (expected one of: {allowed}){hint}")
        return value

    def string(self, table: dict[str, Any], path: tuple[str, ...]) -> str | None:
        value = table.get(path[-1])
        if value is None:
            return None
        if not isinstance(value, str):
            self.add(path, f"must be a string, got {_type_name(value)}")
            return None
        return value

    def boolean(self, table: dict[str, Any], path: tuple[str, ...], default: bool) -> bool:
        value = table.get(path[-1], default)
        if not isinstance(value, bool):
            self.add(path, f"must be true or false, got {_type_name(value)}")
            return default
        return value

    def integer(
        self, table: dict[str, Any], path: tuple[str, ...], default: int, minimum: int, maximum: int
    ) -> int:
        value = table.get(path[-1], default)
        if type(value) is not int:
            self.add(path, f"must be an integer, got {_type_name(value)}")
            return default
        if not minimum <= value <= maximum:
            self.add(path, f"must be between {minimum} and {maximum}, got {value}")
            return default
        return value

    def hook(
        self, doc: dict[str, Any], kind: TurnHookKind, workspace: Path
    ) -> TurnHookConfig | None:
        name = kind.value
        table = self.table(doc, name)
        if table is None:
            return None
        ok = True
        command = self.string(table, (name, "command"))
        if "command" not in table:
            self.add((name,), "missing required key 'command' (the program to run)")
            ok = False
        elif command is None:
            ok = False
        elif not command.strip():
            self.add((name, "command"), "must not be empty")
            ok = False
        args: list[str] = []
        raw_args = table.get("args", [])
        if not isinstance(raw_args, list):
            self.add((name, "args"), f"must be an array of strings, got {_type_name(raw_args)}")
            ok = False
        else:
            for index, arg in enumerate(raw_args):
                if not isinstance(arg, str):
                    self.add(
                        (name, "args"), f"item {index} must be a string, got {_type_name(arg)}"
                    )
                    ok = False
                else:
                    args.append(arg)
        run_on_hook_input = True
        if kind is TurnHookKind.TURN_START:
            run_on_hook_input = self.boolean(table, (name, "run_on_hook_input"), True)
        timeout_ms: float | None = None
        if "timeout_ms" in table:
            raw = table["timeout_ms"]
            if type(raw) not in (int, float):
                self.add((name, "timeout_ms"), f"must be a number, got {_type_name(raw)}")
            elif not (math.isfinite(raw) and 0 < raw <= _MAX_TIMEOUT_MS):
                self.add(
                    (name, "timeout_ms"),
                    f"must be a number of milliseconds above 0 and at most {_MAX_TIMEOUT_MS},"
                    f" got {raw}",
                )
            else:
                timeout_ms = float(raw)
        stop_codes: set[int] = set()
        if kind is TurnHookKind.TURN_END and "stop_on_exit_code" in table:
            raw_codes = table["stop_on_exit_code"]
            codes = raw_codes if isinstance(raw_codes, list) else [raw_codes]
            for code in codes:
                if type(code) is not int or not 0 <= code <= 255:
                    got = code if type(code) is int else _type_name(code)
                    self.add(
                        (name, "stop_on_exit_code"),
                        f"must be an exit code (0-255) or an array of them, got {got}",
                    )
                    break
                stop_codes.add(code)
        if not ok or command is None:
            return None
        return TurnHookConfig(
            kind=kind,
            command=command,
            argv=(resolve_command(command, workspace), *args),
            run_on_hook_input=run_on_hook_input,
            timeout_ms=timeout_ms,
            stop_on_exit_codes=frozenset(stop_codes),
            line=self.lines.find((name,)),
        )


def resolve_command(command: str, workspace: Path) -> str:
    """A command with a path separator resolves against the workspace (as a child whose
    cwd is the workspace would see it); a bare name is looked up in PATH at run time."""
    if os.sep not in command and (os.altsep is None or os.altsep not in command):
        return command
    expanded = Path(command)
    if expanded.is_absolute():
        return command
    return str(workspace / expanded)


def parse_hook_toml(text: str, *, path: Path, workspace: Path) -> HookToml:
    """Validate hook.toml's text; `HookTomlError` lists every problem with its line."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _DECODE_POSITION.search(message)
        line = int(match.group(1)) if match else None
        if line is None and "end of document" in message:
            line = text.count("\n") + 1
        message = _DECODE_POSITION.sub("", message).strip()
        column = f" (column {match.group(2)})" if match else ""
        problem = Problem(line, None, f"invalid TOML: {message}{column}")
        raise HookTomlError(path, [problem]) from None
    checker = _Checker(text)
    for key in doc:
        if key not in _TABLES:
            hint = _suggest(key, _TABLES)
            checker.add((key,), f"unknown table (expected: {', '.join(_TABLES)}){hint}")
    turn_start = checker.hook(doc, TurnHookKind.TURN_START, workspace)
    turn_end = checker.hook(doc, TurnHookKind.TURN_END, workspace)
    hook_input_format = HookInputFormat.TEXT
    max_bytes = DEFAULT_HOOK_INPUT_MAX_BYTES
    hook_input = checker.table(doc, "hook_input")
    if hook_input is not None:
        fmt = checker.string(hook_input, ("hook_input", "format"))
        if fmt is not None:
            try:
                hook_input_format = HookInputFormat(fmt)
            except ValueError:
                checker.add(("hook_input", "format"), f'must be "text" or "json", got {fmt!r}')
        max_bytes = checker.integer(
            hook_input,
            ("hook_input", "max_bytes"),
            DEFAULT_HOOK_INPUT_MAX_BYTES,
            MIN_HOOK_INPUT_MAX_BYTES,
            1 << 30,
        )
    loop_guard = 0  # opt-in, like every extra beyond the MVP
    guard = checker.table(doc, "loop_guard")
    if guard is not None:
        loop_guard = checker.integer(
            guard, ("loop_guard", "max_consecutive"), DEFAULT_LOOP_GUARD, 0, 1_000_000
        )
    if checker.problems:
        checker.problems.sort(key=lambda p: (p.line is None, p.line or 0))
        raise HookTomlError(path, checker.problems)
    return HookToml(
        path=path,
        workspace=workspace,
        turn_start=turn_start,
        turn_end=turn_end,
        hook_input_format=hook_input_format,
        hook_input_max_bytes=max_bytes,
        loop_guard=loop_guard,
    )
