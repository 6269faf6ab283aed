"""The settings file ``hookwise install`` registers in, for a host and a scope."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from hookwise.config.host_homes import claude_config_dir, codex_home, gemini_home
from hookwise.protocol.hosts import HOST_NAMES

SCOPES: Final = ("project", "user")


def settings_path(host: str, scope: str, project: Path, env: Mapping[str, str]) -> Path:
    """The file hookwise registers in, for ``host`` and ``scope``."""
    if host not in HOST_NAMES:
        raise ValueError(f"unknown host {host!r}; expected one of: {', '.join(HOST_NAMES)}")
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}; expected one of: {', '.join(SCOPES)}")
    project = Path(os.path.abspath(project))
    if host == "gemini":
        base = project if scope == "project" else gemini_home(env)
        return base / ".gemini" / "settings.json"
    if host == "claude":
        if scope == "project":
            return project / ".claude" / "settings.json"
        return claude_config_dir(env) / "settings.json"
    if scope == "project":
        return project / ".codex" / "hooks.json"
    return codex_home(env) / "hooks.json"


__all__ = ["SCOPES", "settings_path"]
