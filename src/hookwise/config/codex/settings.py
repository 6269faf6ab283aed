"""Codex's hooks: ``hooks.json`` and ``[hooks]`` in ``config.toml`` of every config layer.

Layers, in the order Codex registers them (each location can be overridden):

* **managed**: ``[hooks]`` of ``<managed_dir>/requirements.toml`` (``managed_dir`` is
  ``/etc/codex``), and the system layer ``<managed_dir>/config.toml`` + ``hooks.json``.
  Managed hooks need no trust. Source ``system``.
* **user**: ``$CODEX_HOME/hooks.json`` and ``$CODEX_HOME/config.toml`` (``~/.codex``).
  Source ``user``.
* **project**: ``<dir>/.codex/hooks.json`` and ``config.toml`` for every directory from the
  project root (the nearest ancestor holding ``.git``, else the project directory) down to
  the project directory. A project layer loads only when it is trusted: ``[projects."<dir>"]
  trust_level = "trusted"`` in the user ``config.toml`` for that directory, or else for the
  project root (checked against Codex 0.169: an ancestor's trust does not count, and an
  explicit ``untrusted`` wins). ``trust_project`` overrides. Source ``project``.

Within a layer ``hooks.json`` comes first; when both forms define hooks they are merged and
a warning says so, as Codex does. ``[features] hooks = false`` turns every hook off
(``codex_hooks`` is the deprecated alias; ``hooks`` wins when both are set).

Every non-managed hook must be trusted: its definition is hashed (``codex_hook_hash``, the
same ``sha256:`` identity Codex computes: event, matcher, command, timeout, async,
statusMessage) and compared with ``[hooks.state."<key>"] trusted_hash`` in the user
``config.toml`` (what Codex's ``/hooks`` writes) or with hookwise's own store
``$CODEX_HOME/hookwise_trusted_hooks.json`` (``trust_codex_hooks``). Untrusted or modified
hooks are skipped with a warning (``codex exec`` skips them silently);
``bypass_hook_trust=True`` is ``--dangerously-bypass-hook-trust``. ``enabled = false`` in the
hook's state turns it off.

``command`` and ``mcp_tool`` handlers run (an ``mcp_tool`` handler needs non-empty ``server``
and ``tool`` and an ``input`` object; its servers: ``config/codex/mcp.py``); ``prompt`` and
``agent`` handlers are parsed and skipped with a warning. ``async: true`` command handlers
are registered with ``async`` kept in their config: Codex 0.169 starts them in the background,
never reads their answer and ends them with the session (recorded:
tests/e2e/fixtures/codex-handlers), which the runtime does (``host/detached.py``).
``timeout`` is whole seconds (default 600, at least 1); the loader stores the value Codex
uses. The legacy ``notify = [argv...]`` program of the effective config is exposed as
``CodexHooks.notify``.

Nothing raises for a bad file: TOML and JSON errors name the file and the line, wrong types
name the path, and every other layer still loads. (Where Codex rejects a whole file for one
wrong type, hookwise leaves out only the part that is wrong.)
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from hookwise.config.atomic import write_text_atomic
from hookwise.config.dialect_hooks import (
    CleanHooks,
    DialectHooks,
    clean_hooks,
    json_type,
    read_json_file,
    read_text_file,
    register,
    same_path,
)
from hookwise.config.jsonc import parse_json_text
from hookwise.config.model import Source
from hookwise.config.registry import HooksObject, Registry
from hookwise.protocol.codex import CODEX
from hookwise.protocol.jsvalue import JSON

__all__ = [
    "CODEX_DIR",
    "DEFAULT_TIMEOUT_S",
    "TRUST_STORE",
    "CodexHook",
    "CodexHooks",
    "CodexLayer",
    "CodexPaths",
    "codex_hook_hash",
    "event_label",
    "load_codex_hooks",
    "parse_codex_config_text",
    "parse_codex_hooks_json_text",
    "rust_regex_problem",
    "trust_codex_hooks",
]

CODEX_DIR: Final = ".codex"
TRUST_STORE: Final = "hookwise_trusted_hooks.json"
DEFAULT_TIMEOUT_S: Final = 600
PROJECT_ROOT_MARKERS: Final = (".git",)

_TOML_POSITION: Final = re.compile(r"\s*\(at line (\d+), column (\d+)\)")
_REQUIREMENTS_HOOK_KEYS: Final = ("managed_dir", "windows_managed_dir")


def event_label(event: str) -> str:
    """The event as it appears in hook keys and hashes: ``PreToolUse`` -> ``pre_tool_use``."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", event).lower()


# --------------------------------------------------------------------------- paths


@dataclass(frozen=True)
class CodexPaths:
    project: Path
    codex_home: Path
    managed_dir: Path

    @classmethod
    def from_environment(
        cls,
        project_dir: str | os.PathLike[str] | None = None,
        *,
        home: str | os.PathLike[str] | None = None,
        codex_home: str | os.PathLike[str] | None = None,
        managed_dir: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> CodexPaths:
        """Codex's defaults: ``$CODEX_HOME`` or ``~/.codex``; an explicit ``home`` wins."""
        environ = os.environ if env is None else env
        project = Path(os.path.abspath(project_dir or os.getcwd()))
        if codex_home is not None:
            code_home = Path(os.path.abspath(codex_home))
        elif home is not None:
            code_home = Path(os.path.abspath(home)) / CODEX_DIR
        elif environ.get("CODEX_HOME"):
            code_home = Path(os.path.abspath(environ["CODEX_HOME"]))
        else:
            code_home = Path(os.path.expanduser("~")) / CODEX_DIR
        managed = Path(managed_dir) if managed_dir is not None else Path("/etc/codex")
        return cls(project, code_home, managed)

    @property
    def user_config(self) -> Path:
        return self.codex_home / "config.toml"

    @property
    def requirements(self) -> Path:
        return self.managed_dir / "requirements.toml"

    @property
    def trust_store(self) -> Path:
        return self.codex_home / TRUST_STORE

    def project_root(self) -> Path:
        """The nearest ancestor (or the project itself) holding ``.git``."""
        current = self.project
        while True:
            if any((current / marker).exists() for marker in PROJECT_ROOT_MARKERS):
                return current
            if current.parent == current:
                return self.project
            current = current.parent


# --------------------------------------------------------------------------- parsing


def _json_safe(value: Any) -> JSON:
    """TOML values as JSON: dates and times become their ISO text."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    if isinstance(value, _dt.date | _dt.time):
        return value.isoformat()
    return value


def parse_codex_config_text(text: str, origin: str) -> tuple[dict[str, JSON] | None, list[str]]:
    """A config.toml (or requirements.toml): the table, or None and why. Never raises."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_POSITION.search(message)
        where = f"{origin}:{match.group(1)}:{match.group(2)}" if match else origin
        detail = _TOML_POSITION.sub("", message).strip()
        return None, [f"{where}: invalid TOML: {detail}; the file is ignored"]
    except (RecursionError, ValueError) as exc:  # pathological nesting
        return None, [f"{origin}: invalid TOML: {exc}; the file is ignored"]
    safe = _json_safe(document)
    assert isinstance(safe, dict)
    return safe, []


def parse_codex_hooks_json_text(text: str, origin: str) -> tuple[JSON, list[str]]:
    """A hooks.json: its ``hooks`` value (None when absent or unusable) and the problems."""
    value, problem = parse_json_text(text)
    if problem is not None:
        return None, [problem.describe(origin) + "; the file is ignored"]
    if not isinstance(value, dict):
        return None, [f"{origin}: hooks.json must hold a JSON object, got {json_type(value)}"]
    hooks = value.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        return None, [f"{origin}#/hooks: must be an object, got {json_type(hooks)}; ignored"]
    return hooks, []


def rust_regex_problem(pattern: str) -> str | None:
    """Why Codex's regex crate refuses a matcher, as far as Python can tell; None if fine."""
    if re.search(r"\(\?<?[=!]", pattern):
        return "look-around is not supported"
    if re.search(r"(?<!\\)\\[1-9]", pattern):
        return "backreferences are not supported"
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError) as exc:
        return str(exc)
    return None


def _timeout(value: JSON) -> int | None:
    """Codex's ``timeout`` (u64 seconds), or None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return None


def _check_handler(
    event: str, handler: dict[str, JSON], path: str, warnings: list[str]
) -> dict[str, JSON] | None:
    kind = handler.get("type")
    if kind in ("prompt", "agent"):
        warnings.append(
            f"{path}: skipping {kind} hook: Codex parses {kind} hooks but does not run them"
        )
        return None
    if kind == "mcp_tool":
        return _check_mcp_handler(handler, path, warnings)
    if kind != "command":
        shown = json.dumps(kind) if kind is not None else "nothing"
        warnings.append(f'{path}/type: must be "command" or "mcp_tool" (got {shown}); skipped')
        return None
    command = handler.get("command")
    if not isinstance(command, str):
        warnings.append(f"{path}/command: must be a string; skipped")
        return None
    if not command.strip():
        warnings.append(f"{path}: skipping empty hook command")
        return None
    problems: list[str] = []
    raw_timeout = handler.get("timeout")
    timeout = _timeout(raw_timeout)
    if raw_timeout is not None and timeout is None:
        problems.append(
            f"'timeout' must be a whole number of seconds (got {json.dumps(raw_timeout)})"
        )
    if "async" in handler and not isinstance(handler["async"], bool):
        problems.append("'async' must be true or false")
    for key in ("statusMessage", "commandWindows", "command_windows"):
        if handler.get(key) is not None and not isinstance(handler[key], str):
            problems.append(f"'{key}' must be a string")
    if problems:
        warnings.append(f"{path}: {'; '.join(problems)}; skipped")
        return None
    out = dict(handler)
    if timeout is not None:
        out["timeout"] = max(1, timeout)
    return out


def _has_null(value: JSON) -> bool:
    if value is None:
        return True
    if isinstance(value, list):
        return any(_has_null(v) for v in value)
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    return False


def _check_mcp_handler(
    handler: dict[str, JSON], path: str, warnings: list[str]
) -> dict[str, JSON] | None:
    """An ``mcp_tool`` handler as Codex 0.169 loads it: ``server`` and ``tool`` non-empty,
    ``input`` an object TOML can hold (no null), whole-second ``timeout``."""
    server, tool = handler.get("server"), handler.get("tool")
    if not isinstance(server, str) or not isinstance(tool, str):
        warnings.append(f"{path}: 'server' and 'tool' must be strings; skipped")
        return None
    if not server.strip() or not tool.strip():
        warnings.append(f"{path}: skipping MCP tool hook: server and tool must not be empty")
        return None
    problems: list[str] = []
    tool_input = handler.get("input", {})
    if not isinstance(tool_input, dict):
        problems.append(f"'input' must be an object (got {json_type(tool_input)})")
    elif _has_null(tool_input):
        problems.append("'input' must be representable as TOML (no null values)")
    raw_timeout = handler.get("timeout")
    timeout = _timeout(raw_timeout)
    if raw_timeout is not None and timeout is None:
        problems.append(
            f"'timeout' must be a whole number of seconds (got {json.dumps(raw_timeout)})"
        )
    if handler.get("statusMessage") is not None and not isinstance(handler["statusMessage"], str):
        problems.append("'statusMessage' must be a string")
    if problems:
        warnings.append(f"{path}: {'; '.join(problems)}; skipped")
        return None
    out = dict(handler)
    out["input"] = tool_input
    if timeout is not None:
        out["timeout"] = max(1, timeout)
    return out


def _check_matcher(event: str, matcher: JSON, path: str, warnings: list[str]) -> tuple[bool, JSON]:
    if matcher is None:
        return True, None
    if not isinstance(matcher, str):
        warnings.append(
            f"{path}/matcher: must be a string, got {json_type(matcher)}; group skipped"
        )
        return False, None
    if CODEX.events[event].matcher_field is None:
        if matcher.strip() not in ("", "*"):
            warnings.append(
                f"{path}/matcher: Codex ignores matchers for {event}: this hook runs for every "
                f"{event}"
            )
        return True, None
    if matcher in ("", "*"):
        return True, matcher
    problem = rust_regex_problem(matcher)
    if problem is not None:
        warnings.append(
            f"{path}/matcher: invalid matcher {matcher!r} ({problem}); group skipped, as Codex does"
        )
        return False, None
    return True, matcher


def _clean(hooks: JSON, where: str, warnings: list[str]) -> CleanHooks:
    return clean_hooks(
        hooks,
        where,
        CODEX,
        check_handler=_check_handler,
        check_matcher=_check_matcher,
        warnings=warnings,
        unknown_event_note=" (Codex ignores it)",
    )


_NUMBER_KEY: Final = "$serde_json::private::Number"


def _precise_numbers(value: JSON) -> JSON:
    """Numbers as Codex's hash sees them: ``{"$serde_json::private::Number": "<text>"}``
    (the text Python writes for the value: ``1e3`` in the file hashes as ``1000.0`` here)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return {_NUMBER_KEY: repr(value)}
    if isinstance(value, list):
        return [_precise_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: _precise_numbers(v) for k, v in value.items()}
    return value


def codex_hook_hash(event: str, matcher: JSON, handler: Mapping[str, JSON]) -> str:
    """The ``sha256:`` trust identity Codex gives a command hook (``currentHash``).

    A canonical (sorted-key, compact) JSON of the event label, the matcher and the
    normalized handler; checked against Codex 0.169's ``hooks/list``.
    """
    timeout = _timeout(handler.get("timeout"))
    seconds = DEFAULT_TIMEOUT_S if timeout is None else max(1, timeout)
    hook: dict[str, JSON]
    if handler.get("type") == "mcp_tool":
        # the same normalized identity for an mcp_tool handler (checked against Codex
        # 0.169's hooks/list); Codex's JSON numbers keep their text (serde_json's
        # arbitrary_precision), which reaches the hash as a one-key object
        hook = {
            "type": "mcp_tool",
            "server": handler.get("server"),
            "tool": handler.get("tool"),
            "input": _precise_numbers(handler.get("input", {})),
            "timeout": seconds,
        }
    else:
        hook = {
            "type": "command",
            "command": handler.get("command"),
            "timeout": seconds,
            "async": handler.get("async") is True,
        }
    if handler.get("statusMessage") is not None:
        hook["statusMessage"] = handler.get("statusMessage")
    identity: dict[str, JSON] = {"event_name": event_label(event), "hooks": [hook]}
    if matcher is not None:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()
    return f"sha256:{digest}"


# --------------------------------------------------------------------------- layers


@dataclass
class CodexLayer:
    """One config layer: where its files are, and whether it counts."""

    name: str  # "managed" | "system" | "user" | "project"
    folder: Path
    source: Source
    managed: bool
    trusted: bool = True
    config: dict[str, JSON] | None = None
    config_path: Path | None = None

    @property
    def hooks_json(self) -> Path | None:
        return None if self.name == "managed" else self.folder / "hooks.json"


@dataclass(frozen=True)
class CodexHook:
    """A discovered command hook and its trust, registered or not."""

    key: str
    event: str
    matcher: str | None
    command: str
    timeout_s: int
    is_async: bool
    status_message: str | None
    source_path: Path
    source: Source
    scope: str
    origin: str
    managed: bool
    enabled: bool
    current_hash: str
    trusted_hash: str | None
    trust: str  # "managed" | "trusted" | "modified" | "untrusted"
    runs: bool


@dataclass
class CodexHooks(DialectHooks):
    hooks: list[CodexHook] = field(default_factory=list)
    """Every command hook discovered in the loaded layers, with its trust status."""
    notify: tuple[str, ...] | None = None
    """The legacy turn-complete program (``notify = [...]``); the payload is its last argv."""
    notify_origin: str | None = None
    project_root: Path | None = None
    layers: list[CodexLayer] = field(default_factory=list)
    managed_only: bool = False
    hooks_switch: str | None = None
    """Where ``[features] hooks``/``codex_hooks`` was last set, if anywhere."""


def _read_config(path: Path, warnings: list[str]) -> tuple[bool, dict[str, JSON] | None]:
    text = read_text_file(path, "Codex config", warnings)
    if text is None:
        return path.exists(), None
    config, problems = parse_codex_config_text(text, str(path))
    warnings.extend(problems)
    return True, config


def _trust_level(projects: JSON, directory: Path) -> str | None:
    if not isinstance(projects, dict):
        return None
    for key, entry in projects.items():
        if same_path(key, directory) and isinstance(entry, dict):
            level = entry.get("trust_level")
            return level if isinstance(level, str) else None
    return None


def project_trust_level(projects: JSON, directory: Path, root: Path) -> str | None:
    """The ``trust_level`` Codex applies to ``directory``'s layer, given the user config's
    ``projects`` table: the directory's own entry, else the project root's."""
    level = _trust_level(projects, directory)
    if level is None and directory != root:
        level = _trust_level(projects, root)
    return level


def _layers(
    paths: CodexPaths,
    user_config: dict[str, JSON] | None,
    trust_project: bool | None,
    files: list[Path],
    warnings: list[str],
) -> list[CodexLayer]:
    layers: list[CodexLayer] = []
    exists, system = _read_config(paths.managed_dir / "config.toml", warnings)
    if exists:
        files.append(paths.managed_dir / "config.toml")
    layers.append(
        CodexLayer(
            "system",
            paths.managed_dir,
            Source.SYSTEM,
            True,
            config=system,
            config_path=paths.managed_dir / "config.toml",
        )
    )
    layers.append(
        CodexLayer(
            "user",
            paths.codex_home,
            Source.USER,
            False,
            config=user_config,
            config_path=paths.user_config,
        )
    )
    root = paths.project_root()
    projects = user_config.get("projects") if user_config is not None else None
    chain = [paths.project, *paths.project.parents]
    directories = list(reversed(chain[: chain.index(root) + 1])) if root in chain else [root]
    for directory in directories:
        folder = directory / CODEX_DIR
        if not folder.is_dir() or same_path(folder, paths.codex_home):
            continue
        level = project_trust_level(projects, directory, root)
        trusted = trust_project if trust_project is not None else level == "trusted"
        layer = CodexLayer("project", folder, Source.PROJECT, False, trusted=trusted)
        layer.config_path = folder / "config.toml"
        if not trusted:
            if (folder / "hooks.json").exists() or layer.config_path.exists():
                shown = f'"{level}"' if level is not None else "not set"
                warnings.append(
                    f"{folder}: project config not loaded: {directory} is not a trusted Codex "
                    f'project (trust_level {shown}; add [projects."{directory}"] '
                    f'trust_level = "trusted" to {paths.user_config}); Codex ignores it too'
                )
            layers.append(layer)
            continue
        exists, layer.config = _read_config(layer.config_path, warnings)
        if exists:
            files.append(layer.config_path)
        layers.append(layer)
    return layers


def _toml_hooks(config: dict[str, JSON] | None, origin: Path, warnings: list[str]) -> JSON:
    if config is None or "hooks" not in config:
        return None
    hooks = config["hooks"]
    if not isinstance(hooks, dict):
        warnings.append(f"{origin}#/hooks: [hooks] must be a table, got {json_type(hooks)}")
        return None
    return {k: v for k, v in hooks.items() if k != "state"}


def _last_setting(layers: Iterable[CodexLayer], *keys: str) -> tuple[JSON, CodexLayer | None]:
    """The value the effective (merged) config has at ``keys``, and the layer that set it."""
    value: JSON = None
    found: CodexLayer | None = None
    for layer in layers:
        current: JSON = layer.config
        for key in keys:
            current = current.get(key) if isinstance(current, dict) else None
        if current is not None:
            value, found = current, layer
    return value, found


def _hooks_switch(layers: list[CodexLayer], warnings: list[str]) -> tuple[bool, str | None]:
    """``[features] hooks`` (or the deprecated ``codex_hooks``): are hooks on, and who said so."""
    counted = [layer for layer in layers if layer.trusted]
    value, layer = _last_setting(counted, "features", "hooks")
    alias, alias_layer = _last_setting(counted, "features", "codex_hooks")
    if alias_layer is not None:
        warnings.append(
            f"{alias_layer.config_path}#/features/codex_hooks: deprecated; use [features] hooks"
        )
    for setting, where, key in ((value, layer, "hooks"), (alias, alias_layer, "codex_hooks")):
        if where is not None and not isinstance(setting, bool):
            warnings.append(f"{where.config_path}#/features/{key}: must be true or false; ignored")
    if isinstance(value, bool) and layer is not None:
        return value, f"{layer.config_path}#/features/hooks"
    if isinstance(alias, bool) and alias_layer is not None:
        return alias, f"{alias_layer.config_path}#/features/codex_hooks"
    return True, None


def _notify(
    layers: list[CodexLayer], warnings: list[str]
) -> tuple[tuple[str, ...] | None, str | None]:
    value, layer = _last_setting((item for item in layers if item.trusted), "notify")
    if layer is None:
        return None, None
    origin = f"{layer.config_path}#/notify"
    if not isinstance(value, list) or not all(isinstance(arg, str) for arg in value):
        warnings.append(f"{origin}: must be an array of strings (program, args...); ignored")
        return None, None
    if not value:
        return None, origin
    return tuple(value), origin


# --------------------------------------------------------------------------- trust


@dataclass
class _TrustState:
    enabled: dict[str, bool] = field(default_factory=dict)
    codex: dict[str, str] = field(default_factory=dict)
    hookwise: dict[str, str] = field(default_factory=dict)


def _trust_state(
    user_config: dict[str, JSON] | None, store: Path, warnings: list[str]
) -> _TrustState:
    state = _TrustState()
    hooks = user_config.get("hooks") if user_config is not None else None
    table = hooks.get("state") if isinstance(hooks, dict) else None
    if isinstance(table, dict):
        for key, entry in table.items():
            if not isinstance(entry, dict) or not key.strip():
                continue
            enabled = entry.get("enabled")
            trusted_hash = entry.get("trusted_hash")
            if isinstance(enabled, bool):
                state.enabled[key.strip()] = enabled
            if isinstance(trusted_hash, str):
                state.codex[key.strip()] = trusted_hash
    if store.exists():
        _, value = read_json_file(store, "hookwise hook trust", warnings)
        trusted = value.get("trusted") if value is not None else None
        if isinstance(trusted, dict):
            state.hookwise = {k: v for k, v in trusted.items() if isinstance(v, str)}
    return state


def trust_codex_hooks(hooks: Iterable[CodexHook], *, codex_home: str | os.PathLike[str]) -> int:
    """Record the current hash of each non-managed hook in hookwise's own trust store.

    Returns how many entries were added or changed. Codex itself keeps its approvals in
    ``[hooks.state]`` of config.toml; hookwise reads both and writes only its own file.
    Raises ValueError when the store exists but cannot be read (it is left as it is).
    """
    store = Path(codex_home) / TRUST_STORE
    warnings: list[str] = []
    value: dict[str, JSON] | None = None
    if store.exists():
        _, value = read_json_file(store, "hookwise hook trust", warnings)
        if value is None:
            raise ValueError("; ".join(warnings))
    current = value.get("trusted") if value is not None else None
    trusted: dict[str, JSON] = dict(current) if isinstance(current, dict) else {}
    changed = 0
    for hook in hooks:
        if hook.managed or trusted.get(hook.key) == hook.current_hash:
            continue
        trusted[hook.key] = hook.current_hash
        changed += 1
    if changed:
        store.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"version": 1, "trusted": trusted}, indent=2, ensure_ascii=False)
        write_text_atomic(store, text + "\n")
    return changed


# --------------------------------------------------------------------------- loading


def _layer_hooks(
    layer: CodexLayer,
    requirements: dict[str, JSON] | None,
    requirements_path: Path,
    files: list[Path],
    warnings: list[str],
) -> list[tuple[Path, CleanHooks]]:
    """The cleaned hooks of one layer's files, hooks.json first."""
    found: list[tuple[Path, CleanHooks]] = []
    if layer.name == "managed":
        hooks = _toml_hooks(requirements, requirements_path, warnings)
        if isinstance(hooks, dict):
            managed_dir = hooks.get("managed_dir")
            hooks = {k: v for k, v in hooks.items() if k not in _REQUIREMENTS_HOOK_KEYS}
            key_path = (
                Path(managed_dir)
                if isinstance(managed_dir, str) and os.path.isabs(managed_dir)
                else requirements_path
            )
            found.append((key_path, _clean(hooks, str(key_path), warnings)))
        return found
    json_path = layer.hooks_json
    if json_path is not None:
        text = read_text_file(json_path, "Codex hooks", warnings)
        if text is not None:
            files.append(json_path)
            hooks, problems = parse_codex_hooks_json_text(text, str(json_path))
            warnings.extend(problems)
            found.append((json_path, _clean(hooks, str(json_path), warnings)))
    if layer.config_path is not None:
        toml_hooks = _toml_hooks(layer.config, layer.config_path, warnings)
        if toml_hooks is not None:
            found.append((layer.config_path, _clean(toml_hooks, str(layer.config_path), warnings)))
    with_hooks = [path for path, clean in found if clean.hooks]
    if len(with_hooks) == 2:
        warnings.append(
            f"loading hooks from both {with_hooks[0]} and {with_hooks[1]}; prefer a single "
            "representation for this layer"
        )
    return found


def _judge(
    layer: CodexLayer,
    source_path: Path,
    clean: CleanHooks,
    *,
    state: _TrustState,
    bypass_hook_trust: bool,
    user_config_path: Path,
    warnings: list[str],
) -> list[CodexHook]:
    """Decide, hook by hook, what runs; remove the rest from ``clean``."""
    found: list[CodexHook] = []
    for event, group, handler in list(clean.handlers()):
        _, g, h = clean.positions[id(handler)]
        origin = clean.origins[id(handler)]
        key = f"{source_path}:{event_label(event)}:{g}:{h}"
        matcher = group.get("matcher")
        current = codex_hook_hash(event, matcher, handler)
        enabled = layer.managed or state.enabled.get(key) is not False
        stored = [s for s in (state.codex.get(key), state.hookwise.get(key)) if s is not None]
        if layer.managed:
            trust = "managed"
        elif current in stored:
            trust = "trusted"
        else:
            trust = "modified" if stored else "untrusted"
        is_async = handler.get("async") is True
        runs = enabled and (trust in ("managed", "trusted") or bypass_hook_trust)
        command = handler.get("command")
        if handler.get("type") == "mcp_tool":  # named by what it calls, for lists and warnings
            command = f"mcp_tool {handler.get('server')}/{handler.get('tool')}"
        status = handler.get("statusMessage")
        hook = CodexHook(
            key=key,
            event=event,
            matcher=matcher if isinstance(matcher, str) else None,
            command=command if isinstance(command, str) else "",
            timeout_s=_timeout(handler.get("timeout")) or DEFAULT_TIMEOUT_S,
            is_async=is_async,
            status_message=status if isinstance(status, str) else None,
            source_path=source_path,
            source=layer.source,
            scope=layer.name,
            origin=origin,
            managed=layer.managed,
            enabled=enabled,
            current_hash=current,
            trusted_hash=stored[0] if stored else None,
            trust=trust,
            runs=runs,
        )
        found.append(hook)
        if runs:
            continue
        clean.remove(handler)
        if not enabled:
            warnings.append(
                f'{origin}: turned off in {user_config_path} ([hooks.state."{key}"] '
                "enabled = false); skipped"
            )
        else:
            why = "changed since it was trusted" if trust == "modified" else "not trusted"
            warnings.append(
                f"{origin}: {event} hook {hook.command!r} is {why} (hash {current}); skipped. "
                "Codex skips it silently; review it, then trust it with Codex's /hooks or "
                "hookwise (trust_codex_hooks), or bypass hook trust"
            )
    return found


def load_codex_hooks(
    project_dir: str | os.PathLike[str] = ".",
    *,
    home: str | os.PathLike[str] | None = None,
    codex_home: str | os.PathLike[str] | None = None,
    managed_dir: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    trust_project: bool | None = None,
    bypass_hook_trust: bool = False,
    paths: CodexPaths | None = None,
) -> CodexHooks:
    """Every Codex hook for ``project_dir`` that would run, registered, with the warnings.

    ``trust_project`` overrides the project trust of ``[projects]``; ``bypass_hook_trust``
    is ``--dangerously-bypass-hook-trust``. Never raises for bad files.
    """
    paths = paths or CodexPaths.from_environment(
        project_dir, home=home, codex_home=codex_home, managed_dir=managed_dir, env=env
    )
    warnings: list[str] = []
    files: list[Path] = []
    exists, requirements = _read_config(paths.requirements, warnings)
    if exists:
        files.append(paths.requirements)
    exists, user_config = _read_config(paths.user_config, warnings)
    if exists:
        files.append(paths.user_config)
    layers = [
        CodexLayer("managed", paths.managed_dir, Source.SYSTEM, True, config=None),
        *_layers(paths, user_config, trust_project, files, warnings),
    ]
    managed_only = (
        isinstance(requirements, dict) and requirements.get("allow_managed_hooks_only") is True
    )
    hooks_on, switch = _hooks_switch(layers, warnings)
    notify, notify_origin = _notify(layers, warnings)
    state = _trust_state(user_config, paths.trust_store, warnings)

    objects: list[tuple[HooksObject, CleanHooks]] = []
    discovered: list[CodexHook] = []
    skipped: list[HooksObject] = []
    for layer in layers:
        if not layer.trusted:
            continue
        for source_path, clean in _layer_hooks(
            layer, requirements, paths.requirements, files, warnings
        ):
            obj = HooksObject(clean.hooks, layer.source, str(source_path), layer.name)
            if managed_only and not layer.managed:
                if clean.count:
                    warnings.append(
                        f"{source_path}: not loaded: requirements.toml sets "
                        "allow_managed_hooks_only (only managed hooks run)"
                    )
                    skipped.append(obj)
                continue
            if not hooks_on:
                skipped.append(obj)
                continue
            discovered.extend(
                _judge(
                    layer,
                    source_path,
                    clean,
                    state=state,
                    bypass_hook_trust=bypass_hook_trust,
                    user_config_path=paths.user_config,
                    warnings=warnings,
                )
            )
            objects.append((obj, clean))
    if hooks_on:
        registry, _ = register(objects, CODEX)
    else:
        registry = Registry()
        if skipped:
            warnings.append(f"{switch}: false: Codex hooks are off; no hook runs")
    warnings.extend(registry.warnings)
    untrusted = [
        f"{layer.folder}: {paths.project_root()} is not a trusted Codex project"
        for layer in layers
        if not layer.trusted
        and ((layer.folder / "hooks.json").exists() or (layer.folder / "config.toml").exists())
    ]
    untrusted += [
        f"{hook.command} ({hook.event}, {hook.origin}): {hook.trust}"
        for hook in discovered
        if hook.enabled and not hook.runs
    ]
    return CodexHooks(
        dialect="codex",
        untrusted=untrusted,
        registry=registry,
        warnings=warnings,
        env={},
        files=files,
        skipped=skipped,
        enabled=hooks_on,
        hooks=discovered,
        notify=notify,
        notify_origin=notify_origin,
        project_root=paths.project_root(),
        layers=layers,
        managed_only=managed_only,
        hooks_switch=switch,
    )
