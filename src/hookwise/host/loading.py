"""Building a HookSystem for a project from everything Gemini CLI would read.

Settings of every scope, extension hooks, folder trust and the project-hook trust check
come from config/; this module only wires them into the host runtime.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from hookwise.config.claude_settings import load_claude_hooks
from hookwise.config.codex_settings import load_codex_hooks
from hookwise.config.detect import detect_dialect
from hookwise.config.dialect_hooks import DialectHooks
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
    dialect: str | None = None,
    bypass_hook_trust: bool = False,
) -> HookSystem:
    """A HookSystem for ``project_dir`` with its merged settings and extension hooks.

    ``dialect`` None detects Gemini CLI, Claude Code or Codex from the project's settings
    files. Loading never raises on bad settings: every problem becomes a warning on the
    returned system (``system.warnings``) and the valid parts still load.
    """
    environ = os.environ if env is None else env
    chosen = dialect or detect_dialect(project_dir, home=home)
    if chosen != "gemini":
        return _load_dialect(
            chosen,
            project_dir,
            home=home,
            env=environ,
            session_id=session_id,
            bypass_hook_trust=bypass_hook_trust,
        )
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


def _load_dialect(
    dialect: str,
    project_dir: str | os.PathLike[str],
    *,
    home: str | os.PathLike[str] | None,
    env: Mapping[str, str],
    session_id: str | None,
    bypass_hook_trust: bool = False,
) -> HookSystem:
    workspace = str(Path(os.path.realpath(os.path.abspath(project_dir))))
    loaded: DialectHooks = (
        load_claude_hooks(workspace, home=home, env=env)
        if dialect == "claude"
        else load_codex_hooks(workspace, home=home, env=env, bypass_hook_trust=bypass_hook_trust)
    )
    execution = ExecutionSettings(
        profile=DEFAULT_PROFILE, base_env={**env, **loaded.env}, default_cwd=workspace
    )
    return HookSystem(
        loaded.registry,
        cwd=workspace,
        session_id=session_id,
        execution=execution,
        warnings=loaded.warnings,
        dialect=dialect,
    )
