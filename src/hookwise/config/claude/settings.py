"""Claude Code's hooks: every settings scope and the enabled plugins, merged as Claude Code does.

Where hooks come from (every location can be overridden, for tests and unusual setups):

* **managed**: ``<managed_dir>/managed-settings.json``, then ``managed-settings.d/*.json`` in
  name order; ``managed_dir`` is ``/etc/claude-code`` on Linux,
  ``/Library/Application Support/ClaudeCode`` on macOS, ``C:\\Program Files\\ClaudeCode`` on
  Windows. Source ``system``.
* **user**: ``~/.claude/settings.json`` (``$CLAUDE_CONFIG_DIR/settings.json`` when that is set
  and no ``home`` is given). Source ``user``.
* **project**: ``<project>/.claude/settings.json``; **local**: ``.claude/settings.local.json``.
  Source ``project``.
* **flag**: what ``claude --settings FILE|JSON`` would add (optional). Source ``user``.
* **plugins**: ``hooks/hooks.json`` of every plugin ``enabledPlugins`` turns on, and the hook
  files (or inline hooks) its ``.claude-plugin/plugin.json`` names under ``hooks`` (merged over
  the scopes, managed last), found through ``<plugins_dir>/installed_plugins.json`` or the
  plugin cache, plus explicit ``plugin_dirs`` (``--plugin-dir``). Source ``extensions``; each
  handler gets ``CLAUDE_PLUGIN_ROOT`` and ``CLAUDE_PLUGIN_DATA`` in its ``env``.

Rules (hooks reference, 2026-08):

* Hooks add up across scopes; nothing replaces anything.
* "If you define the same handler in more than one settings file, it runs once. A plugin's
  copy of the same handler stays separate." Claude Code 2.1.330 runs a matched command once
  per firing, whatever the matcher group or timeout that brought it (``dedup_key``; the
  host applies it to the hooks a firing matched). At load time, settings-file handlers of
  the same event, matcher and command are registered once: the copy of the
  highest-precedence file (managed > flag > local > project > user) is kept.
* ``disableAllHooks``: the value left after settings precedence counts. Set anywhere but
  managed, it turns off every hook except managed ones; only managed settings can turn off
  managed hooks.
* ``allowManagedHooksOnly`` (managed settings only): user, project, local, flag and plugin hooks
  are not loaded, except hooks of plugins that managed ``enabledPlugins`` force on.
* Only ``command`` handlers run in hookwise; ``http``, ``mcp_tool``, ``prompt`` and ``agent``
  handlers are left out with a warning. Timeouts are seconds (``config.timeouts``).

Nothing here raises for a bad file: a malformed file or a wrong type is a warning naming the
file and the JSON path, and every other scope still loads. Settings-file hooks are loaded
whatever the folder's trust, as in ``claude -p`` and SDK sessions.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Final

from hookwise.config.dialect_hooks import (
    CleanHooks,
    DialectHooks,
    clean_hooks,
    json_type,
    read_json_file,
    register,
    same_path,
)
from hookwise.config.jsonc import parse_json_text
from hookwise.config.model import Source
from hookwise.config.registry import HooksObject
from hookwise.config.timeouts import seconds_value
from hookwise.protocol.claude import CLAUDE, EXACT_MATCHER_CHARS, UNDOCUMENTED_EVENTS
from hookwise.protocol.jsregex import JSRegexUnsupportedError, compile_js_regex
from hookwise.protocol.jsvalue import JSON

__all__ = [
    "CLAUDE_DIR",
    "HANDLER_TYPES",
    "UNSUPPORTED_EVENTS",
    "ClaudeHooks",
    "ClaudePaths",
    "ClaudePlugin",
    "ClaudeScope",
    "ClaudeSettingsFile",
    "dedup_key",
    "handler_identity",
    "load_claude_hooks",
    "parse_claude_settings_text",
]

CLAUDE_DIR: Final = ".claude"

HANDLER_TYPES: Final = ("command", "http", "mcp_tool", "prompt", "agent")

# Events of the real CLI that hookwise's table does not carry (its hooks reference does not
# document them: protocol/claude.py).
UNSUPPORTED_EVENTS: Final = frozenset(UNDOCUMENTED_EVENTS)

# Events on which a handler's ``if`` is evaluated; elsewhere a hook with ``if`` never runs.
_IF_EVENTS: Final = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
)


class ClaudeScope(Enum):
    """A settings file; the value is the ``HookEntry.scope`` of its hooks."""

    MANAGED = "managed"
    USER = "user"
    PROJECT = "project"
    LOCAL = "local"
    FLAG = "flag"

    @property
    def source(self) -> Source:
        return _SOURCES[self]


_SOURCES: Final = {
    ClaudeScope.MANAGED: Source.SYSTEM,
    ClaudeScope.USER: Source.USER,
    ClaudeScope.PROJECT: Source.PROJECT,
    ClaudeScope.LOCAL: Source.PROJECT,
    ClaudeScope.FLAG: Source.USER,
}

PRECEDENCE: Final = (
    ClaudeScope.MANAGED,
    ClaudeScope.FLAG,
    ClaudeScope.LOCAL,
    ClaudeScope.PROJECT,
    ClaudeScope.USER,
)
"""Highest first: whose scalar setting counts, and whose copy of a duplicate handler is kept."""


def _managed_dir_default(platform: str) -> Path:
    if platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode")
    if platform == "win32":
        return Path("C:\\Program Files\\ClaudeCode")
    return Path("/etc/claude-code")


@dataclass(frozen=True)
class ClaudePaths:
    """Where Claude Code's files are for one project."""

    project: Path
    config_dir: Path  # ~/.claude
    managed_dir: Path
    plugins_dir: Path  # ~/.claude/plugins

    @classmethod
    def from_environment(
        cls,
        project_dir: str | os.PathLike[str] | None = None,
        *,
        home: str | os.PathLike[str] | None = None,
        managed_dir: str | os.PathLike[str] | None = None,
        plugins_dir: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        platform: str | None = None,
    ) -> ClaudePaths:
        """Claude Code's defaults. An explicit ``home`` wins over ``$CLAUDE_CONFIG_DIR``."""
        environ = os.environ if env is None else env
        project = Path(os.path.realpath(os.path.abspath(project_dir or os.getcwd())))
        if home is not None:
            config_dir = Path(os.path.abspath(home)) / CLAUDE_DIR
        elif environ.get("CLAUDE_CONFIG_DIR"):
            config_dir = Path(os.path.abspath(environ["CLAUDE_CONFIG_DIR"]))
        else:
            config_dir = Path(os.path.expanduser("~")) / CLAUDE_DIR
        managed = (
            Path(managed_dir)
            if managed_dir is not None
            else _managed_dir_default(platform or sys.platform)
        )
        plugins = Path(plugins_dir) if plugins_dir is not None else config_dir / "plugins"
        return cls(project, config_dir, managed, plugins)

    @property
    def user_settings(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def project_settings(self) -> Path:
        return self.project / CLAUDE_DIR / "settings.json"

    @property
    def local_settings(self) -> Path:
        return self.project / CLAUDE_DIR / "settings.local.json"

    @property
    def managed_settings(self) -> Path:
        return self.managed_dir / "managed-settings.json"

    @property
    def managed_dropins(self) -> Path:
        return self.managed_dir / "managed-settings.d"

    @property
    def remote_settings(self) -> Path:
        """The cache of the organization's server-managed settings (fetched at login)."""
        return self.config_dir / "remote-settings.json"


@dataclass
class ClaudeSettingsFile:
    """One settings file (or the ``--settings`` JSON) as read."""

    scope: ClaudeScope
    origin: str  # the path, or "--settings" for inline JSON
    exists: bool = False
    settings: dict[str, JSON] | None = None  # None: absent or unusable
    ignored: str | None = None  # why Claude Code does not use this file at all

    def get(self, key: str) -> JSON:
        return None if self.settings is None else self.settings.get(key)

    def has(self, key: str) -> bool:
        return self.settings is not None and key in self.settings


@dataclass(frozen=True)
class ClaudePlugin:
    """An enabled plugin whose hooks/hooks.json is read."""

    id: str  # name@marketplace, or the name for a --plugin-dir plugin
    root: Path  # CLAUDE_PLUGIN_ROOT
    data_dir: Path  # CLAUDE_PLUGIN_DATA
    forced: bool = False  # enabled by managed settings (exempt from allowManagedHooksOnly)

    @property
    def hooks_file(self) -> Path:
        return self.root / "hooks" / "hooks.json"

    @property
    def scope(self) -> str:
        return f"plugin:{self.id}"


@dataclass
class ClaudeHooks(DialectHooks):
    settings_files: list[ClaudeSettingsFile] = field(default_factory=list)
    plugins: list[ClaudePlugin] = field(default_factory=list)
    disable_all_hooks: bool = False
    """The effective ``disableAllHooks``."""
    disabled_by: str | None = None
    """Where the effective ``disableAllHooks`` was set."""
    managed_only: bool = False
    """``allowManagedHooksOnly`` from managed settings."""
    managed_source: str = "none"
    """Which managed tier is in effect: ``server`` (remote-settings.json), ``endpoint``
    (managed-settings.json and managed-settings.d) or ``none``."""
    skip_reasons: dict[str, str] = field(default_factory=dict)
    """Why each source in ``skipped`` (by its origin) is not loaded."""
    deduplicated: list[tuple[str, str]] = field(default_factory=list)
    """(path of a duplicate handler left out, path of the copy that runs)."""
    hook_objects: list[tuple[str, str, JSON]] = field(default_factory=list)
    """(origin, scope, the ``hooks`` object as written) of every source read, events
    hookwise does not run included (``hookwise scan`` lists those too)."""


# --------------------------------------------------------------------------- parsing


def parse_claude_settings_text(text: str, origin: str) -> tuple[dict[str, JSON] | None, list[str]]:
    """A settings file's text: the object, or None and why not. Never raises."""
    value, problem = parse_json_text(text)
    if problem is not None:
        return None, [problem.describe(origin) + "; settings ignored"]
    if not isinstance(value, dict):
        return None, [f"{origin}: settings must be a JSON object, got {json_type(value)}; ignored"]
    return value, []


def _strings(value: JSON) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _handler_problems(kind: str, handler: Mapping[str, JSON]) -> list[str]:
    """What the handler's own fields lack (hooks reference, "Hook handler fields")."""
    problems: list[str] = []
    if kind == "command":
        command = handler.get("command")
        if not isinstance(command, str) or not command.strip():
            problems.append("a command hook needs a non-empty string 'command'")
    elif kind == "http":
        url = handler.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            problems.append("an http hook needs a 'url' starting with http:// or https://")
        headers = handler.get("headers")
        if "headers" in handler and not (
            isinstance(headers, dict) and all(isinstance(v, str) for v in headers.values())
        ):
            problems.append("'headers' must be an object of strings")
        if "allowedEnvVars" in handler and not _strings(handler["allowedEnvVars"]):
            problems.append("'allowedEnvVars' must be an array of strings")
    elif kind == "mcp_tool":
        for key in ("server", "tool"):
            value = handler.get(key)
            if not isinstance(value, str) or not value:
                problems.append(f"an mcp_tool hook needs a non-empty string '{key}'")
        if "input" in handler and not isinstance(handler["input"], dict):
            problems.append("'input' must be an object")
    else:  # prompt, agent
        prompt = handler.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            problems.append(f"a {kind} hook needs a non-empty string 'prompt'")
        if "model" in handler and not isinstance(handler["model"], str):
            problems.append("'model' must be a string")
    return problems


def _check_handler(
    event: str, handler: dict[str, JSON], path: str, warnings: list[str]
) -> dict[str, JSON] | None:
    kind = handler.get("type")
    if kind not in HANDLER_TYPES:
        warnings.append(
            f"{path}/type: must be one of {', '.join(HANDLER_TYPES)} (got "
            f"{json.dumps(kind) if kind is not None else 'nothing'}); skipped"
        )
        return None
    allowed = CLAUDE.events[event].handler_types
    if kind not in allowed:
        warnings.append(
            f"{path}/type: Claude Code does not run {kind} hooks on {event} (it runs "
            f"{', '.join(allowed)} there); skipped"
        )
        return None
    problems = _handler_problems(str(kind), handler)
    if "timeout" in handler and seconds_value(handler["timeout"]) is None:
        problems.append(
            f"'timeout' must be a positive number of seconds (got {json.dumps(handler['timeout'])})"
        )
    args = handler.get("args")
    if "args" in handler and (
        not isinstance(args, list) or not all(isinstance(a, str) for a in args)
    ):
        problems.append("'args' must be an array of strings")
    for key in ("async", "asyncRewake", "once"):
        if key in handler and not isinstance(handler[key], bool):
            problems.append(f"'{key}' must be true or false")
    for key in ("if", "statusMessage"):
        if key in handler and not isinstance(handler[key], str):
            problems.append(f"'{key}' must be a string")
    if "shell" in handler and handler["shell"] not in ("bash", "powershell"):
        problems.append('\'shell\' must be "bash" or "powershell"')
    if problems:
        warnings.append(f"{path}: {'; '.join(problems)}; skipped")
        return None
    if "if" in handler and event not in _IF_EVENTS:
        warnings.append(
            f"{path}/if: 'if' is only evaluated on tool events; Claude Code never runs this "
            f"{event} hook; skipped"
        )
        return None
    if handler.get("once") is True:
        warnings.append(f"{path}/once: honoured only in skill frontmatter; ignored in settings")
    return dict(handler)


def _check_matcher(event: str, matcher: JSON, path: str, warnings: list[str]) -> tuple[bool, JSON]:
    if matcher is None:
        return True, None
    if not isinstance(matcher, str):
        warnings.append(
            f"{path}/matcher: must be a string, got {json_type(matcher)}; group skipped"
        )
        return False, None
    text = matcher.strip()
    if text in ("", "*"):
        return True, matcher
    if CLAUDE.events[event].matcher_field is None:
        warnings.append(
            f"{path}/matcher: matchers are ignored for {event}: this hook runs for every {event}"
        )
        return True, matcher
    if all(ch in EXACT_MATCHER_CHARS for ch in matcher):
        return True, matcher
    try:
        valid = compile_js_regex(matcher) is not None
    except JSRegexUnsupportedError as exc:
        warnings.append(f"{path}/matcher: {matcher!r} cannot be run exactly in Python ({exc})")
        return True, matcher
    if not valid:
        warnings.append(
            f"{path}/matcher: {matcher!r} is not a valid JavaScript regular expression; "
            "it matches nothing"
        )
    return True, matcher


def _clean(hooks: JSON, where: str, warnings: list[str]) -> CleanHooks:
    return clean_hooks(
        hooks,
        where,
        CLAUDE,
        check_handler=_check_handler,
        check_matcher=_check_matcher,
        warnings=warnings,
        unsupported_events=UNSUPPORTED_EVENTS,
    )


def dedup_key(handler: Mapping[str, JSON], scope: str = "") -> str | None:
    """The key Claude Code runs a matched command hook once per firing by.

    Checked against Claude Code 2.1.330: the same command in the user and the project
    settings runs once, and so it does with different matchers that both match, with
    different timeouts, or twice in one file; a different command runs separately. A
    plugin's copy stays separate, so the plugin is part of the key. None for handlers that
    are not commands.
    """
    plugin = scope if scope.startswith("plugin:") else ""
    kind = handler.get("type")
    if kind == "command":
        key: list[JSON] = [
            plugin,
            handler.get("command"),
            handler.get("args"),
            handler.get("shell"),
        ]
    elif kind in _SAME_WHEN:  # the CLI's own comparison of two handlers (its binary)
        key = [plugin, kind, *(handler.get(k) for k in _SAME_WHEN[str(kind)]), handler.get("if")]
    else:
        return None
    return json.dumps(key, ensure_ascii=False, sort_keys=True)


# The fields two handlers of a type share when Claude Code 2.1.330 takes them for one.
_SAME_WHEN: Final = {
    "http": ("url",),
    "mcp_tool": ("server", "tool", "input", "onFailure"),
    "prompt": ("prompt", "model"),
    "agent": ("prompt",),
}


def handler_identity(event: str, matcher: JSON, handler: Mapping[str, JSON]) -> str:
    """Settings-file handlers that always fire together: one is registered, see ``dedup_key``."""
    text = matcher.strip() if isinstance(matcher, str) else ""
    if text == "*" or CLAUDE.events[event].matcher_field is None:
        text = ""
    return json.dumps([event, text, dedup_key(handler)], ensure_ascii=False)


# --------------------------------------------------------------------------- scopes


def _read_settings(scope: ClaudeScope, path: Path, warnings: list[str]) -> ClaudeSettingsFile:
    exists, value = read_json_file(path, f"{scope.value} settings", warnings)
    return ClaudeSettingsFile(scope, str(path), exists, value)


def _read_flag_settings(
    flag: str | os.PathLike[str] | Mapping[str, JSON], warnings: list[str]
) -> ClaudeSettingsFile:
    if isinstance(flag, Mapping):
        return ClaudeSettingsFile(ClaudeScope.FLAG, "--settings", True, dict(flag))
    text = os.fspath(flag)
    if text.lstrip().startswith("{"):
        value, problems = parse_claude_settings_text(text, "--settings")
        warnings.extend(problems)
        return ClaudeSettingsFile(ClaudeScope.FLAG, "--settings", True, value)
    return _read_settings(ClaudeScope.FLAG, Path(text), warnings)


def _read_scopes(
    paths: ClaudePaths,
    flag_settings: str | os.PathLike[str] | Mapping[str, JSON] | None,
    warnings: list[str],
) -> list[ClaudeSettingsFile]:
    files = [_read_settings(ClaudeScope.MANAGED, paths.managed_settings, warnings)]
    if paths.managed_dropins.is_dir():
        try:
            names = sorted(os.listdir(paths.managed_dropins))
        except OSError as exc:
            warnings.append(f"{paths.managed_dropins}: cannot list: {exc.strerror or exc}")
            names = []
        for name in names:
            if name.endswith(".json") and not name.startswith("."):
                files.append(
                    _read_settings(ClaudeScope.MANAGED, paths.managed_dropins / name, warnings)
                )
    remote = _read_settings(ClaudeScope.MANAGED, paths.remote_settings, warnings)
    if remote.settings:  # server-managed settings win; endpoint-managed files are not used
        for file in files:
            file.ignored = (
                f"not used: server-managed settings ({remote.origin}) are in effect and take "
                "precedence over endpoint-managed files"
            )
        files.insert(0, remote)
    files.append(_read_settings(ClaudeScope.USER, paths.user_settings, warnings))
    if not same_path(paths.project_settings, paths.user_settings):
        files.append(_read_settings(ClaudeScope.PROJECT, paths.project_settings, warnings))
    files.append(_read_settings(ClaudeScope.LOCAL, paths.local_settings, warnings))
    if flag_settings is not None:
        files.append(_read_flag_settings(flag_settings, warnings))
    return files


def _by_precedence(files: Sequence[ClaudeSettingsFile]) -> list[ClaudeSettingsFile]:
    """Highest precedence first; within managed, the last drop-in first."""
    ordered: list[ClaudeSettingsFile] = []
    for scope in PRECEDENCE:
        ordered.extend(reversed([f for f in files if f.scope is scope]))
    return ordered


def _effective_bool(
    files: Sequence[ClaudeSettingsFile], key: str, warnings: list[str]
) -> tuple[bool, ClaudeSettingsFile | None]:
    for file in _by_precedence(files):
        if not file.has(key):
            continue
        value = file.get(key)
        if isinstance(value, bool):
            return value, file
        warnings.append(f"{file.origin}#/{key}: must be true or false, got {json_type(value)}")
    return False, None


def _managed_only(files: Sequence[ClaudeSettingsFile], warnings: list[str]) -> bool:
    for file in files:
        if file.scope is not ClaudeScope.MANAGED and file.has("allowManagedHooksOnly"):
            warnings.append(
                f"{file.origin}#/allowManagedHooksOnly: only honoured in managed settings; ignored"
            )
    managed = [f for f in files if f.scope is ClaudeScope.MANAGED]
    value, _ = _effective_bool(managed, "allowManagedHooksOnly", warnings)
    return value


# --------------------------------------------------------------------------- plugins


def _enabled_plugins(
    files: Sequence[ClaudeSettingsFile], warnings: list[str]
) -> dict[str, tuple[bool, bool]]:
    """plugin id -> (enabled, forced by managed settings); later scopes win, managed last."""
    result: dict[str, tuple[bool, bool]] = {}
    for file in reversed(_by_precedence(files)):
        if not file.has("enabledPlugins"):
            continue
        value = file.get("enabledPlugins")
        if not isinstance(value, dict):
            warnings.append(
                f"{file.origin}#/enabledPlugins: must be an object of plugin ids, got "
                f"{json_type(value)}; ignored"
            )
            continue
        for plugin_id, enabled in value.items():
            if not isinstance(enabled, bool):
                warnings.append(
                    f"{file.origin}#/enabledPlugins/{plugin_id}: must be true or false; ignored"
                )
                continue
            forced = file.scope is ClaudeScope.MANAGED and enabled
            result[plugin_id] = (enabled, forced)
    return result


def _data_dir(plugins_dir: Path, plugin_id: str) -> Path:
    return plugins_dir / "data" / re.sub(r"[^A-Za-z0-9_-]", "-", plugin_id)


def _looks_like_plugin(directory: Path) -> bool:
    return (directory / ".claude-plugin").is_dir() or (directory / "hooks").is_dir()


def _installed_path(
    paths: ClaudePaths, plugin_id: str, registry: JSON, warnings: list[str]
) -> Path | None:
    """Where an installed plugin lives: installed_plugins.json, else the plugin cache."""
    plugins = registry.get("plugins") if isinstance(registry, dict) else None
    entries = plugins.get(plugin_id) if isinstance(plugins, dict) else None
    if isinstance(entries, dict):
        entries = [entries]
    if isinstance(entries, list):
        candidates = [e for e in entries if isinstance(e, dict)]
        # A project- or local-scoped install counts for its own project only.
        mine = [e for e in candidates if same_path(str(e.get("projectPath", "")), paths.project)]
        general = [e for e in candidates if not e.get("projectPath")]
        for entry in (*mine, *general):
            install = entry.get("installPath")
            if isinstance(install, str) and Path(install).is_dir():
                return Path(install)
    name, _, marketplace = plugin_id.partition("@")
    cache = paths.plugins_dir / "cache" / marketplace / name
    if not marketplace or not cache.is_dir():
        return None
    if _looks_like_plugin(cache):
        return cache
    try:
        versions = sorted(p for p in cache.iterdir() if p.is_dir() and _looks_like_plugin(p))
    except OSError as exc:
        warnings.append(f"{cache}: cannot list: {exc.strerror or exc}")
        return None
    return versions[-1] if versions else None


def _plugin_name(directory: Path, warnings: list[str]) -> str:
    manifest = directory / ".claude-plugin" / "plugin.json"
    if manifest.exists():
        _, value = read_json_file(manifest, "plugin manifest", warnings)
        name = value.get("name") if value is not None else None
        if isinstance(name, str) and name:
            return name
    return directory.name


def _find_plugins(
    paths: ClaudePaths,
    enabled: Mapping[str, tuple[bool, bool]],
    plugin_dirs: Sequence[str | os.PathLike[str]],
    warnings: list[str],
) -> list[ClaudePlugin]:
    found: list[ClaudePlugin] = []
    wanted = [(pid, forced) for pid, (on, forced) in enabled.items() if on]
    if wanted:
        registry_file = paths.plugins_dir / "installed_plugins.json"
        registry: JSON = None
        if registry_file.exists():
            _, registry = read_json_file(registry_file, "installed plugins", warnings)
        for plugin_id, forced in wanted:
            root = _installed_path(paths, plugin_id, registry, warnings)
            if root is None:
                warnings.append(
                    f"enabledPlugins: plugin {plugin_id!r} is enabled but not installed under "
                    f"{paths.plugins_dir}; its hooks are not loaded"
                )
                continue
            data_dir = _data_dir(paths.plugins_dir, plugin_id)
            found.append(ClaudePlugin(plugin_id, root, data_dir, forced))
    for directory in plugin_dirs:
        root = Path(os.path.abspath(directory))
        if not root.is_dir():
            warnings.append(f"{root}: plugin directory does not exist; ignored")
            continue
        name = _plugin_name(root, warnings)
        found.append(ClaudePlugin(name, root, _data_dir(paths.plugins_dir, name)))
    return found


def plugin_hook_objects(plugin: ClaudePlugin, warnings: list[str]) -> list[tuple[str, JSON]]:
    """(origin, ``hooks`` object) of every hook configuration of ``plugin``: its
    ``hooks/hooks.json``, and what its ``.claude-plugin/plugin.json`` names under ``hooks``
    (a path relative to the plugin, a list of them, or the configuration inline)."""
    found: list[tuple[str, JSON]] = []
    named: list[Path] = [plugin.hooks_file]
    manifest = plugin.root / ".claude-plugin" / "plugin.json"
    _, meta = read_json_file(manifest, "plugin manifest", warnings)
    value = meta.get("hooks") if meta is not None else None
    if isinstance(value, dict):
        found.append((f"{manifest}", value.get("hooks", value)))
    for entry in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
        if not isinstance(entry, str):
            warnings.append(f"{manifest}#/hooks: expected a path, got {json_type(entry)}; ignored")
            continue
        path = Path(os.path.normpath(plugin.root / entry.replace("${CLAUDE_PLUGIN_ROOT}", ".")))
        if not path.is_relative_to(plugin.root):
            warnings.append(f"{manifest}#/hooks: {entry!r} is outside the plugin; ignored")
        elif path not in named:
            named.append(path)
    for path in named:
        exists, data = read_json_file(path, "plugin hooks", warnings)
        if not exists or data is None:
            continue
        hooks = data.get("hooks")
        if not isinstance(hooks, dict):
            warnings.append(f"{path}#/hooks: a plugin's hooks file needs a 'hooks' object; ignored")
            continue
        found.append((str(path), hooks))
    return found


def _plugin_hooks(plugin: ClaudePlugin, warnings: list[str]) -> list[tuple[str, JSON, CleanHooks]]:
    plugin_env = {
        "CLAUDE_PLUGIN_ROOT": str(plugin.root),
        "CLAUDE_PLUGIN_DATA": str(plugin.data_dir),
    }
    out: list[tuple[str, JSON, CleanHooks]] = []
    for origin, hooks in plugin_hook_objects(plugin, warnings):
        clean = _clean(hooks, origin, warnings)
        for _, _, handler in clean.handlers():
            handler["env"] = plugin_env
        out.append((origin, hooks, clean))
    return out


# --------------------------------------------------------------------------- loading


@dataclass
class _Loaded:
    obj: HooksObject
    clean: CleanHooks
    managed: bool
    settings_file: ClaudeSettingsFile | None = None  # None for plugins
    plugin: ClaudePlugin | None = None


def load_claude_hooks(
    project_dir: str | os.PathLike[str] = ".",
    *,
    home: str | os.PathLike[str] | None = None,
    managed_dir: str | os.PathLike[str] | None = None,
    plugins_dir: str | os.PathLike[str] | None = None,
    plugin_dirs: Sequence[str | os.PathLike[str]] = (),
    flag_settings: str | os.PathLike[str] | Mapping[str, JSON] | None = None,
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
    paths: ClaudePaths | None = None,
) -> ClaudeHooks:
    """Every Claude Code hook for ``project_dir``, registered, with the warnings met.

    Never raises for bad files. ``flag_settings`` is ``claude --settings`` (a path, a JSON
    text or a mapping); ``plugin_dirs`` is ``--plugin-dir``.
    """
    paths = paths or ClaudePaths.from_environment(
        project_dir,
        home=home,
        managed_dir=managed_dir,
        plugins_dir=plugins_dir,
        env=env,
        platform=platform,
    )
    warnings: list[str] = []
    files = _read_scopes(paths, flag_settings, warnings)
    used = [f for f in files if f.ignored is None]
    disable_all, disabled_in = _effective_bool(used, "disableAllHooks", warnings)
    managed_only = _managed_only(used, warnings)
    plugins = _find_plugins(paths, _enabled_plugins(used, warnings), plugin_dirs, warnings)

    loaded: list[_Loaded] = []
    ignored: list[_Loaded] = []
    reasons: dict[str, str] = {}
    hook_objects: list[tuple[str, str, JSON]] = []
    for file in files:
        if file.settings is None or "hooks" not in file.settings:
            continue
        hook_objects.append((file.origin, file.scope.value, file.settings["hooks"]))
        clean = _clean(file.settings["hooks"], file.origin, warnings)
        obj = HooksObject(clean.hooks, file.scope.source, file.origin, file.scope.value)
        item = _Loaded(obj, clean, file.scope is ClaudeScope.MANAGED, settings_file=file)
        if file.ignored is not None:
            warnings.append(f"{file.origin}: hooks never run: {file.ignored}")
            reasons[file.origin] = file.ignored
            ignored.append(item)
        else:
            loaded.append(item)
    for plugin in plugins:
        for origin, raw, plugin_clean in _plugin_hooks(plugin, warnings):
            hook_objects.append((origin, plugin.scope, raw))
            obj = HooksObject(plugin_clean.hooks, Source.EXTENSIONS, origin, plugin.scope)
            loaded.append(_Loaded(obj, plugin_clean, False, plugin=plugin))

    active, skipped = _apply_switches(
        loaded, disable_all, disabled_in, managed_only, warnings, reasons=reasons
    )
    skipped = [*ignored, *skipped]
    remote = paths.remote_settings
    tier = "server" if any(f.origin == str(remote) and f.settings for f in files) else "none"
    if tier == "none" and any(f.scope is ClaudeScope.MANAGED and f.exists for f in files):
        tier = "endpoint"
    deduplicated = _deduplicate(active)
    managed_switch_off = disabled_in is not None and disabled_in.scope is ClaudeScope.MANAGED
    registry, _ = register(((item.obj, item.clean) for item in active), CLAUDE)
    warnings.extend(registry.warnings)
    return ClaudeHooks(
        dialect="claude",
        registry=registry,
        warnings=warnings,
        env={"CLAUDE_PROJECT_DIR": str(paths.project)},
        files=[Path(f.origin) for f in files if f.exists and f.origin != "--settings"],
        skipped=[item.obj for item in skipped],
        enabled=not (disable_all and managed_switch_off),
        settings_files=files,
        plugins=plugins,
        disable_all_hooks=disable_all,
        disabled_by=disabled_in.origin if disabled_in is not None else None,
        managed_only=managed_only,
        managed_source=tier,
        skip_reasons=reasons,
        deduplicated=deduplicated,
        hook_objects=hook_objects,
    )


def _apply_switches(
    loaded: list[_Loaded],
    disable_all: bool,
    disabled_in: ClaudeSettingsFile | None,
    managed_only: bool,
    warnings: list[str],
    *,
    reasons: dict[str, str],
) -> tuple[list[_Loaded], list[_Loaded]]:
    """disableAllHooks and allowManagedHooksOnly: which hook sources stay (``reasons``:
    why each other one does not, by origin)."""
    if disable_all and disabled_in is not None:
        why = f"disableAllHooks is true in {disabled_in.origin}"
        if disabled_in.scope is ClaudeScope.MANAGED:
            if loaded:
                warnings.append(
                    f"{disabled_in.origin}#/disableAllHooks: true in managed settings: no hook runs"
                )
            reasons.update((item.obj.origin, why) for item in loaded)
            return [], loaded
        active = [item for item in loaded if item.managed]
        skipped = [item for item in loaded if not item.managed]
        reasons.update((item.obj.origin, why) for item in skipped)
        if skipped:
            kept = " except managed hooks" if active else ""
            warnings.append(
                f"{disabled_in.origin}#/disableAllHooks: true: no hook runs{kept} "
                f"({len(skipped)} hook source(s) not loaded)"
            )
        return active, skipped
    if managed_only:
        active = [
            item
            for item in loaded
            if item.managed or (item.plugin is not None and item.plugin.forced)
        ]
        skipped = [item for item in loaded if item not in active]
        for item in skipped:
            reasons[item.obj.origin] = (
                f"managed settings set allowManagedHooksOnly ({item.obj.scope} hooks are blocked)"
            )
            warnings.append(
                f"{item.obj.origin}: not loaded: managed settings set allowManagedHooksOnly "
                f"({item.obj.scope} hooks are blocked)"
            )
        return active, skipped
    return loaded, []


def _deduplicate(active: list[_Loaded]) -> list[tuple[str, str]]:
    """Settings-file handlers defined more than once run once: keep the highest-precedence copy."""
    rank = {scope: index for index, scope in enumerate(PRECEDENCE)}
    ranked = [
        (rank[item.settings_file.scope], -index, item)
        for index, item in enumerate(active)
        if item.settings_file is not None
    ]
    ranked.sort(key=lambda triple: (triple[0], triple[1]))
    seen: dict[str, str] = {}
    dropped: list[tuple[str, str]] = []
    for _, _, item in ranked:
        for event, group, handler in list(item.clean.handlers()):
            identity = handler_identity(event, group.get("matcher"), handler)
            origin = item.clean.origins[id(handler)]
            if identity in seen:
                item.clean.remove(handler)
                dropped.append((origin, seen[identity]))
            else:
                seen[identity] = origin
    return dropped
