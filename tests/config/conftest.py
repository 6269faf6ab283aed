"""A throw-away Gemini layout: home, workspace and system files under tmp_path."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from hookwise.config.gemini.extensions import HookSources, load_hook_sources
from hookwise.config.gemini.paths import SettingsPaths
from hookwise.config.gemini.settings import LoadedSettings, load_settings
from hookwise.protocol.profiles import Profile


@dataclass
class Layout:
    root: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def workspace(self) -> Path:
        return self.root / "ws"

    @property
    def system_dir(self) -> Path:
        return self.root / "etc"

    @property
    def paths(self) -> SettingsPaths:
        return SettingsPaths.from_environment(
            self.workspace,
            env=self.env,
            home=self.home,
            system_settings=self.system_dir / "settings.json",
            secure_system_files=False,
        )

    def path(self, scope: str) -> Path:
        return {
            "user": self.home / ".gemini" / "settings.json",
            "project": self.workspace / ".gemini" / "settings.json",
            "system": self.system_dir / "settings.json",
            "systemDefaults": self.system_dir / "system-defaults.json",
            "trustedFolders": self.home / ".gemini" / "trustedFolders.json",
        }[scope]

    def write(self, scope: str, content: Any) -> Path:
        target = self.path(scope)
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        elif isinstance(content, str):
            target.write_text(content)
        else:
            target.write_text(json.dumps(content, indent=2))
        return target

    def trust_workspace(self) -> None:
        self.write("trustedFolders", {str(self.workspace): "TRUST_FOLDER"})

    def extension(
        self,
        dirname: str,
        config: dict[str, Any] | None = None,
        hooks: Any = None,
        env: str | None = None,
    ) -> Path:
        directory = self.home / ".gemini" / "extensions" / dirname
        directory.mkdir(parents=True, exist_ok=True)
        if config is not None:
            (directory / "gemini-extension.json").write_text(json.dumps(config))
        if hooks is not None:
            (directory / "hooks").mkdir(exist_ok=True)
            text = hooks if isinstance(hooks, str) else json.dumps(hooks)
            (directory / "hooks" / "hooks.json").write_text(text)
        if env is not None:
            (directory / ".env").write_text(env)
        return directory

    def load(self, profile: Profile = Profile.DOCUMENTED) -> LoadedSettings:
        return load_settings(self.paths, profile=profile, env=self.env)

    def sources(self, profile: Profile = Profile.DOCUMENTED) -> HookSources:
        return load_hook_sources(self.paths, profile=profile, env=self.env)


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    lay = Layout(tmp_path)
    lay.home.mkdir()
    lay.workspace.mkdir()
    lay.system_dir.mkdir()
    return lay


def command_hook(command: str, name: str | None = None, **extra: Any) -> dict[str, Any]:
    hook: dict[str, Any] = {"type": "command", "command": command}
    if name is not None:
        hook["name"] = name
    hook.update(extra)
    return hook


def hooks_of(event: str, *hooks: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    definition: dict[str, Any] = {"hooks": list(hooks)}
    if matcher is not None:
        definition["matcher"] = matcher
    return {"hooks": {event: [definition]}}
