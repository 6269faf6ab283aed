"""What the Claude Code and Codex loaders share: reading files, walking ``hooks``, registering.

Both hosts use the same shape (event -> matcher groups -> handlers). Each loader walks it
with its own checks (``clean_hooks``); anything invalid is left out with a warning that names
the file and the JSON path (``file#/hooks/PreToolUse/0/hooks/1``), and the rest still loads.
The cleaned object is then registered with ``build_registry(dialect=...)``; the entries keep
the path of the handler as it was written, not its index in the cleaned copy.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from hookwise.config.files import read_file_bytes
from hookwise.config.jsonc import parse_json_text
from hookwise.config.registry import HooksObject, Registry, build_registry
from hookwise.protocol.dialect import DialectSpec
from hookwise.protocol.hosts import HOST_TITLES
from hookwise.protocol.jsvalue import JSON

__all__ = [
    "CleanHooks",
    "DialectHooks",
    "HandlerCheck",
    "MatcherCheck",
    "clean_hooks",
    "hook_path",
    "json_type",
    "read_json_file",
    "read_text_file",
    "register",
    "same_path",
]


@dataclass
class DialectHooks:
    """What a host needs from one dialect's configuration: the registry and the warnings."""

    dialect: str  # "claude" | "codex"
    registry: Registry
    warnings: list[str] = field(default_factory=list)
    """Every problem met while loading, registry warnings included, in the order met."""
    env: dict[str, str] = field(default_factory=dict)
    """Variables every hook of this dialect gets (``CLAUDE_PROJECT_DIR``)."""
    files: list[Path] = field(default_factory=list)
    """The configuration files that exist and were read."""
    skipped: list[HooksObject] = field(default_factory=list)
    """Hooks that were read but not registered (disabled, blocked, untrusted), for listings."""
    untrusted: list[str] = field(default_factory=list)
    """Hooks left out because the user has not trusted the project or them, one line each."""
    enabled: bool = True
    """False when a switch turned every hook off (``[features] hooks = false``...)."""


# --------------------------------------------------------------------------- files


def read_text_file(path: Path, what: str, warnings: list[str]) -> str | None:
    """A file's text (UTF-8, bad bytes replaced); None when it is absent or unreadable."""
    try:
        data = read_file_bytes(path)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        warnings.append(f"{path}: is a directory, not a {what} file; ignored")
        return None
    except OSError as exc:
        warnings.append(f"{path}: cannot read {what}: {exc.strerror or exc}; ignored")
        return None
    return data.decode("utf-8", errors="replace")


def read_json_file(
    path: Path, what: str, warnings: list[str]
) -> tuple[bool, dict[str, JSON] | None]:
    """(exists, object): a JSON file that must hold an object; problems become warnings."""
    text = read_text_file(path, what, warnings)
    if text is None:
        return path.exists(), None
    value, problem = parse_json_text(text)
    if problem is not None:
        warnings.append(problem.describe(str(path)) + f"; {what} ignored")
        return True, None
    if not isinstance(value, dict):
        warnings.append(f"{path}: a {what} file must hold a JSON object, got {json_type(value)}")
        return True, None
    return True, value


def json_type(value: JSON) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def same_path(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


# --------------------------------------------------------------------------- the walk


def hook_path(where: str, event: str, group: int, handler: int | None = None) -> str:
    """``file#/hooks/Event/0`` or ``file#/hooks/Event/0/hooks/1``, as the registry writes it."""
    path = f"{where}#/hooks/{event}/{group}"
    return path if handler is None else f"{path}/hooks/{handler}"


HandlerCheck = Callable[[str, dict[str, JSON], str, list[str]], dict[str, JSON] | None]
"""(event, handler, path, warnings) -> the handler to register, or None to leave it out."""

MatcherCheck = Callable[[str, JSON, str, list[str]], tuple[bool, JSON]]
"""(event, matcher, path of the group, warnings) -> (keep the group, the matcher to use)."""


@dataclass
class CleanHooks:
    """A ``hooks`` object with only what will be registered, and where each handler was."""

    hooks: dict[str, JSON] = field(default_factory=dict)
    """event -> [{"matcher"?: ..., "hooks": [handler, ...]}, ...]"""
    origins: dict[int, str] = field(default_factory=dict)
    """id(handler) -> its path in the file."""
    positions: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    """id(handler) -> (event, group index, handler index) in the file."""

    def handlers(self) -> Iterable[tuple[str, dict[str, JSON], dict[str, JSON]]]:
        """(event, group, handler) for every kept handler, in file order."""
        for event, groups in self.hooks.items():
            assert isinstance(groups, list)
            for group in groups:
                for handler in group["hooks"]:
                    yield event, group, handler

    def remove(self, handler: dict[str, JSON]) -> None:
        for groups in self.hooks.values():
            assert isinstance(groups, list)
            for group in groups:
                group["hooks"] = [h for h in group["hooks"] if h is not handler]

    @property
    def count(self) -> int:
        return sum(1 for _ in self.handlers())


def clean_hooks(
    hooks: JSON,
    where: str,
    spec: DialectSpec,
    *,
    check_handler: HandlerCheck,
    check_matcher: MatcherCheck,
    warnings: list[str],
    unsupported_events: Collection[str] = (),
    unknown_event_note: str = "",
) -> CleanHooks:
    """Walk a ``hooks`` object; keep what is valid for ``spec``, warn about the rest.

    ``unsupported_events`` are real events of the host that hookwise does not run (they get
    a clearer message than a typo). Never raises, whatever ``hooks`` holds.
    """
    clean = CleanHooks()
    host = HOST_TITLES.get(spec.name, spec.name)
    if hooks is None:
        return clean
    if not isinstance(hooks, dict):
        warnings.append(f"{where}#/hooks: must be an object, got {json_type(hooks)}; ignored")
        return clean
    for event, definitions in hooks.items():
        if event not in spec.events:
            if event in unsupported_events:
                warnings.append(
                    f"{where}#/hooks/{event}: hookwise does not run {host} {event} hooks "
                    "yet; skipped"
                )
            else:
                warnings.append(
                    f'{where}#/hooks/{event}: unknown {host} hook event "{event}"'
                    f"{unknown_event_note}; skipped (expected one of: {', '.join(spec.events)})"
                )
            continue
        if not isinstance(definitions, list):
            warnings.append(
                f"{where}#/hooks/{event}: must be an array of matcher groups, got "
                f"{json_type(definitions)}; skipped"
            )
            continue
        groups: list[JSON] = []
        for g, definition in enumerate(definitions):
            path = hook_path(where, event, g)
            if not isinstance(definition, dict):
                warnings.append(f"{path}: a matcher group must be an object; skipped")
                continue
            handlers = definition.get("hooks")
            if not isinstance(handlers, list):
                warnings.append(f"{path}: a matcher group needs a 'hooks' array; skipped")
                continue
            keep, matcher = check_matcher(event, definition.get("matcher"), path, warnings)
            if not keep:
                continue
            kept: list[JSON] = []
            for h, handler in enumerate(handlers):
                handler_path = hook_path(where, event, g, h)
                if not isinstance(handler, dict):
                    warnings.append(
                        f"{handler_path}: a hook must be an object, got {json_type(handler)}; "
                        "skipped"
                    )
                    continue
                checked = check_handler(event, handler, handler_path, warnings)
                if checked is None:
                    continue
                clean.origins[id(checked)] = handler_path
                clean.positions[id(checked)] = (event, g, h)
                kept.append(checked)
            group: dict[str, JSON] = {"hooks": kept}
            if matcher is not None:
                group = {"matcher": matcher, **group}
            groups.append(group)
        clean.hooks[event] = groups
    return clean


def register(
    objects: Iterable[tuple[HooksObject, CleanHooks]], spec: DialectSpec
) -> tuple[Registry, list[HooksObject]]:
    """``build_registry(dialect=spec)`` over cleaned objects; entries keep the written paths."""
    pairs = list(objects)
    registered = [obj for obj, clean in pairs if clean.count]
    registry = build_registry(registered, dialect=spec)
    origins: dict[int, str] = {}
    for _, clean in pairs:
        origins.update(clean.origins)
    for entry in registry.entries:
        origin = origins.get(id(entry.config))
        if origin is not None:
            entry.origin = origin
    return registry, registered
