"""The MCP servers a host keeps connected for its session, as an ``mcp_tool`` hook sees them:
one stdio server's program, arguments and environment, and the servers hookwise will not
start with the reason (shared by the hosts' server readers, ``config/claude/mcp.py`` and
``config/codex/mcp.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from hookwise.protocol.jsvalue import JSON

__all__ = ["McpServer", "McpServers", "stdio_server"]


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
