"""The MCP servers Codex connects for a session, by name: what its ``mcp_tool`` hooks call.

``[mcp_servers.NAME]`` of every loaded config layer (``MCP_FILES`` of protocol/codex.py: the
user's ``config.toml``, and a project's ``.codex/config.toml`` only when that layer is
trusted, as Codex loads it); a later layer's server replaces an earlier one of the same
name. ``enabled = false`` turns a server off. Only stdio servers (``command``, ``args``,
``env``) are started by hookwise; a ``url`` server is listed with why not. Nothing raises:
every problem is a warning naming the file and the field.
"""

from __future__ import annotations

from collections.abc import Sequence

from hookwise.config.codex.settings import CodexLayer
from hookwise.config.mcp_servers import McpServers, stdio_server
from hookwise.protocol.codex import MCP_FILES

__all__ = ["load_codex_mcp_servers"]

_TABLE = MCP_FILES["user"][0][1]


def load_codex_mcp_servers(layers: Sequence[CodexLayer]) -> McpServers:
    """The servers of the loaded ``layers`` (in Codex's order) an ``mcp_tool`` hook may call."""
    found = McpServers()
    for layer in layers:
        if not layer.trusted or layer.config is None:
            continue
        where = f"{layer.config_path or layer.folder / 'config.toml'}#{_TABLE}"
        servers = layer.config.get(_TABLE)
        if servers is None:
            continue
        if not isinstance(servers, dict):
            found.warnings.append(f"{where}: must be a table; ignored")
            continue
        for name, value in servers.items():
            if isinstance(value, dict) and value.get("enabled") is False:
                found.add(name, f"{where}.{name}/enabled: false (the server is turned off)")
                continue
            found.add(name, stdio_server(name, value, f"{where}.{name}", kind_key=None))
    return found
