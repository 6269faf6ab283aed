"""Extension hooks: ``<extension>/hooks/hooks.json`` under ``~/.gemini/extensions``.

Follows Gemini CLI's ExtensionManager (cli/src/config/extension-manager.ts). Only the user
extensions directory is scanned (0.61 has no workspace extensions), one sub-directory per
extension, in name order; an extension needs a ``gemini-extension.json`` with a valid name
and a version, may be a link to another directory (``.gemini-extension-install.json``), and
is active unless ``extensions/extension-enablement.json`` disables it for the workspace.

Every string of ``hooks.json`` is hydrated: ``${extensionPath}``, ``${workspacePath}``,
``${/}``, ``${pathSeparator}`` and the extension's settings (from its ``.env`` files) are
replaced, and unknown placeholders stay as written. Settings the extension declares are also
added to each command hook's ``env``. With ``hooksConfig.enabled`` false no ``hooks.json`` is
read at all.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from hookwise.config.env_expansion import resolve_env_vars
from hookwise.config.files import read_file_text
from hookwise.config.gemini.paths import SettingsPaths
from hookwise.config.gemini.settings import LoadedSettings, load_settings
from hookwise.config.jsonc import parse_json_text
from hookwise.config.model import Source
from hookwise.config.registry import HooksObject, Registry, build_registry
from hookwise.protocol.jsvalue import (
    JSON,
    UNDEFINED,
    JSTypeError,
    get,
    js_string,
    js_trim,
    spread,
    truthy,
    utf16_units,
)
from hookwise.protocol.profiles import DEFAULT_PROFILE, Profile

CONFIG_FILENAME: Final = "gemini-extension.json"
INSTALL_METADATA_FILENAME: Final = ".gemini-extension-install.json"
ENABLEMENT_FILENAME: Final = "extension-enablement.json"
SETTINGS_FILENAME: Final = ".env"
_IGNORED_KEYS: Final = frozenset({"__proto__", "constructor", "prototype"})
_VALID_NAME: Final = re.compile(r"[a-zA-Z0-9-]+")

# ``.`` of a JS regex stops at any line terminator, not only at "\n".
_PLACEHOLDER: Final = re.compile(r"\$\{([^\n\r\u2028\u2029]*?)\}")


# --------------------------------------------------------------------------- hydration


def hydrate_string(text: str, context: Mapping[str, str]) -> str:
    """``hydrateString``: ``${name}`` from the context; unknown names stay as written."""

    def substitute(match: re.Match[str]) -> str:
        value = context.get(match.group(1))
        return match.group(0) if value is None else value

    return _PLACEHOLDER.sub(substitute, text)


def hydrate(value: JSON, context: Mapping[str, str]) -> JSON:
    """``recursivelyHydrateStrings``: every string, in arrays and objects, keys untouched."""
    if isinstance(value, str):
        return hydrate_string(value, context)
    if isinstance(value, list):
        return [hydrate(item, context) for item in value]
    if isinstance(value, dict):
        return {k: hydrate(v, context) for k, v in value.items() if k not in _IGNORED_KEYS}
    return value


# --------------------------------------------------------------------------- .env

_JS_S: Final = (
    "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_LT: Final = "\\n\\r\\u2028\\u2029"
# dotenv 17's LINE regex, with JS's \s, \w, ".", "^" and "$" (multiline) spelled out.
_DOTENV_LINE: Final = re.compile(
    rf"(?<![^{_LT}])[{_JS_S}]*(?:export[{_JS_S}]+)?([A-Za-z0-9_.-]+)"
    rf"(?:[{_JS_S}]*=[{_JS_S}]*?|:[{_JS_S}]+?)"
    rf"([{_JS_S}]*'(?:\\'|[^'])*'|[{_JS_S}]*\"(?:\\\"|[^\"])*\"|[{_JS_S}]*`(?:\\`|[^`])*`|[^#\r\n]+)?"
    rf"[{_JS_S}]*(?:#[^{_LT}]*)?(?=[{_LT}]|\Z)"
)
_DOTENV_QUOTED: Final = re.compile(rf"(?<![^{_LT}])(['\"`])([\s\S]*)\1(?=[{_LT}]|\Z)")


def parse_dotenv(text: str) -> dict[str, str]:
    """``dotenv.parse`` (dotenv 17), which is what reads an extension's settings."""
    out: dict[str, str] = {}
    lines = re.sub(r"\r\n?", "\n", text)
    for match in _DOTENV_LINE.finditer(lines):
        key = match.group(1)
        value = js_trim(match.group(2) or "")
        quote = value[:1]
        value = _DOTENV_QUOTED.sub(lambda m: m.group(2), value)
        if quote == '"':
            value = value.replace("\\n", "\n").replace("\\r", "\r")
        if key != "__proto__":  # assigning a string to __proto__ is a no-op in JS
            out[key] = value
    return out


def _read_dotenv(path: Path, warnings: list[str]) -> dict[str, str]:
    if not path.exists() or path.is_dir():
        return {}
    try:
        return parse_dotenv(read_file_text(path))
    except OSError as exc:
        warnings.append(f"{path}: cannot read extension settings: {exc.strerror or exc}")
        return {}


# --------------------------------------------------------------------------- enablement


def _ensure_slashes(path: str) -> str:
    result = path.replace("\\", "/")
    if not result.startswith("/"):
        result = "/" + result
    if not result.endswith("/"):
        result += "/"
    return result


def _glob_to_regex(glob: str) -> re.Pattern[str]:
    escaped = re.sub(r"[.+?^${}()|\[\]\\]", lambda m: "\\" + m.group(0), glob)
    body = re.sub(r"(/?)\*", lambda m: f"({m.group(1)}.*)?", escaped)
    return re.compile(f"^{body}\\Z", re.DOTALL)


def extension_enabled(
    rules: Mapping[str, JSON], name: str, workspace: str, overrides: Sequence[str] = ()
) -> bool:
    """``ExtensionEnablementManager.isEnabled``: ``--extensions`` list, else the last rule."""
    wanted = [o.lower() for o in overrides]
    if wanted == ["none"]:
        return False
    if wanted:
        return name.lower() in wanted
    config = rules.get(name)
    enabled = True
    patterns = config.get("overrides", []) if isinstance(config, dict) else []
    current = _ensure_slashes(workspace)
    for rule in patterns if isinstance(patterns, list) else []:
        if not isinstance(rule, str):
            continue
        disable = rule.startswith("!")
        base = rule[1:] if disable else rule
        subdirs = base.endswith("*")
        base = base[:-1] if subdirs else base
        if _glob_to_regex(base + ("*" if subdirs else "")).search(current):
            enabled = not disable
    return enabled


def _read_enablement(path: Path, warnings: list[str]) -> dict[str, JSON]:
    if not path.exists():
        return {}
    try:
        text = read_file_text(path)
    except OSError as exc:
        warnings.append(f"{path}: Failed to read extension enablement config: {exc}")
        return {}
    value, problem = parse_json_text(text)
    valid = isinstance(value, dict) and all(
        isinstance(v, dict)
        and isinstance(v.get("overrides"), list)
        and all(isinstance(r, str) for r in v["overrides"])
        for v in value.values()
    )
    if problem is not None or not valid:
        detail = problem.describe(str(path)) if problem else f"{path}: unexpected content"
        warnings.append(f"Failed to read extension enablement config: {detail}")
        return {}
    assert isinstance(value, dict)
    return value


# --------------------------------------------------------------------------- loading


@dataclass
class Extension:
    """One installed extension, as far as hooks are concerned."""

    name: str
    version: JSON
    path: Path
    """Where its files are (the link target for linked extensions)."""
    directory: Path
    """Its directory under the extensions dir."""
    active: bool
    hooks: JSON = None
    """The hydrated ``hooks`` object of hooks/hooks.json; None when there is none."""
    settings_env: dict[str, str] = field(default_factory=dict)

    @property
    def hooks_file(self) -> Path:
        return self.path / "hooks" / "hooks.json"

    @property
    def scope(self) -> str:
        return f"extension:{self.name}"


@dataclass
class ExtensionHooks:
    extensions: list[Extension] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def objects(self) -> list[HooksObject]:
        """Hooks of active extensions, for ``build_registry``, in extension order."""
        return [
            HooksObject(ext.hooks, Source.EXTENSIONS, str(ext.hooks_file), ext.scope)
            for ext in self.extensions
            if ext.active and ext.hooks is not None
        ]


def _js_iterate(value: JSON, what: str) -> Iterator[JSON]:
    """``for (const x of value)``: arrays and strings iterate, anything else throws."""
    if isinstance(value, list):
        yield from value
    elif isinstance(value, str):
        yield from utf16_units(value)
    else:
        raise JSTypeError(f"{what} is not iterable")


def _add_settings_env(hooks: JSON, hook_env: dict[str, str]) -> None:
    """Merge declared setting values into each command hook's ``env``, in place."""
    for event in list(hooks) if isinstance(hooks, dict) else []:
        definitions = hooks[event]
        if not truthy(definitions):
            continue
        for definition in _js_iterate(definitions, f"hooks.{event}"):
            for hook in _js_iterate(get(definition, "hooks"), f"hooks.{event}[].hooks"):
                if get(hook, "type") == "command" and isinstance(hook, dict):
                    hook["env"] = {**spread(hook.get("env", UNDEFINED)), **hook_env}


def _load_one(
    directory: Path,
    settings: LoadedSettings,
    enablement: Mapping[str, JSON],
    overrides: Sequence[str],
    warnings: list[str],
) -> Extension | None:
    workspace = str(settings.paths.workspace)
    metadata = _read_metadata(directory)
    allowed = settings.setting("security", "allowedExtensions")
    source = metadata.get("source") if isinstance(metadata, dict) else None
    kind = metadata.get("type") if isinstance(metadata, dict) else None
    if isinstance(allowed, list) and allowed:
        if not isinstance(source, str) or not source:
            warnings.append(
                f"Failed to load extension {directory}. The {INSTALL_METADATA_FILENAME} file is "
                "missing or misconfigured (security.allowedExtensions is set)."
            )
            return None
        real_source = os.path.realpath(source) if os.path.exists(source) else source
        try:
            permitted = any(re.search(js_string(p), real_source) for p in allowed)
        except re.error as exc:
            warnings.append(f"Invalid regex pattern in allowedExtensions setting: {exc}")
            return None
        if not permitted:
            warnings.append(
                f"Failed to load extension {directory}. This extension is not allowed by the "
                '"allowedExtensions" security setting.'
            )
            return None
    elif kind in ("git", "github-release") and truthy(
        settings.setting("security", "blockGitExtensions")
    ):
        warnings.append(
            f"Failed to load extension {directory}. Extensions from remote sources is "
            "disallowed by your current settings."
        )
        return None
    path = Path(source) if kind == "link" and isinstance(source, str) else directory
    try:
        return _build(
            directory,
            path,
            settings=settings,
            workspace=workspace,
            enablement=enablement,
            overrides=overrides,
            warnings=warnings,
        )
    except (ValueError, JSTypeError, OSError) as exc:
        warnings.append(f"Warning: Skipping extension in {path}: {exc}")
        return None


def _read_metadata(directory: Path) -> JSON:
    try:
        text = read_file_text(directory / INSTALL_METADATA_FILENAME)
    except OSError:
        return None
    value, problem = parse_json_text(text)
    return None if problem else value


def _build(
    directory: Path,
    path: Path,
    *,
    settings: LoadedSettings,
    workspace: str,
    enablement: Mapping[str, JSON],
    overrides: Sequence[str],
    warnings: list[str],
) -> Extension:
    config_path = path / CONFIG_FILENAME
    if not config_path.exists():
        raise ValueError(f"Configuration file not found at {config_path}")
    raw, problem = parse_json_text(read_file_text(config_path))
    if problem is not None:
        raise ValueError(f"Failed to load extension config: {problem.describe(str(config_path))}")
    if not truthy(get(raw, "name")) or not truthy(get(raw, "version")):
        missing = '"name"' if not truthy(get(raw, "name")) else '"version"'
        raise ValueError(f"Invalid configuration in {config_path}: missing {missing}")
    base = {
        "extensionPath": str(path),
        "workspacePath": workspace,
        "/": os.sep,
        "pathSeparator": os.sep,
    }
    config = hydrate(raw, base)
    name = js_string(get(config, "name"))
    if not _VALID_NAME.fullmatch(name):
        raise ValueError(
            f'Invalid extension name: "{name}". Only letters (a-z, A-Z), numbers (0-9), and '
            "dashes (-) are allowed."
        )
    custom: dict[str, str] = {}
    if truthy(settings.setting("experimental", "extensionConfig")):
        custom.update(_read_dotenv(settings.paths.extensions_dir / name / ".env", warnings))
        if settings.trusted:
            custom.update(_read_dotenv(Path(workspace) / SETTINGS_FILENAME, warnings))
        declared = get(config, "settings")
        if isinstance(declared, list) and any(
            isinstance(s, dict) and truthy(s.get("sensitive")) for s in declared
        ):
            warnings.append(
                f"extension {name}: sensitive settings live in the OS keychain, which hookwise "
                "does not read; hooks see only the values of its .env files"
            )
    config = resolve_env_vars(config, settings.env, custom)
    name = js_string(get(config, "name"))
    context = {**base, **custom, "/": os.sep, "pathSeparator": os.sep}
    hooks: JSON = None
    if truthy(settings.setting("hooksConfig", "enabled")):
        hooks = _load_hooks(path / "hooks" / "hooks.json", context, warnings)
    declared = get(config, "settings")
    if hooks is not None and truthy(declared):
        hook_env: dict[str, str] = {}
        for setting in _js_iterate(declared, "settings"):
            var = js_string(get(setting, "envVar"))
            if var in custom:
                hook_env[var] = custom[var]
        if hook_env:
            _add_settings_env(hooks, hook_env)
    return Extension(
        name=name,
        version=get(config, "version"),
        path=path,
        directory=directory,
        active=extension_enabled(enablement, name, workspace, overrides),
        hooks=hooks,
        settings_env=custom,
    )


def _load_hooks(hooks_file: Path, context: Mapping[str, str], warnings: list[str]) -> JSON:
    try:
        text = read_file_text(hooks_file)
    except FileNotFoundError:
        return None
    except OSError as exc:
        warnings.append(f"Failed to load extension hooks from {hooks_file}: {exc.strerror or exc}")
        return None
    value, problem = parse_json_text(text)
    if problem is not None:
        warnings.append(
            f"Failed to load extension hooks from {hooks_file}: {problem.describe(str(hooks_file))}"
        )
        return None
    hooks = value.get("hooks", UNDEFINED) if isinstance(value, dict) else UNDEFINED
    if not isinstance(hooks, dict):
        warnings.append(
            f'Invalid hooks configuration in {hooks_file}: "hooks" property must be an object'
        )
        return None
    return hydrate(hooks, context)


def load_extensions(
    settings: LoadedSettings, *, enabled_extensions: Sequence[str] = ()
) -> ExtensionHooks:
    """Every extension under the user extensions dir; hooks only from active ones count.

    ``enabled_extensions`` is the CLI's ``--extensions`` list (``["none"]`` disables all).
    """
    result = ExtensionHooks()
    root = settings.paths.extensions_dir
    if not root.is_dir():
        return result
    enablement = _read_enablement(root / ENABLEMENT_FILENAME, result.warnings)
    try:
        names = sorted(os.listdir(root), key=os.fsencode)
    except OSError as exc:
        result.warnings.append(f"{root}: cannot list extensions: {exc.strerror or exc}")
        return result
    seen: set[str] = set()
    for entry in names:
        directory = root / entry
        if not directory.is_dir():
            continue
        extension = _load_one(directory, settings, enablement, enabled_extensions, result.warnings)
        if extension is None:
            continue
        if extension.name in seen:
            result.warnings.append(
                f"Extension with name {extension.name} already was loaded; {directory} skipped"
            )
            continue
        seen.add(extension.name)
        result.extensions.append(extension)
    return result


# --------------------------------------------------------------------------- everything


@dataclass
class HookSources:
    """Every place hooks come from, ready to register: settings, then extensions."""

    settings: LoadedSettings
    extensions: ExtensionHooks

    @property
    def enabled(self) -> bool:
        return self.settings.hooks_config.enabled

    @property
    def objects(self) -> list[HooksObject]:
        return [*self.settings.hooks_objects, *self.extensions.objects]

    @property
    def warnings(self) -> list[str]:
        return [*self.settings.warnings, *self.extensions.warnings]

    def registry(self) -> Registry:
        """What the host runs: nothing at all when ``hooksConfig.enabled`` is false."""
        if not self.enabled:
            return Registry(warnings=["hooksConfig.enabled is false: no hook will run"])
        return build_registry(self.objects, self.settings.hooks_config.disabled)


def load_hook_sources(
    paths: SettingsPaths | None = None,
    *,
    profile: Profile = DEFAULT_PROFILE,
    env: Mapping[str, str] | None = None,
    enabled_extensions: Sequence[str] = (),
) -> HookSources:
    """Settings of every scope plus extension hooks: what a host needs to build its registry."""
    settings = load_settings(paths, profile=profile, env=env)
    return HookSources(settings, load_extensions(settings, enabled_extensions=enabled_extensions))


def extension_servers(
    settings: LoadedSettings, workspace: Path
) -> Iterator[tuple[Extension, Path, JSON]]:
    """(extension, its manifest, the manifest's ``mcpServers`` hydrated as Gemini CLI does:
    ``${extensionPath}``, ``${workspacePath}``, ``${/}``) of every installed extension, active
    or not: scan and doctor read the servers an extension starts (red team s35 MCP F7:
    ``gemini extensions link DIR`` adds one install --mcp never wrote)."""
    for extension in load_extensions(settings).extensions:
        manifest = extension.path / CONFIG_FILENAME
        try:
            text = read_file_text(manifest)
        except (OSError, ValueError):  # (missing, unreadable, too large: no servers)
            continue
        raw, problem = parse_json_text(text)
        if problem is not None or not isinstance(raw, dict):
            continue
        context = {
            "extensionPath": str(extension.path),
            "workspacePath": str(workspace),
            "/": os.sep,
            "pathSeparator": os.sep,
        }
        config = hydrate(raw, context)
        if isinstance(config, dict):
            yield extension, manifest, config.get("mcpServers")
