"""Building a HookSystem for a project from everything Gemini CLI would read.

Settings of every scope, extension hooks, folder trust and the project-hook trust check
come from config/; this module only wires them into the host runtime.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from hookwise.config.extensions import load_hook_sources
from hookwise.config.settings import SettingsPaths
from hookwise.config.trust import check_project_hooks
from hookwise.host.execute import ExecutionSettings
from hookwise.host.system import HookSystem
from hookwise.protocol.profiles import DEFAULT_PROFILE, Profile


def default_plans_dir(project_dir: Path, home: Path) -> str:
    """Where plan files go ($GEMINI_PLANS_DIR): a per-project folder under the home."""
    name = project_dir.name or "root"
    return str(home / ".gemini" / "tmp" / name / "plans")


def load_hook_system(
    project_dir: str | os.PathLike[str] = ".",
    *,
    profile: Profile = DEFAULT_PROFILE,
    home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    session_id: str | None = None,
    paths: SettingsPaths | None = None,
) -> HookSystem:
    """A HookSystem for ``project_dir`` with its merged settings and extension hooks.

    Loading never raises on bad settings: every problem becomes a warning on the
    returned system (``system.warnings``) and the valid parts still load.
    """
    environ = os.environ if env is None else env
    settings_paths = paths or SettingsPaths.from_environment(project_dir, env=environ, home=home)
    sources = load_hook_sources(settings_paths, profile=profile, env=environ)
    report = check_project_hooks(sources.settings)
    workspace = settings_paths.workspace
    execution = ExecutionSettings(
        profile=profile,
        base_env=dict(environ),
        redaction=sources.settings.redaction,
        plans_dir=default_plans_dir(workspace, settings_paths.home),
        default_cwd=str(workspace),
        refuse=report.refuse,
    )
    return HookSystem(
        sources.registry(),
        profile=profile,
        cwd=str(workspace),
        session_id=session_id,
        execution=execution,
        warnings=[*sources.warnings, *report.warnings],
    )
