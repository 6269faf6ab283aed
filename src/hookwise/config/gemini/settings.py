"""Gemini CLI's settings from every scope, loaded and merged the way the CLI does it.

Loading follows the CLI's ``loadSettings`` (cli/src/config/settings.ts): each scope's file is
read (``settings_file``), folder trust is decided without the workspace file (a project
cannot vouch for itself), the trusted scopes are merged (``merge``) and the hooks each
file contributes are taken per profile (``hook_layers``). Where the CLI would stop with
a fatal error (a malformed file), hookwise warns and keeps every other scope.

How the merged hooks become registered hooks is what the two profiles disagree on:

* ``gemini-cli``: one concatenated list per event (systemDefaults + user + project + system),
  every hook labelled ``project``, none of them when the folder is untrusted.
* ``documented``: each file keeps its own label (project > user > system > extensions), and an
  untrusted folder only loses the project file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hookwise.config.environment import RedactionConfig
from hookwise.config.gemini.folder_trust import folder_trust
from hookwise.config.gemini.hook_layers import documented_hooks_objects, engine_hooks_objects
from hookwise.config.gemini.merge import merge_settings
from hookwise.config.gemini.paths import MERGE_ORDER, SettingsPaths, SettingsScope
from hookwise.config.gemini.settings_file import SettingsFile, read_settings_file
from hookwise.config.hook_trust_mode import HookTrustMode, resolve_trust_mode
from hookwise.config.registry import HooksObject
from hookwise.config.workspace_trust import FolderTrust
from hookwise.protocol.jsvalue import JSON, UNDEFINED, js_string, truthy
from hookwise.protocol.profiles import DEFAULT_PROFILE, Profile


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
        return _get_path(self.merged, *path)


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
        everything = engine_hooks_objects(files, list(MERGE_ORDER), warnings)
        objects = everything if trust.trusted else []
        skipped = [] if trust.trusted else everything
        if skipped:
            warnings.append(
                f"Project hooks disabled because the folder is not trusted ({trust.detail}): "
                "no settings hook will run (gemini-cli profile: user and system hooks included)"
            )
    else:
        objects, skipped = documented_hooks_objects(files, trust.trusted)
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


__all__ = ["HooksConfig", "LoadedSettings", "load_settings"]
