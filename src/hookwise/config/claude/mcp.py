"""The MCP servers Claude Code would have connected, by name: what an ``mcp_tool`` hook calls.

* user: ``mcpServers`` of ``~/.claude.json``; local: ``projects[<project>].mcpServers`` there;
* project: ``.mcp.json`` of the project, but only servers the user approved
  (``enableAllProjectMcpServers`` or ``enabledMcpjsonServers`` in the user's settings or
  the project's record in ``~/.claude.json``, and not in ``disabledMcpjsonServers``). A
  repository cannot approve its own servers here: an unapproved server is a program from
  the repository, and Claude Code would not have started it without asking.

Local wins over project, project over user, as in Claude Code. Only stdio servers
(``command``, ``args``, ``env``) can be started by hookwise; the others are listed with why
not. Nothing here raises for a bad file: every problem is a warning naming file and field.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from hookwise.config.claude.trust import claude_global_config
from hookwise.config.files import read_file_text
from hookwise.config.jsonc import parse_json_text
from hookwise.config.mcp_servers import McpServer, McpServers, stdio_server
from hookwise.protocol.jsvalue import JSON

__all__ = ["McpServer", "McpServers", "load_claude_mcp_servers"]


def _read(path: Path, warnings: list[str]) -> dict[str, JSON]:
    try:
        text = read_file_text(path)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        warnings.append(f"{path}: cannot read: {exc.strerror or exc}")
        return {}
    value, problem = parse_json_text(text)
    if problem is not None:
        warnings.append(problem.describe(str(path)) + "; MCP servers ignored")
        return {}
    if not isinstance(value, dict):
        warnings.append(f"{path}: must be a JSON object; MCP servers ignored")
        return {}
    return value


def _add(found: McpServers, servers: JSON, origin: str) -> None:
    if servers is None:
        return
    if not isinstance(servers, dict):
        found.warnings.append(f"{origin}: mcpServers must be an object; ignored")
        return
    for name, value in servers.items():
        found.add(name, stdio_server(name, value, f"{origin}/mcpServers/{name}", kind_key="type"))


def _names(value: JSON) -> set[str]:
    return {str(v) for v in value} if isinstance(value, list) else set()


def load_claude_mcp_servers(
    project: str | os.PathLike[str],
    *,
    home: str | os.PathLike[str] | None,
    env: Mapping[str, str],
    user_settings: Mapping[str, JSON] | None = None,
) -> McpServers:
    """The servers of ``project`` an ``mcp_tool`` hook may call (see the module's rules)."""
    found = McpServers()
    project_path = Path(os.path.realpath(os.path.abspath(project)))
    global_path = claude_global_config(home, env)
    global_config = _read(global_path, found.warnings)
    records = global_config.get("projects")
    record = records.get(str(project_path)) if isinstance(records, dict) else None
    record = record if isinstance(record, dict) else {}
    _add(found, global_config.get("mcpServers"), str(global_path))
    approved: set[str] = set()
    everything = False
    disabled: set[str] = set()
    for settings in (user_settings or {}, record):
        everything = everything or settings.get("enableAllProjectMcpServers") is True
        approved |= _names(settings.get("enabledMcpjsonServers"))
        disabled |= _names(settings.get("disabledMcpjsonServers"))
    mcp_json = project_path / ".mcp.json"
    project_servers = _read(mcp_json, found.warnings).get("mcpServers")
    if isinstance(project_servers, dict):
        for name in list(project_servers):
            if name in disabled or not (everything or name in approved):
                why = "disabled" if name in disabled else "not approved by the user"
                found.unavailable[name] = f"{mcp_json}/mcpServers/{name}: {why}"
                del project_servers[name]
    _add(found, project_servers, str(mcp_json))
    _add(found, record.get("mcpServers"), f"{global_path}#projects/{project_path}")
    return found
