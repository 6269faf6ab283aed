"""The MCP servers a host keeps connected for its session, as an ``mcp_tool`` hook sees them:
one stdio server's program, arguments and environment, and the servers hookwise will not
start with the reason (shared by the hosts' server readers, ``config/claude/mcp.py`` and
``config/codex/mcp.py``)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hookwise.protocol.jsvalue import JSON

__all__ = ["McpServer", "McpServers", "server_command", "stdio_server"]


@dataclass(frozen=True)
class McpServer:
    """One stdio server: the program, its arguments and environment."""

    name: str
    command: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    origin: str = ""


@dataclass
class McpServers:
    servers: dict[str, McpServer] = field(default_factory=dict)
    # servers that exist but that hookwise will not start, and why (shown when a hook names one)
    unavailable: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def add(self, name: str, server: McpServer | str) -> None:
        """A later scope's definition of ``name`` replaces an earlier one, usable or not."""
        if isinstance(server, str):
            self.unavailable[name] = server
            self.servers.pop(name, None)
        else:
            self.servers[name] = server
            self.unavailable.pop(name, None)


def stdio_server(name: str, value: JSON, where: str, *, kind_key: str | None) -> McpServer | str:
    """The server, or why hookwise cannot start it. ``kind_key``: the field naming a
    transport other than stdio (Claude's ``type``); None: a ``url`` means a remote server
    (Codex)."""
    if not isinstance(value, dict):
        return f"{where}: must be an object"
    if kind_key is not None:
        kind = value.get(kind_key, "stdio")
        if kind != "stdio":
            return f"{where}/{kind_key}: {kind!r} servers are not started by hookwise (stdio only)"
    elif "url" in value:
        return f"{where}/url: remote servers are not started by hookwise (stdio only)"
    command = value.get("command")
    if not isinstance(command, str) or not command:
        return f"{where}/command: a stdio server needs a non-empty string"
    args = value.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return f"{where}/args: must be an array of strings"
    env = value.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        return f"{where}/env: must be an object of strings"
    pairs = tuple((str(k), str(v)) for k, v in env.items())
    return McpServer(name, command, tuple(str(a) for a in args), pairs, where)


def server_command(
    host: str, settings: Mapping[str, Any]
) -> tuple[str, str, dict[str, Any]] | None:
    """The server a settings file starts from a command line outside its servers table
    (``protocol.hosts.mcp_server_command``: Gemini CLI's ``mcp.serverCommand``): (its name,
    the setting's dotted key, an entry ``{command, args}``), else None. The words are read
    as a POSIX shell splits them (the host's shell-quote also expands ``$VAR``; a line that
    does not split is kept whole as the command)."""
    from hookwise.protocol.hosts import mcp_server_command

    where = mcp_server_command(host)
    section = settings.get(where[0]) if where is not None else None
    line = section.get(where[1]) if isinstance(section, Mapping) and where else None
    if where is None or not isinstance(line, str) or not line:
        return None
    try:
        words = shlex.split(line)
    except ValueError:
        words = [line]
    entry = {"command": words[0] if words else line, "args": words[1:]}
    return where[2], f"{where[0]}.{where[1]}", entry
