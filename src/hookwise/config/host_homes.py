"""Each host's home directory for a given environment: ``$CODEX_HOME``, ``$CLAUDE_CONFIG_DIR``,
``$GEMINI_CLI_HOME``, else the directory under ``$HOME`` the host uses.

These read the environment mapping they are given (not the process's), so install, doctor and
scan can be pointed at another home.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookwise.protocol.hosts import HostInfo


def _home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def config_dir(host: str, env: Mapping[str, str]) -> Path:
    """The directory a host keeps its user settings in, from its registry row."""
    from hookwise.protocol.hosts import host as host_info

    return row_dir(host_info(host), env)


def row_dir(info: HostInfo, env: Mapping[str, str]) -> Path:
    """The directory of a registry row (``config_dir``: the variable that moves it, its place
    under HOME, and whether the variable names HOME itself, as ``$GEMINI_CLI_HOME`` does)."""
    variable, default, names_home = info.config_dir
    explicit = env.get(variable) if variable else None
    if explicit:
        base = Path(os.path.abspath(explicit))
        return base / default if names_home else base
    return _home(env) / default if default else _home(env)


def user_file(info: HostInfo, relative: str, env: Mapping[str, str]) -> Path:
    """One of the row's ``user_files`` (relative to HOME) where the host reads it for
    ``env``: under its directory when that moved (``$CODEX_HOME/hooks.json``); a file
    outside that directory stays under HOME."""
    default = info.config_dir[1]
    if not default:  # the row's directory is HOME itself, or what its variable names
        return row_dir(info, env) / relative
    if relative.startswith(default + "/"):
        return row_dir(info, env) / relative[len(default) + 1 :]
    return _home(env) / relative


def codex_home(env: Mapping[str, str]) -> Path:
    explicit = env.get("CODEX_HOME")
    return Path(os.path.abspath(explicit)) if explicit else _home(env) / ".codex"


def claude_config_dir(env: Mapping[str, str]) -> Path:
    explicit = env.get("CLAUDE_CONFIG_DIR")
    return Path(os.path.abspath(explicit)) if explicit else _home(env) / ".claude"


def gemini_home(env: Mapping[str, str]) -> Path:
    explicit = env.get("GEMINI_CLI_HOME")
    return Path(os.path.abspath(explicit)) if explicit else _home(env)


__all__ = [
    "claude_config_dir",
    "codex_home",
    "config_dir",
    "gemini_home",
    "row_dir",
    "user_file",
]
