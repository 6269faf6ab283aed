"""The settings file ``hookwise install`` registers in, for a host and a scope."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from hookwise.config.host_homes import config_file
from hookwise.protocol.hosts import host as host_info
from hookwise.protocol.hosts import hosts_with

SCOPES: Final = ("project", "user")


def settings_path(host: str, scope: str, project: Path, env: Mapping[str, str]) -> Path:
    """The file hookwise registers in, for ``host`` and ``scope`` (the registry's
    ``install_files``: a project's file relative to it, a user's to the host's config
    directory)."""
    if host not in hosts_with("install"):
        known = ", ".join(hosts_with("install"))
        raise ValueError(f"unknown host {host!r}; expected one of: {known}")
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}; expected one of: {', '.join(SCOPES)}")
    relative = host_info(host).install_files[scope]
    if scope == "project":
        return Path(os.path.abspath(project)) / relative
    return config_file(host, relative, env)


__all__ = ["SCOPES", "settings_path"]
