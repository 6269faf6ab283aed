"""The MCP servers a plugin host (OpenCode, Kilo) starts, one per name, as it merges them.

OpenCode reads its settings files in layers and merges them: the user's files, then the
project's, a later file's value winning, objects merged member by member, arrays replaced
(observed with OpenCode 1.18.33, ``opencode debug config``: ``fs`` set in the user's
opencode.json and in the project's .opencode/opencode.json is one server, its ``command``
the project's and its ``environment`` both files' members). The files of each scope, in
that order, are the registry row's ``code_files`` (protocol/hosts.py). So a name is one
server, however many files set it: doctor reports it once, from the file that gives its
command (red team s35: a server set in two files was listed twice)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookwise.config.jsonc import parse_jsonc
from hookwise.protocol.hosts import config_path
from hookwise.protocol.hosts import host as host_info

# the key of a plugin host's settings that holds its MCP servers
SERVERS_KEY = "mcp"


@dataclass
class PluginServer:
    """One server as the host merges it: its entry, the file giving its command (or URL),
    and every file that sets it."""

    name: str
    entry: dict[str, Any]
    file: Path
    files: list[Path] = field(default_factory=list)

    def argv(self) -> list[str] | None:
        command = self.entry.get("command")
        if isinstance(command, list) and command and all(isinstance(a, str) for a in command):
            return list(command)
        return None


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` merged into ``base`` as the host merges its layers (objects member by
    member, anything else replaced)."""
    out = dict(base)
    for key, value in over.items():
        old = out.get(key)
        both = isinstance(old, Mapping) and isinstance(value, Mapping)
        out[key] = _merge(old, value) if both else value  # type: ignore[arg-type]
    return out


def layers(host: str, project: Path, env: Mapping[str, str]) -> list[Path]:
    """The host's settings files, lowest precedence first (its user files, then its
    project's)."""
    info = host_info(host)
    user = Path(config_path(host, env))
    out = [user / name for name in info.code_files.get("user", ()) if not name.endswith("/")]
    out += [project / name for name in info.code_files.get("project", ()) if not name.endswith("/")]
    return out


def plugin_servers(
    host: str, project: Path, env: Mapping[str, str]
) -> tuple[list[PluginServer], list[str]]:
    """The host's MCP servers by name, merged over its layers; and the problems met (a file
    that is no JSON object, named)."""
    found: dict[str, PluginServer] = {}
    problems: list[str] = []
    for path in layers(host, project, env):
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{path}: cannot read it: {exc}")
            continue
        value, problem = parse_jsonc(text)
        if problem is not None or not isinstance(value, dict):
            problems.append(f"{path}: not a JSON object ({problem}); its MCP servers not read")
            continue
        servers = value.get(SERVERS_KEY)
        if not isinstance(servers, dict):
            continue
        for name, entry in servers.items():
            if not isinstance(entry, dict):
                continue
            server = found.setdefault(name, PluginServer(name, {}, path))
            server.entry = _merge(server.entry, entry)
            server.files.append(path)
            if "command" in entry or "url" in entry:
                server.file = path
    return list(found.values()), problems
