"""Each host's home directory for a given environment: ``$CODEX_HOME``, ``$CLAUDE_CONFIG_DIR``,
``$GEMINI_CLI_HOME``, else the directory under ``$HOME`` the host uses.

These read the environment mapping they are given (not the process's), so install, doctor and
scan can be pointed at another home.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def _home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def config_dir(host: str, env: Mapping[str, str]) -> Path:
    """The directory a host keeps its user settings in, from its registry row
    (``protocol.hosts.config_path``)."""
    from hookwise.protocol.hosts import config_path

    return Path(config_path(host, env))


def config_file(host: str, relative: str, env: Mapping[str, str]) -> Path:
    """A path under the host's config directory where the host keeps it for ``env``: a
    variable of its own may move a part of that directory (Cline's ``CLINE_DATA_DIR``;
    ``protocol.hosts.config_file``)."""
    from hookwise.protocol.hosts import config_file as moved

    return Path(moved(host, relative, env))


def codex_home(env: Mapping[str, str]) -> Path:
    explicit = env.get("CODEX_HOME")
    return Path(os.path.abspath(explicit)) if explicit else _home(env) / ".codex"


def claude_config_dir(env: Mapping[str, str]) -> Path:
    explicit = env.get("CLAUDE_CONFIG_DIR")
    return Path(os.path.abspath(explicit)) if explicit else _home(env) / ".claude"


def gemini_home(env: Mapping[str, str]) -> Path:
    explicit = env.get("GEMINI_CLI_HOME")
    return Path(os.path.abspath(explicit)) if explicit else _home(env)


def system_files(host: str, env: Mapping[str, str]) -> list[tuple[Path, str, str]]:
    """(path, words naming it, key of its servers) of the machine's files ``host`` reads MCP servers
    from for every user (``protocol.hosts.mcp_system_files``), where ``env`` puts them."""
    from hookwise.protocol.hosts import mcp_system_files

    found = mcp_system_files(host)
    if not found:
        return []
    from hookwise.config.gemini.paths import SettingsPaths, SettingsScope

    paths = SettingsPaths.from_environment("/", env=env, home=gemini_home(env))
    return [(paths.path_for(SettingsScope(scope)), words, key) for scope, key, words in found]


__all__ = [
    "claude_config_dir",
    "codex_home",
    "config_dir",
    "config_file",
    "gemini_home",
    "system_files",
]
