"""Where Gemini CLI's settings files live, per scope.

Four files can define hooks: system defaults, user (``~/.gemini/settings.json``), project
(``<workspace>/.gemini/settings.json``) and system settings; beside them sit the trusted
folders file, the extensions directory and the hook-trust stores. Every location follows the
CLI's defaults and environment variables (``GEMINI_CLI_HOME``,
``GEMINI_CLI_SYSTEM_SETTINGS_PATH``...) and can be overridden (tests, ``--home``...).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Final


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


GEMINI_DIR: Final = ".gemini"
HOOKWISE_TRUST_STORE: Final = "hookwise_trusted_hooks.json"


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


__all__ = [
    "GEMINI_DIR",
    "HOOKWISE_TRUST_STORE",
    "MERGE_ORDER",
    "SettingsPaths",
    "SettingsScope",
]
