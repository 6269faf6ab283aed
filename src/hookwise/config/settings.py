"""settings.json from every scope, merged the way Gemini CLI merges it.

Four files feed the hooks: system defaults, user (``~/.gemini/settings.json``), project
(``<workspace>/.gemini/settings.json``) and system settings. Loading follows the CLI's
``loadSettings`` (cli/src/config/settings.ts): comments are stripped like strip-json-comments,
``$VAR``/``${VAR}``/``${VAR:-default}`` are expanded from the environment, the schema's
coercions apply ("5000" -> 5000 for a timeout), and the merge is ``customDeepMerge`` with the
schema's strategies. Where the CLI would stop with a fatal error (a malformed file), hookwise
warns, naming the file, the line:column and the JSON path, and keeps every other scope.

How the merged hooks become registered hooks is what the two profiles disagree on:

* ``gemini-cli``: one concatenated list per event (systemDefaults + user + project + system),
  every hook labelled ``project``, none of them when the folder is untrusted.
* ``documented``: each file keeps its own label (project > user > system > extensions), and an
  untrusted folder only loses the project file.
"""

from __future__ import annotations

import copy
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Final

from hookwise.config.atomic import write_text_atomic
from hookwise.config.environment import RedactionConfig
from hookwise.config.files import read_file_bytes, read_file_text
from hookwise.config.jsonc import (
    JsonSyntaxError,
    insert_member,
    locate_json_error,
    object_members,
    parse_json_text,
    parse_jsonc,
    scan_ws,
    strip_json_comments,
)
from hookwise.config.model import Source
from hookwise.config.registry import HooksObject
from hookwise.config.trust import FolderTrust, HookTrustMode, folder_trust, resolve_trust_mode
from hookwise.protocol.gemini import SCHEMA_EVENT_ORDER
from hookwise.protocol.jsvalue import (
    JSON,
    MAX_SAFE_INTEGER,
    UNDEFINED,
    js_string,
    js_trim,
    json_type_name,
    truthy,
)
from hookwise.protocol.profiles import DEFAULT_PROFILE, Profile


class SettingsScope(Enum):
    """A settings file; the value is the ``HookEntry.scope`` of the hooks it defines."""

    SYSTEM_DEFAULTS = "systemDefaults"
    USER = "user"
    PROJECT = "project"  # the workspace's .gemini/settings.json
    SYSTEM = "system"


MERGE_ORDER: Final = (
    SettingsScope.SYSTEM_DEFAULTS,
    SettingsScope.USER,
    SettingsScope.PROJECT,
    SettingsScope.SYSTEM,
)
"""Later wins (and later hooks run later in the gemini-cli profile)."""

DOCUMENTED_SOURCES: Final = {
    SettingsScope.PROJECT: Source.PROJECT,
    SettingsScope.USER: Source.USER,
    SettingsScope.SYSTEM: Source.SYSTEM,
    SettingsScope.SYSTEM_DEFAULTS: Source.SYSTEM,
}


GEMINI_DIR: Final = ".gemini"
HOOKWISE_TRUST_STORE: Final = "hookwise_trusted_hooks.json"


# --------------------------------------------------------------------------- paths


def _system_settings_default(platform: str) -> str:
    if platform == "darwin":
        return "/Library/Application Support/GeminiCli/settings.json"
    if platform == "win32":
        return "C:\\ProgramData\\gemini-cli\\settings.json"
    return "/etc/gemini-cli/settings.json"


@dataclass(frozen=True)
class SettingsPaths:
    """Where every file lives; each one can be overridden (tests, ``--home``...)."""

    workspace: Path
    home: Path
    system_settings: Path
    system_defaults: Path
    trusted_folders: Path
    secure_system_files: bool = True
    """Skip system files that are not root-owned or are group/other-writable, as the CLI does."""

    @classmethod
    def from_environment(
        cls,
        workspace: str | os.PathLike[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        home: str | os.PathLike[str] | None = None,
        system_settings: str | os.PathLike[str] | None = None,
        system_defaults: str | os.PathLike[str] | None = None,
        trusted_folders: str | os.PathLike[str] | None = None,
        secure_system_files: bool = True,
        platform: str | None = None,
    ) -> SettingsPaths:
        """Gemini CLI's defaults: GEMINI_CLI_HOME, GEMINI_CLI_SYSTEM_SETTINGS_PATH, ..."""
        environ = os.environ if env is None else env
        platform = platform or sys.platform
        # process.cwd() is the physical directory, so the workspace is the real path.
        ws = Path(os.path.realpath(os.path.abspath(workspace if workspace else os.getcwd())))
        home_path = Path(os.path.abspath(home or environ.get("GEMINI_CLI_HOME") or _user_home()))
        sys_settings = Path(
            system_settings
            or environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
            or _system_settings_default(platform)
        )
        sys_defaults = Path(
            system_defaults
            or environ.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
            or os.path.join(os.path.dirname(sys_settings), "system-defaults.json")
        )
        runtime_dir = (
            home_path / ".cache" / GEMINI_DIR
            if environ.get("SANDBOX") == "sandbox-exec"
            else home_path / GEMINI_DIR
        )
        folders = Path(
            trusted_folders
            or environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
            or runtime_dir / "trustedFolders.json"
        )
        return cls(
            ws,
            home_path,
            _absolute(sys_settings),
            _absolute(sys_defaults),
            _absolute(folders),
            secure_system_files,
        )

    @property
    def gemini_dir(self) -> Path:
        return self.home / GEMINI_DIR

    @property
    def user_settings(self) -> Path:
        return self.gemini_dir / "settings.json"

    @property
    def workspace_settings(self) -> Path:
        return self.workspace / GEMINI_DIR / "settings.json"

    @property
    def extensions_dir(self) -> Path:
        return self.gemini_dir / "extensions"

    @property
    def trusted_hooks(self) -> Path:
        """The engine's project-hook key store (trustedHooks.ts)."""
        return self.gemini_dir / "trusted_hooks.json"

    @property
    def hookwise_trusted_hooks(self) -> Path:
        """hookwise's own store: fingerprints of approved hook definitions."""
        return self.gemini_dir / HOOKWISE_TRUST_STORE

    def path_for(self, scope: SettingsScope) -> Path:
        return {
            SettingsScope.SYSTEM_DEFAULTS: self.system_defaults,
            SettingsScope.USER: self.user_settings,
            SettingsScope.PROJECT: self.workspace_settings,
            SettingsScope.SYSTEM: self.system_settings,
        }[scope]


def _user_home() -> str:
    return os.path.expanduser("~")


def _absolute(path: Path) -> Path:
    """Relative overrides are taken from the current directory (Windows defaults stay)."""
    text = str(path)
    if os.path.isabs(text) or re.match(r"[A-Za-z]:\\", text):
        return path
    return Path(os.path.abspath(text))


# --------------------------------------------------------------------------- env vars

_ENV_VAR_RE: Final = re.compile(r"\$(?:([A-Za-z0-9_]+)|\{([^}]+?)(?::-([^}]*))?\})")


def resolve_env_vars(
    value: JSON, env: Mapping[str, str], custom: Mapping[str, str] | None = None
) -> JSON:
    """``resolveEnvVarsInObject``: ``$VAR``, ``${VAR}``, ``${VAR:-default}`` in every string.

    Unknown variables without a default are left as written, so ``$1`` or an unset
    ``$GEMINI_PROJECT_DIR`` reach the hook's shell untouched.
    """

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2) or ""
        if not name:
            return match.group(0)
        if custom is not None and isinstance(custom.get(name), str):
            return custom[name]
        found = env.get(name)
        if isinstance(found, str):
            return found
        default = match.group(3)
        return default if default is not None else match.group(0)

    def walk(item: JSON) -> JSON:
        if isinstance(item, str):
            return _ENV_VAR_RE.sub(substitute, item)
        if isinstance(item, list):
            return [walk(v) for v in item]
        if isinstance(item, dict):
            return {k: walk(v) for k, v in item.items()}
        return item

    return walk(value)


# --------------------------------------------------------------------------- validation

_RADIX_RE: Final = re.compile(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+")
_DECIMAL_RE: Final = re.compile(
    r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
)


def js_number_from_string(text: str) -> float | int | None:
    """``Number(text)`` for a string; None where JS gives NaN."""
    body = js_trim(text)
    if body == "":
        return 0
    if _RADIX_RE.fullmatch(body):
        return int(body, 0) if int(body, 0) <= MAX_SAFE_INTEGER else float(int(body, 0))
    if not _DECIMAL_RE.fullmatch(body):
        return None
    number = float(body.replace("Infinity", "inf"))
    if number.is_integer() and abs(number) <= MAX_SAFE_INTEGER:
        return int(number)
    return number


_Check = Callable[[JSON, list[str | int], list[str]], JSON]


def _issue(path: list[str | int], expected: str, value: JSON) -> str:
    where = ""
    for part in path:
        where += f"[{part}]" if isinstance(part, int) else (f".{part}" if where else part)
    return f"{where or '(root)'}: expected {expected}, got {json_type_name(value)}"


def _string(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
    if not isinstance(value, str):
        issues.append(_issue(path, "string", value))
    return value


def _number(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
    if isinstance(value, str) and js_trim(value) != "":
        number = js_number_from_string(value)
        if number is not None:
            value = number
    if isinstance(value, bool) or not isinstance(value, int | float):
        issues.append(_issue(path, "number", value))
    return value


def _boolean(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
    if isinstance(value, str) and value.lower() in ("true", "false"):
        value = value.lower() == "true"
    if not isinstance(value, bool):
        issues.append(_issue(path, "boolean", value))
    return value


def _array_of(item: _Check | None) -> _Check:
    def check(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
        if not isinstance(value, list):
            issues.append(_issue(path, "array", value))
            return value
        if item is None:
            return list(value)
        return [item(v, [*path, i], issues) for i, v in enumerate(value)]

    return check


def _object_of(shape: dict[str, _Check], extra: _Check | None = None) -> _Check:
    """A zod ``object(shape).passthrough()`` (or ``.catchall(extra)``): known keys first."""

    def check(value: JSON, path: list[str | int], issues: list[str]) -> JSON:
        if not isinstance(value, dict):
            issues.append(_issue(path, "object", value))
            return value
        out: dict[str, JSON] = {}
        for key, sub in shape.items():
            if key in value:
                out[key] = sub(value[key], [*path, key], issues)
        for key, item in value.items():
            if key not in shape and key != "__proto__":
                out[key] = extra(item, [*path, key], issues) if extra else item
        return out

    return check


_HOOK_CONFIG: Final = _object_of(
    {
        "name": _string,
        "type": _string,
        "command": _string,
        "description": _string,
        "timeout": _number,
    }
)
_HOOK_DEFINITIONS: Final = _array_of(
    _object_of({"matcher": _string, "hooks": _array_of(_HOOK_CONFIG)})
)
_SCHEMA: Final = _object_of(
    {
        "security": _object_of(
            {
                "folderTrust": _object_of({"enabled": _boolean}),
                "environmentVariableRedaction": _object_of(
                    {
                        "allowed": _array_of(_string),
                        "blocked": _array_of(_string),
                        "enabled": _boolean,
                    }
                ),
                "blockGitExtensions": _boolean,
                "allowedExtensions": _array_of(_string),
            }
        ),
        "experimental": _object_of({"extensionConfig": _boolean}),
        "hooksConfig": _object_of(
            {"enabled": _boolean, "disabled": _array_of(_string), "notifications": _boolean}
        ),
        "hooks": _object_of(
            {event: _HOOK_DEFINITIONS for event in SCHEMA_EVENT_ORDER}, _array_of(None)
        ),
    }
)


def validate_settings(settings: dict[str, JSON]) -> tuple[dict[str, JSON], list[str]]:
    """The CLI's schema validation, for the keys that drive hooks.

    When the file is valid the schema's result replaces it: numeric strings become numbers
    (``"timeout": "5000"``), ``"true"``/``"false"`` become booleans, hook objects get the
    schema's key order. When any of it is invalid, the file is used exactly as written and
    the issues become a warning, as in the CLI. (The CLI validates every key of the file;
    hookwise validates the hook-related ones and assumes the rest are valid.)
    """
    issues: list[str] = []
    result = _SCHEMA(settings, [], issues)
    if issues or not isinstance(result, dict):
        return settings, issues
    return result, []


# --------------------------------------------------------------------------- merge

_SKIPPED_KEYS: Final = ("__proto__", "constructor", "prototype")


# The part of the settings schema that decides how hook-related keys merge.
_MERGE_SCHEMA: Final[dict[str, dict[str, JSON]]] = {
    "hooksConfig": {
        "properties": {
            "enabled": {},
            "disabled": {"mergeStrategy": "union"},
            "notifications": {},
        }
    },
    "hooks": {
        "properties": {event: {"mergeStrategy": "concat"} for event in SCHEMA_EVENT_ORDER},
        "additionalProperties": {"mergeStrategy": "concat"},
    },
    "security": {
        "properties": {
            "folderTrust": {"properties": {"enabled": {}}},
            "environmentVariableRedaction": {
                "properties": {"allowed": {}, "blocked": {}, "enabled": {}}
            },
            "blockGitExtensions": {},
            "allowedExtensions": {},
        }
    },
    "experimental": {"properties": {"extensionConfig": {}}},
}

# Property names every JS object literal answers (so ``schema[key]`` is truthy for them).
_JS_OBJECT_PROTOTYPE: Final = frozenset(
    {
        "toString",
        "toLocaleString",
        "valueOf",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
    }
)


def merge_strategy(path: tuple[str, ...]) -> str | None:
    """``getMergeStrategyForPath`` over the hook-related schema, quirks included.

    At the first key the schema does not know, the answer is the ``additionalProperties``
    strategy of the *grandparent* node (the code's ``parent`` lags one step). So an unknown
    event directly under ``hooks`` gets none (last wins), while ``hooks.BeforeTool.hooks``
    (a definition object merged in place of the array) gets ``concat``.
    """
    current: dict[str, JSON] | None = None
    properties: JSON = _MERGE_SCHEMA
    parent: dict[str, JSON] | None = None
    for key in path:
        known = isinstance(properties, dict) and key in properties
        if not known and not (properties is not None and key in _JS_OBJECT_PROTOTYPE):
            extra = parent.get("additionalProperties") if parent is not None else None
            return extra.get("mergeStrategy") if isinstance(extra, dict) else None
        parent = current
        current = properties[key] if known and isinstance(properties, dict) else {}
        properties = current.get("properties") if isinstance(current, dict) else None
    strategy = current.get("mergeStrategy") if isinstance(current, dict) else None
    return strategy if isinstance(strategy, str) else None


def _js_unique(values: list[JSON]) -> list[JSON]:
    """``[...new Set(values)]``: SameValueZero for primitives, identity for objects."""
    seen: set[tuple[str, object]] = set()
    out: list[JSON] = []
    for value in values:
        if isinstance(value, dict | list):
            marker: tuple[str, object] = ("o", id(value))
        elif isinstance(value, bool):
            marker = ("b", value)
        elif isinstance(value, int | float):
            marker = ("n", float(value))
        else:
            marker = (type(value).__name__, value)
        if marker not in seen:
            seen.add(marker)
            out.append(value)
    return out


def deep_merge(
    target: dict[str, JSON], source: dict[str, JSON], path: tuple[str, ...] = ()
) -> None:
    """``mergeRecursively`` (cli/src/utils/deepMerge.ts), in place."""
    for key, src in source.items():
        if key in _SKIPPED_KEYS:
            continue
        new_path = (*path, key)
        obj = target.get(key, UNDEFINED)
        strategy = merge_strategy(new_path)
        if isinstance(obj, list):
            src_list = src if isinstance(src, list) else [src]
            if strategy == "concat":
                target[key] = obj + src_list
                continue
            if strategy == "union":
                target[key] = _js_unique(obj + src_list)
                continue
        if isinstance(obj, dict) and isinstance(src, dict):
            deep_merge(obj, src, new_path)
        elif isinstance(src, dict):
            fresh: dict[str, JSON] = {}
            target[key] = fresh
            deep_merge(fresh, src, new_path)
        else:
            target[key] = src


def schema_defaults() -> dict[str, JSON]:
    """The schema defaults the CLI merges first (the hook-related part)."""
    return {
        "security": {
            "folderTrust": {"enabled": True},
            "environmentVariableRedaction": {"allowed": [], "blocked": [], "enabled": False},
            "blockGitExtensions": False,
            "allowedExtensions": [],
        },
        "experimental": {"extensionConfig": True},
        "hooksConfig": {"enabled": True, "disabled": [], "notifications": True},
        "hooks": {event: [] for event in SCHEMA_EVENT_ORDER},
    }


def merge_settings(layers: list[dict[str, JSON]]) -> dict[str, JSON]:
    """``customDeepMerge(schemaDefaults, *layers)``; the inputs are not modified."""
    merged = schema_defaults()
    for layer in layers:
        deep_merge(merged, copy.deepcopy(layer))
    return merged


# --------------------------------------------------------------------------- files


@dataclass
class SettingsFile:
    """One scope's settings.json, as read."""

    scope: SettingsScope
    path: Path
    exists: bool = False
    settings: dict[str, JSON] = field(default_factory=dict)
    """What the merge uses: env-expanded and, when valid, coerced by the schema."""
    raw: dict[str, JSON] = field(default_factory=dict)
    """The object as written (comments stripped), before env expansion."""
    text: str | None = None
    error: str | None = None
    """Why the file was not used (malformed JSON, insecure system file, unreadable...)."""

    @property
    def loaded(self) -> bool:
        return self.exists and self.error is None

    @property
    def hooks(self) -> JSON:
        return self.settings.get("hooks", UNDEFINED)


def read_settings_file(
    scope: SettingsScope,
    path: Path,
    env: Mapping[str, str],
    warnings: list[str],
    *,
    check_security: bool = False,
) -> SettingsFile:
    """Read, strip comments, parse, expand env vars and validate one file.

    Never raises: every problem becomes a warning naming the file (and where in it).
    """
    file = SettingsFile(scope, path)
    if not os.path.exists(path):
        return file
    file.exists = True
    if check_security:
        problem = system_file_insecurity(path)
        if problem is not None:
            file.error = (
                f"Security Warning: Skipping {scope.value} settings file '{path}': {problem}"
            )
            warnings.append(file.error)
            return file
    try:
        data = read_file_bytes(path)
    except OSError as exc:
        file.error = f"{path}: cannot read settings: {exc.strerror or exc}"
        warnings.append(file.error)
        return file
    text = data.decode("utf-8", errors="replace")
    file.text = text
    value, problem_at = parse_jsonc(text)
    if problem_at is not None:
        file.error = problem_at.describe(str(path)) + f"; {scope.value} settings ignored"
        warnings.append(file.error)
        return file
    if not isinstance(value, dict):
        file.error = (
            f"{path}: Settings file is not a valid JSON object; {scope.value} settings ignored"
        )
        warnings.append(file.error)
        return file
    file.raw = value
    expanded = resolve_env_vars(value, env)
    assert isinstance(expanded, dict)
    validated, issues = validate_settings(expanded)
    if issues:
        more = f"; ...and {len(issues) - 5} more" if len(issues) > 5 else ""
        shown = "; ".join(issues[:5]) + more
        warnings.append(f"{path}: invalid configuration ({shown}); the file is used as written")
    file.settings = validated
    return file


def system_file_insecurity(path: Path) -> str | None:
    """Why the CLI refuses a system settings file (isFileAndDirectorySecureSync), if it does.

    The file and every directory above it must be owned by root and not writable by group
    or others; otherwise any local user could inject hooks that run as you.
    """
    if sys.platform == "win32":
        return None
    normalized = os.path.abspath(path)
    if not os.path.exists(normalized):
        return None
    canonical = os.path.realpath(normalized)

    def ancestors(directory: str) -> list[str]:
        found = []
        current = directory
        while True:
            found.append(current)
            parent = os.path.dirname(current)
            if parent == current or not parent:
                return found
            current = parent

    def secure(target: str, want_dir: bool) -> str | None:
        try:
            info = os.stat(target)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"Failed to access path: {exc}"
        kind = "Directory" if stat.S_ISDIR(info.st_mode) else "File"
        if want_dir and not stat.S_ISDIR(info.st_mode):
            return "Not a directory"
        if not want_dir and not stat.S_ISREG(info.st_mode):
            return "Not a file"
        try:
            link = os.lstat(target)
            if stat.S_ISLNK(link.st_mode) and link.st_uid != 0:
                return f"Symlink '{target}' is not owned by root (uid 0)"
        except OSError:
            pass
        if info.st_uid != 0:
            return f"{kind} '{target}' is not owned by root (uid 0). Current uid: {info.st_uid}"
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return (
                f"{kind} '{target}' is writable by group or others "
                f'(mode: {info.st_mode:o}). To fix this, run: sudo chmod g-w,o-w "{target}"'
            )
        return None

    for ancestor in ancestors(os.path.dirname(normalized)):
        reason = secure(ancestor, True)
        if reason:
            return f"Parent directory '{ancestor}' is insecure: {reason}"
    reason = secure(normalized, False)
    if reason:
        return f"File is insecure: {reason}"
    if canonical != normalized:
        reason = secure(canonical, False)
        if reason:
            return f"Resolved target file is insecure: {reason}"
        for ancestor in ancestors(os.path.dirname(canonical)):
            reason = secure(ancestor, True)
            if reason:
                return f"Resolved target parent directory '{ancestor}' is insecure: {reason}"
    return None


# --------------------------------------------------------------------------- result


@dataclass(frozen=True)
class HooksConfig:
    """``hooksConfig`` after the merge."""

    enabled: bool = True
    """The master switch: false means no hook runs and extension hooks are not even read."""
    disabled: tuple[JSON, ...] = ()
    """Names (``name`` or else ``command``) of hooks that stay registered but never run."""
    notifications: bool = True


@dataclass
class LoadedSettings:
    """Every scope, the merge, and the hooks ready for ``build_registry``."""

    paths: SettingsPaths
    profile: Profile
    files: dict[SettingsScope, SettingsFile]
    merged: dict[str, JSON]
    trust: FolderTrust
    hooks_objects: list[HooksObject]
    """In registration order; extension hooks are added by ``extensions.load_extensions``."""
    skipped_hooks_objects: list[HooksObject]
    """Hooks not registered because the folder is untrusted (for ``hooks list``)."""
    hooks_config: HooksConfig
    redaction: RedactionConfig
    hook_trust_mode: HookTrustMode
    warnings: list[str]
    env: Mapping[str, str] = field(default_factory=dict)
    """The environment the settings were expanded with (extensions expand theirs with it)."""

    @property
    def trusted(self) -> bool:
        return self.trust.trusted

    def file(self, scope: SettingsScope) -> SettingsFile:
        return self.files[scope]

    @property
    def project_hooks(self) -> JSON:
        """The workspace file's own ``hooks`` (what the engine fingerprints); {} if untrusted."""
        if not self.trusted:
            return {}
        hooks = self.files[SettingsScope.PROJECT].settings.get("hooks", UNDEFINED)
        return hooks if truthy(hooks) else {}

    def setting(self, *path: str) -> JSON:
        """A merged value by path (``setting("security", "folderTrust", "enabled")``)."""
        value: JSON = self.merged
        for key in path:
            if not isinstance(value, dict):
                return UNDEFINED
            value = value.get(key, UNDEFINED)
        return value


def load_settings(
    paths: SettingsPaths | None = None,
    *,
    profile: Profile = DEFAULT_PROFILE,
    env: Mapping[str, str] | None = None,
) -> LoadedSettings:
    """Load and merge every settings scope. Never raises for bad files; see ``warnings``."""
    environ: Mapping[str, str] = os.environ if env is None else env
    paths = paths or SettingsPaths.from_environment(env=environ)
    warnings: list[str] = []
    files: dict[SettingsScope, SettingsFile] = {}
    for scope in (SettingsScope.SYSTEM, SettingsScope.SYSTEM_DEFAULTS, SettingsScope.USER):
        files[scope] = read_settings_file(
            scope,
            paths.path_for(scope),
            environ,
            warnings,
            check_security=paths.secure_system_files
            and scope in (SettingsScope.SYSTEM, SettingsScope.SYSTEM_DEFAULTS),
        )
    if _same_dir(paths.workspace, paths.home):
        # The workspace's .gemini/settings.json *is* the user file: read it once.
        files[SettingsScope.PROJECT] = SettingsFile(SettingsScope.PROJECT, paths.workspace_settings)
    else:
        files[SettingsScope.PROJECT] = read_settings_file(
            SettingsScope.PROJECT, paths.workspace_settings, environ, warnings
        )

    def layer(scope: SettingsScope) -> dict[str, JSON]:
        return files[scope].settings

    # Trust is decided without the workspace file: a project cannot vouch for itself.
    outside = [
        layer(SettingsScope.SYSTEM_DEFAULTS),
        layer(SettingsScope.USER),
        layer(SettingsScope.SYSTEM),
    ]
    trust_view = merge_settings(outside)
    folder_trust_setting = _get_path(trust_view, "security", "folderTrust", "enabled")
    if folder_trust_setting is UNDEFINED or folder_trust_setting is None:
        folder_trust_setting = True  # ``?? true``
    trust, trust_warnings = folder_trust(
        paths.workspace,
        enabled=truthy(folder_trust_setting),
        trusted_folders_path=paths.trusted_folders,
        env=environ,
    )
    warnings.extend(trust_warnings)
    scopes_in_merge = [s for s in MERGE_ORDER if trust.trusted or s is not SettingsScope.PROJECT]
    merged = merge_settings([layer(s) for s in scopes_in_merge])

    if profile is Profile.GEMINI_CLI:
        # Untrusted: nothing registers; the "as if trusted" merge is kept for listings.
        everything = _engine_hooks_objects(files, list(MERGE_ORDER), warnings)
        objects = everything if trust.trusted else []
        skipped = [] if trust.trusted else everything
        if skipped:
            warnings.append(
                f"Project hooks disabled because the folder is not trusted ({trust.detail}): "
                "no settings hook will run (gemini-cli profile: user and system hooks included)"
            )
    else:
        objects, skipped = _documented_hooks_objects(files, trust.trusted)
        if skipped:
            warnings.append(
                f"Project hooks disabled because the folder is not trusted ({trust.detail}): "
                f"{paths.workspace_settings} is ignored"
            )

    hooks_config = _hooks_config(merged, warnings)
    redaction = _redaction(merged, warnings)
    trust_mode, mode_warnings = resolve_trust_mode(
        environ,
        trust_view.get("hookwise", UNDEFINED),
        project_value=_get_path(layer(SettingsScope.PROJECT), "hookwise", "hookTrust"),
    )
    warnings.extend(mode_warnings)
    return LoadedSettings(
        paths=paths,
        profile=profile,
        files=files,
        merged=merged,
        trust=trust,
        hooks_objects=objects,
        skipped_hooks_objects=skipped,
        hooks_config=hooks_config,
        redaction=redaction,
        hook_trust_mode=trust_mode,
        warnings=warnings,
        env=dict(environ),
    )


def _same_dir(a: Path, b: Path) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except OSError:
        return False


def _get_path(value: JSON, *keys: str) -> JSON:
    for key in keys:
        if not isinstance(value, dict):
            return UNDEFINED
        value = value.get(key, UNDEFINED)
    return value


def _documented_hooks_objects(
    files: dict[SettingsScope, SettingsFile], trusted: bool
) -> tuple[list[HooksObject], list[HooksObject]]:
    """One object per file, each with its own source; the registry orders them."""
    objects: list[HooksObject] = []
    skipped: list[HooksObject] = []
    order = (
        SettingsScope.PROJECT,
        SettingsScope.USER,
        SettingsScope.SYSTEM,
        SettingsScope.SYSTEM_DEFAULTS,
    )
    for scope in order:
        file = files[scope]
        if not file.loaded or "hooks" not in file.settings:
            continue
        source = DOCUMENTED_SOURCES[scope]
        obj = HooksObject(file.settings["hooks"], source, str(file.path), scope.value)
        if scope is SettingsScope.PROJECT and not trusted:
            skipped.append(obj)
        else:
            objects.append(obj)
    return objects, skipped


@dataclass
class _Tracked:
    """A merged ``hooks[event]`` value and, per element, the file it came from."""

    value: JSON
    origins: list[SettingsScope]


def _engine_hooks_objects(
    files: dict[SettingsScope, SettingsFile],
    scopes: list[SettingsScope],
    warnings: list[str],
) -> list[HooksObject]:
    """The merged ``hooks`` as the engine registers it, split by file for messages.

    This replays ``mergeRecursively`` on the ``hooks`` subtree while remembering where each
    definition came from. Registering the returned objects in order gives every event the
    same hook list as registering the merged object (systemDefaults + user + project +
    system), and keeps file paths in the registry's warnings.
    """
    tracked: dict[str, _Tracked] | _Tracked = {
        event: _Tracked([], []) for event in SCHEMA_EVENT_ORDER
    }
    for scope in scopes:
        file = files[scope]
        if "hooks" not in file.settings:
            continue
        src = file.settings["hooks"]
        if isinstance(tracked, dict) and isinstance(src, dict):
            _merge_tracked_hooks(tracked, src, scope, str(file.path), warnings)
        elif isinstance(src, dict):
            tracked = {}
            _merge_tracked_hooks(tracked, src, scope, str(file.path), warnings)
        else:
            tracked = _Tracked(copy.deepcopy(src), [scope])

    objects: list[HooksObject] = []
    if isinstance(tracked, _Tracked):
        if truthy(tracked.value):  # ``settings.hooks || {}``
            scope = tracked.origins[-1]
            origin = str(files[scope].path)
            objects.append(HooksObject(tracked.value, Source.PROJECT, origin, scope.value))
        return objects
    for event, item in tracked.items():
        if not isinstance(item.value, list):
            scope = item.origins[-1]
            origin = str(files[scope].path)
            objects.append(HooksObject({event: item.value}, Source.PROJECT, origin, scope.value))
            continue
        for scope, run in _runs(item):
            objects.append(
                HooksObject({event: run}, Source.PROJECT, str(files[scope].path), scope.value)
            )
    return objects


def _runs(item: _Tracked) -> Iterator[tuple[SettingsScope, list[JSON]]]:
    start = 0
    values = item.value
    assert isinstance(values, list)
    for index in range(1, len(values) + 1):
        if index == len(values) or item.origins[index] is not item.origins[start]:
            yield item.origins[start], values[start:index]
            start = index


def _merge_tracked_hooks(
    target: dict[str, _Tracked],
    source: dict[str, JSON],
    scope: SettingsScope,
    origin: str,
    warnings: list[str],
) -> None:
    """``mergeRecursively`` one level below ``hooks``, keeping each element's file."""
    for key, value in source.items():
        if key in _SKIPPED_KEYS:
            continue
        src = copy.deepcopy(value)
        current = target.get(key)
        obj: JSON = current.value if current is not None else UNDEFINED
        if isinstance(obj, list) and merge_strategy(("hooks", key)) == "concat":
            assert current is not None
            if not isinstance(src, list):
                warnings.append(
                    f"{origin}: hooks.{key} is not an array; Gemini CLI appends it as one "
                    "hook definition"
                )
            added = src if isinstance(src, list) else [src]
            current.value = [*obj, *added]
            current.origins = [*current.origins, *([scope] * len(added))]
        elif isinstance(obj, dict) and isinstance(src, dict):
            assert current is not None
            deep_merge(obj, src, ("hooks", key))
            current.origins = [scope]
        elif isinstance(src, dict):
            fresh: dict[str, JSON] = {}
            deep_merge(fresh, src, ("hooks", key))
            target[key] = _Tracked(fresh, [scope])
        else:
            target[key] = _Tracked(src, [scope] * len(src) if isinstance(src, list) else [scope])


def _hooks_config(merged: dict[str, JSON], warnings: list[str]) -> HooksConfig:
    section = merged.get("hooksConfig", UNDEFINED)
    if not isinstance(section, dict):
        warnings.append(
            f"hooksConfig must be an object (got {js_string(section)}); hooks are off, "
            "as in Gemini CLI"
        )
        return HooksConfig(enabled=False)
    disabled = section.get("disabled", UNDEFINED)
    # The schema default ([]) and the union merge make this an array in practice.
    disabled_value: tuple[JSON, ...] = tuple(disabled) if isinstance(disabled, list) else ()
    if truthy(disabled) and not isinstance(disabled, list):
        warnings.append("hooksConfig.disabled must be an array of hook names; ignored")
    return HooksConfig(
        enabled=truthy(section.get("enabled", UNDEFINED)),
        disabled=disabled_value,
        notifications=truthy(section.get("notifications", UNDEFINED)),
    )


def _redaction(merged: dict[str, JSON], warnings: list[str]) -> RedactionConfig:
    section = _get_path(merged, "security", "environmentVariableRedaction")
    if not isinstance(section, dict):
        return RedactionConfig()

    def names(key: str) -> tuple[str, ...]:
        value = section.get(key, UNDEFINED)
        if not truthy(value):
            return ()
        if not isinstance(value, list):
            warnings.append(
                f"security.environmentVariableRedaction.{key} must be an array; ignored"
            )
            return ()
        bad = [v for v in value if not isinstance(v, str)]
        if bad:
            warnings.append(
                f"security.environmentVariableRedaction.{key}: non-string entries ignored"
            )
        return tuple(v for v in value if isinstance(v, str))

    return RedactionConfig(
        enabled=truthy(section.get("enabled", UNDEFINED)),
        allowed=names("allowed"),
        blocked=names("blocked"),
    )


# --------------------------------------------------------------------------- editing


class SettingsEditError(ValueError):
    """A settings file could not be changed safely (it was left untouched)."""


def update_disabled_hooks(path: Path, disabled: list[str]) -> None:
    """Set ``hooksConfig.disabled`` in one settings file, keeping everything else as written.

    Comments, formatting and the other keys stay byte for byte; only the array (or the
    member holding it) is rewritten. A missing file is created. A file that does not parse
    is refused: hookwise never rewrites what it cannot read.
    """
    value_text = json.dumps(disabled, ensure_ascii=False)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        content = json.dumps({"hooksConfig": {"disabled": disabled}}, indent=2, ensure_ascii=False)
        write_text_atomic(path, content)
        return
    original = read_file_text(path)
    stripped = strip_json_comments(original)
    root, problem = parse_json_text(stripped)
    if problem is not None:
        raise SettingsEditError(problem.describe(str(path)) + "; fix it before changing it")
    if not isinstance(root, dict):
        raise SettingsEditError(f"{path}: Settings file is not a valid JSON object")
    root_brace = scan_ws(stripped, 0)
    members, _ = object_members(stripped, root_brace)
    section = [m for m in members if m.key == "hooksConfig"]
    if not section:
        updated = insert_member(
            original, stripped, root_brace, "hooksConfig", f'{{"disabled": {value_text}}}'
        )
    elif stripped[section[-1].value_start] != "{":
        m = section[-1]
        updated = (
            original[: m.value_start] + f'{{"disabled": {value_text}}}' + original[m.value_end :]
        )
    else:
        inner, _ = object_members(stripped, section[-1].value_start)
        current = [m for m in inner if m.key == "disabled"]
        if current:
            m = current[-1]
            updated = original[: m.value_start] + value_text + original[m.value_end :]
        else:
            updated = insert_member(
                original, stripped, section[-1].value_start, "disabled", value_text
            )
    check, problem = parse_jsonc(updated)
    if (
        problem is not None
        or not isinstance(check, dict)
        or _get_path(check, "hooksConfig", "disabled") != disabled
    ):
        raise SettingsEditError(f"{path}: could not update hooksConfig.disabled safely")
    write_text_atomic(path, updated)


__all__ = [
    "MERGE_ORDER",
    "HooksConfig",
    "JsonSyntaxError",
    "LoadedSettings",
    "SettingsEditError",
    "SettingsFile",
    "SettingsPaths",
    "SettingsScope",
    "deep_merge",
    "js_number_from_string",
    "load_settings",
    "locate_json_error",
    "merge_settings",
    "parse_json_text",
    "parse_jsonc",
    "read_settings_file",
    "resolve_env_vars",
    "strip_json_comments",
    "system_file_insecurity",
    "update_disabled_hooks",
    "validate_settings",
]
