"""What Codex makes of an MCP server's ``disabled_tools`` across its config layers: the user's
``config.toml``, a profile file (``codex --profile NAME``: ``$CODEX_HOME/NAME.config.toml``)
and the project layers (``.codex/config.toml`` from the project root down), merged as Codex
0.169.0 merges them (``protocol/codex.py``: ``PROFILE_FILE_SUFFIX``): the last layer that
sets a server's ``disabled_tools`` gives the whole list, and a server's table is merged field
by field (``merged_server``: a project layer that sets only ``args`` keeps the user's
``command``, red team s28 F8).

``install --native`` writes into the user's file only, so a tool it switched off stays off
only where no later layer replaces the list (red team s27 F4, F13). A project layer counts
whether or not the project is trusted yet (trusting it is one answer away); a file that
cannot be read counts as replacing every list (nothing is claimed for what is not known).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookwise.config.files import read_file_bytes
from hookwise.protocol.codex import MCP_FILES, PROFILE_FILE_SUFFIX

__all__ = ["McpLayer", "mcp_layers", "merged_server", "profile_files", "unheld"]

_TABLE = MCP_FILES["user"][0][1]
_PROJECT_FILE = MCP_FILES["project"][0][0]


@dataclass(frozen=True)
class McpLayer:
    """One config file Codex may read MCP servers from."""

    file: Path
    kind: str  # "user" | "profile" | "project"
    servers: dict[str, Any] | None  # None: the file could not be read

    @property
    def label(self) -> str:
        if self.kind == "profile":
            return f"{self.file} (`codex --profile {self.file.name[: -len(PROFILE_FILE_SUFFIX)]}`)"
        if self.kind == "project":
            return f"{self.file} (a project layer)"
        return str(self.file)

    def sets(self, server: str) -> bool:
        """Whether this layer gives ``server`` its ``disabled_tools`` (an unreadable file
        may)."""
        if self.servers is None:
            return True
        entry = self.servers.get(server)
        return isinstance(entry, dict) and "disabled_tools" in entry

    def disabled(self, server: str) -> list[str]:
        """The ``disabled_tools`` this layer sets for ``server`` (strings only)."""
        entry = (self.servers or {}).get(server)
        listed = entry.get("disabled_tools") if isinstance(entry, dict) else None
        return [t for t in listed if isinstance(t, str)] if isinstance(listed, list) else []

    def defines(self, server: str) -> bool:
        return self.servers is not None and isinstance(self.servers.get(server), dict)


def profile_files(codex_home: Path) -> list[Path]:
    """The profile files of ``codex_home`` (each is a ``--profile`` Codex may be run with)."""
    try:
        found = [p for p in codex_home.glob(f"*{PROFILE_FILE_SUFFIX}") if p.is_file()]
    except OSError:
        return []
    return sorted(found)


def _read(path: Path, kind: str) -> McpLayer | None:
    try:
        text = read_file_bytes(path).decode("utf-8")  # (regular files only: never a FIFO)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        return McpLayer(path, kind, None)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return McpLayer(path, kind, None)
    servers = doc.get(_TABLE, {})
    return McpLayer(path, kind, servers if isinstance(servers, dict) else None)


def _project_dirs(project: Path) -> list[Path]:
    """From the project root (the nearest ancestor holding ``.git``) down to ``project``."""
    chain = [project, *project.parents]
    for index, directory in enumerate(chain):
        if (directory / ".git").exists():
            return list(reversed(chain[: index + 1]))
    return [project]


def mcp_layers(
    codex_home: Path, project: Path | None
) -> tuple[McpLayer | None, list[McpLayer], list[McpLayer]]:
    """(the user's config.toml, the profile files, the project layers in Codex's order)."""
    user = _read(codex_home / MCP_FILES["user"][0][0], "user")
    profiles = [layer for p in profile_files(codex_home) if (layer := _read(p, "profile"))]
    projects: list[McpLayer] = []
    if project is not None:
        home = codex_home.resolve()
        for directory in _project_dirs(Path(project).resolve()):
            path = directory / _PROJECT_FILE
            if path.parent.resolve() == home:
                continue  # CODEX_HOME itself is no project layer
            layer = _read(path, "project")
            if layer is not None:
                projects.append(layer)
    return user, profiles, projects


def unheld(
    server: str,
    tool: str,
    layers: tuple[McpLayer | None, list[McpLayer], list[McpLayer]],
) -> list[tuple[str, str]]:
    """Why ``tool`` of ``server`` is not switched off in every way Codex may run: (kind,
    detail) with kind ``user`` (the user's file lacks it: install --native writes it),
    ``profile`` or ``project`` (a later layer replaces the list, or defines the server the
    user's file does not), ``absent`` (no file defines the server); empty when held."""
    user, profiles, projects = layers
    last = next((layer for layer in reversed(projects) if layer.sets(server)), None)
    if last is not None:  # in this project, whatever the profile: this list
        if last.servers is None:
            return [("project", f"{last.label} cannot be read: its disabled_tools are unknown")]
        if tool in last.disabled(server):
            return []
        return [("project", f"{last.label} sets [{_TABLE}.{server}] disabled_tools without "
                            f"{tool!r}: Codex uses that list in this project")]  # fmt: skip
    out: list[tuple[str, str]] = []
    if user is None or user.servers is None or tool not in user.disabled(server):
        name = user.file if user is not None else "config.toml"
        elsewhere = [x for x in (*profiles, *projects) if x.defines(server)]
        if user is not None and user.servers is None:
            out.append(("user", f"{name} cannot be read"))
        elif user is not None and user.defines(server):
            out.append(("user", f"{name} does not switch off {tool!r} of server {server!r}"))
        elif elsewhere:
            out.append((elsewhere[0].kind, f"server {server!r} is defined by "
                        f"{', '.join(x.label for x in elsewhere)}, not by {name}, the only file "
                        "install --native writes"))  # fmt: skip
        else:
            out.append(("absent", f"no layer defines server {server!r}"))
    for layer in profiles:
        if layer.sets(server) and (layer.servers is None or tool not in layer.disabled(server)):
            why = f"without {tool!r}: Codex uses that list with the profile"
            out.append(("profile", f"{layer.label} sets [{_TABLE}.{server}] disabled_tools {why}"))
    return out


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` on ``base`` as Codex merges config layers: tables key by key, any other
    value (a list too) replaced whole."""
    out = dict(base)
    for key, value in over.items():
        below = out.get(key)
        out[key] = (
            _merge(below, value) if isinstance(below, dict) and isinstance(value, dict) else value
        )
    return out


def merged_server(
    server: str, layers: list[McpLayer]
) -> tuple[dict[str, Any] | None, list[McpLayer]]:
    """``server``'s table as Codex uses it over ``layers`` (in Codex's order: the user's
    file, a profile, the project layers from the root down), and the layers that set any of
    it; None when none defines it or one cannot be read (nothing is claimed for it)."""
    merged: dict[str, Any] | None = None
    setting: list[McpLayer] = []
    for layer in layers:
        if layer.servers is None:
            return None, [*setting, layer]
        entry = layer.servers.get(server)
        if isinstance(entry, dict):
            merged = _merge(merged or {}, entry)
            setting.append(layer)
    return merged, setting
