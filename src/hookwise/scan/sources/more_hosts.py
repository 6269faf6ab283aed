"""Hooks and MCP servers of the hosts hookwise has no settings loader for: Factory Droid,
Cline, Cursor, Windsurf, Kiro, Augment and Crush. Each host's files are listed here as data
(where, which layout, which scope), read as the host reads them as far as its protocol
table (``protocol/``) records: Droid and Cline observed, the others from their published
references. A project's hooks on these hosts run with no trust prompt (observed for Droid
and Cline; none is documented for the others), so they are ``no-prompt``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from hookwise.config.jsonc import parse_jsonc
from hookwise.protocol.jsvalue import JSON
from hookwise.scan.context import ScanContext
from hookwise.scan.locate import file_text, json_line
from hookwise.scan.model import Gate, Runnable
from hookwise.scan.sources.mcp import mcp_servers

__all__ = ["more_hosts_hooks", "more_hosts_mcp"]

# host -> [(scope, path relative to the project or home, layout)]; layouts: "top" (event
# keys at the top level, matcher groups), "groups" (Claude Code's ``hooks``), "flat"
# (``hooks`` -> event -> [handler]), "dir" (executable files named after the event),
# "agents" (Kiro: each agent file's ``hooks`` -> event -> [handler])
HOOK_FILES: dict[str, list[tuple[str, str, str]]] = {
    "droid": [
        ("project", ".factory/hooks.json", "top"),
        ("project", ".factory/hooks/hooks.json", "top"),  # legacy, still loaded
        ("user", ".factory/hooks.json", "top"),
    ],
    "cline": [
        ("project", ".clinerules/hooks", "dir"),
        ("user", ".cline/hooks", "dir"),
        ("user", "Documents/Cline/Hooks", "dir"),
    ],
    "cursor": [("project", ".cursor/hooks.json", "flat"), ("user", ".cursor/hooks.json", "flat")],
    "windsurf": [
        ("project", ".windsurf/hooks.json", "flat"),
        ("user", ".codeium/windsurf/hooks.json", "flat"),
    ],
    "kiro": [("project", ".kiro/agents", "agents"), ("user", ".kiro/agents", "agents")],
    "augment": [
        ("project", ".augment/settings.json", "groups"),
        ("project", ".augment/settings.local.json", "groups"),
        ("user", ".augment/settings.json", "groups"),
    ],
    "crush": [
        ("project", "crush.json", "crush"),
        ("project", ".crush.json", "crush"),
        ("user", ".config/crush/crush.json", "crush"),
    ],
}
# host -> [(scope, path, key holding the servers)]
MCP_FILES: dict[str, list[tuple[str, str, str]]] = {
    "droid": [
        ("project", ".factory/mcp.json", "mcpServers"),
        ("user", ".factory/mcp.json", "mcpServers"),
    ],
    "cline": [("user", ".cline/data/settings/cline_mcp_settings.json", "mcpServers")],
    "cursor": [
        ("project", ".cursor/mcp.json", "mcpServers"),
        ("user", ".cursor/mcp.json", "mcpServers"),
    ],
    "windsurf": [("user", ".codeium/windsurf/mcp_config.json", "mcpServers")],
    "kiro": [
        ("project", ".kiro/settings/mcp.json", "mcpServers"),
        ("user", ".kiro/settings/mcp.json", "mcpServers"),
    ],
    "augment": [
        ("project", ".augment/settings.json", "mcpServers"),
        ("user", ".augment/settings.json", "mcpServers"),
    ],
    "crush": [
        ("project", "crush.json", "mcp"),
        ("project", ".crush.json", "mcp"),
        ("user", ".config/crush/crush.json", "mcp"),
    ],
}
_NO_PROMPT = "runs with no trust prompt"


def _where(ctx: ScanContext, scope: str, relative: str) -> Path:
    return (ctx.project if scope == "project" else ctx.user_home) / relative


def _gate(scope: str, host: str, what: str = "hook") -> tuple[Gate, str]:
    if scope == "user":
        return Gate.USER, "the user's own configuration"
    return Gate.NO_PROMPT, f"{host}: a project's {what} {_NO_PROMPT}"


def _object(path: Path) -> tuple[str, dict[str, JSON]] | None:
    text = file_text(path)
    if text is None:
        return None
    value, problem = parse_jsonc(text)
    return (text, value) if problem is None and isinstance(value, dict) else None


def _handlers(value: dict[str, JSON], layout: str) -> Iterator[tuple[str, list[str | int], JSON]]:
    """(event, JSON pointer, handler) of every command handler in one file."""
    hooks = value if layout == "top" else value.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            continue
        base: list[str | int] = [] if layout == "top" else ["hooks"]
        for i, entry in enumerate(entries):
            if layout in ("top", "groups") and isinstance(entry, dict):
                inner = entry.get("hooks")
                for j, handler in enumerate(inner if isinstance(inner, list) else []):
                    yield str(event), [*base, event, i, "hooks", j], handler
            else:
                yield str(event), [*base, event, i], entry


def _file_hooks(host: str, scope: str, path: Path, layout: str) -> Iterator[Runnable]:
    found = _object(path)
    if found is None:
        return
    text, value = found
    gate, detail = _gate(scope, host)
    for event, pointer, handler in _handlers(value, "flat" if layout == "crush" else layout):
        command = handler.get("command") if isinstance(handler, dict) else None
        if not isinstance(command, str) or not command.strip():
            continue
        yield Runnable(
            host=host,
            kind="hook",
            name=event,
            scope=scope,
            command=command,
            file=str(path),
            line=json_line(text, pointer) or 1,
            gate=gate,
            gate_detail=detail,
        )


def _dir_hooks(host: str, scope: str, directory: Path) -> Iterator[Runnable]:
    """Executable files named after their event (Cline): the file is the command."""
    try:
        names = sorted(p.name for p in directory.iterdir())
    except OSError:
        return
    gate, detail = _gate(scope, host)
    for name in names:
        path = directory / name
        if not path.is_file() or name.startswith("."):
            continue
        yield Runnable(
            host=host,
            kind="hook",
            name=name,
            scope=scope,
            command=str(path),
            file=str(path),
            line=1,
            gate=gate,
            gate_detail=detail,
            argv=(str(path),),
        )


def more_hosts_hooks(ctx: ScanContext) -> list[Runnable]:
    """Every hook handler of these hosts, in the files each reads."""
    out: list[Runnable] = []
    for host, files in HOOK_FILES.items():
        for scope, relative, layout in files:
            where = _where(ctx, scope, relative)
            if layout == "dir":
                out.extend(_dir_hooks(host, scope, where))
            elif layout == "agents":
                for agent in sorted(where.glob("*.json")) if where.is_dir() else []:
                    out.extend(_file_hooks(host, scope, agent, "flat"))
            else:
                out.extend(_file_hooks(host, scope, where, layout))
    return out


def more_hosts_mcp(ctx: ScanContext) -> list[Runnable]:
    """Every MCP server of these hosts (a stdio server is a program run with the user's
    rights; a project's starts with no approval documented for these hosts)."""
    out: list[Runnable] = []
    for host, files in MCP_FILES.items():
        for scope, relative, key in files:
            path = _where(ctx, scope, relative)
            found = _object(path)
            if found is None:
                continue
            servers: Iterable[Runnable] = mcp_servers(
                host,
                scope,
                str(path),
                found[1].get(key),
                pointer=[key],
                gate=_gate(scope, host, "MCP server"),
                ctx=ctx,
            )
            out.extend(servers)
    return out
