"""MCP servers the agents start: a stdio server is a program run with the user's rights.

* Claude Code: the project's ``.mcp.json``; the user's ``~/.claude.json`` (``mcpServers``,
  and ``projects[dir].mcpServers`` for this project); ``managed-mcp.json`` in the managed
  directory. A project server starts only once approved: ``enableAllProjectMcpServers`` or
  ``enabledMcpjsonServers`` in a settings file or ``~/.claude.json``, else Claude Code asks
  per server. A repository that approves its own servers (in its ``.claude/settings*.json``)
  skips that question.
* Gemini CLI: ``mcpServers`` of every settings scope (the project's only in a trusted
  folder) and of each active extension's ``gemini-extension.json``; ``mcp.serverCommand``
  of every scope (a server named ``mcp``).
* Codex: ``[mcp_servers.NAME]`` of the user and project ``config.toml`` layers, and of each
  profile file beside the user's (``NAME.config.toml``, read over it by ``codex --profile
  NAME``: red team s27 F13).
"""

from __future__ import annotations

import os
import shlex
import tomllib
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from hookwise.config.claude.settings import ClaudeHooks, ClaudePaths, ClaudePlugin, ClaudeScope
from hookwise.config.claude.trust import claude_global_config
from hookwise.config.codex.mcp_layers import profile_files
from hookwise.config.codex.settings import CodexHooks
from hookwise.config.gemini.extensions import extension_servers
from hookwise.config.gemini.paths import SettingsScope
from hookwise.config.gemini.settings import LoadedSettings
from hookwise.config.jsonc import parse_json_text, parse_jsonc
from hookwise.config.mcp_servers import server_command
from hookwise.mcp_proxy import transport
from hookwise.protocol.codex import PROFILE_FILE_SUFFIX
from hookwise.protocol.jsvalue import JSON
from hookwise.scan.context import ScanContext
from hookwise.scan.locate import file_text, json_line, text_line
from hookwise.scan.model import Gate, Runnable
from hookwise.scan.sources.hooks import codex_layers

__all__ = [
    "claude_mcp",
    "codex_mcp",
    "command_line_servers",
    "env_pairs",
    "gemini_mcp",
    "server_runnable",
]


def _read_object(path: Path, *, jsonc: bool = False) -> dict[str, JSON] | None:
    text = file_text(path)
    if text is None:
        return None
    value, problem = (parse_jsonc if jsonc else parse_json_text)(text)
    return value if problem is None and isinstance(value, dict) else None


def _env_line(origin: str, text: str, pointer: list[str | int], default: int) -> int:
    """The line of one variable of a server's ``env`` (JSON pointer, or its TOML key)."""
    if origin.endswith(".toml"):
        key = str(pointer[-1])
        found = text_line(origin, f"{key} =", f"{key}=")
        return found if found != 1 or text.startswith(key) else default
    return json_line(text, pointer) or default


def servers_of(
    host: str,
    scope: str,
    origin: str,
    servers: JSON,
    *,
    pointer: list[str | int],
    gate: tuple[Gate, str],
    ctx: ScanContext,
    approve: dict[str, tuple[Gate, str]] | None = None,
) -> Iterable[Runnable]:
    if not isinstance(servers, dict):
        return
    text = file_text(origin) or ""
    for name, server in servers.items():
        if not isinstance(server, dict):
            continue
        if origin.endswith(".toml"):
            line = text_line(origin, f"mcp_servers.{name}", str(name))
        else:
            line = json_line(text, [*pointer, name]) or 1
        these = approve.get(str(name), gate) if approve is not None else gate
        env = env_pairs(server.get("env"))
        # each variable's own line: a hijack is reported where it is written
        env_lines = tuple(_env_line(origin, text, [*pointer, name, "env", k], line) for k, _ in env)
        command, args = server.get("command"), server.get("args")
        argv: tuple[str, ...] | None = None
        if isinstance(command, str) and command.strip():
            argv = (
                (command, *(str(a) for a in args if isinstance(a, str | int | float)))
                if isinstance(args, list)
                else (command,)
            )
        url = server.get("url") or server.get("httpUrl") or server.get("serverUrl")
        cwd = server.get("cwd")
        found = server_runnable(
            host, scope, origin, str(name), line, these, argv=argv, url=url, env=env,
            env_lines=env_lines, cwd=cwd if isinstance(cwd, str) else str(ctx.project),
            transport=transport(server, _stdio_types(host)) or "",
        )  # fmt: skip
        if found is not None:
            yield found


def env_pairs(env: JSON) -> tuple[tuple[str, str], ...]:
    """A server's environment as (name, value): the values written as text or numbers."""
    items = env.items() if isinstance(env, dict) else []
    return tuple((str(k), str(v)) for k, v in items if isinstance(v, str | int | float))


def server_runnable(  # noqa: PLR0917 - one entry's place and what it starts
    host: str,
    scope: str,
    origin: str,
    name: str,
    line: int,
    gate: tuple[Gate, str],
    *,
    argv: tuple[str, ...] | None,
    url: JSON,
    env: tuple[tuple[str, str], ...] = (),
    env_lines: tuple[int, ...] = (),
    cwd: str,
    transport: str = "",
) -> Runnable | None:
    """One entry of a host's MCP servers, however the host spells it (``servers_of``; the
    plugin hosts' ``mcp`` tables, plugins.py): a stdio server when it has a command
    (``argv``), else a remote one at ``url``, else None (nothing the host starts)."""
    if argv:
        return Runnable(host=host, kind="mcp-server", name=name, scope=scope,
                        command=shlex.join(argv), file=origin, line=line, gate=gate[0],
                        gate_detail=gate[1], argv=argv, env=env, env_lines=env_lines, cwd=cwd,
                        transport=transport)  # fmt: skip
    if isinstance(url, str):
        return Runnable(host=host, kind="mcp-remote", name=name, scope=scope, command="",
                        file=origin, line=line, gate=gate[0], gate_detail=gate[1],
                        url=url)  # fmt: skip
    return None


def _stdio_types(host: str) -> tuple[str, ...]:
    from hookwise.protocol.hosts import HOST_NAMES, mcp_stdio_types

    return mcp_stdio_types(host) if host in HOST_NAMES else ("stdio",)


# --------------------------------------------------------------------------- Claude Code


def _approvals(
    hooks: ClaudeHooks, project_record: dict[str, JSON]
) -> tuple[set[str], set[str], bool, list[str]]:
    """(enabled names, disabled names, all enabled, where the approval came from)."""
    enabled: set[str] = set()
    disabled: set[str] = set()
    everything = False
    by: list[str] = []
    sources: list[tuple[str, dict[str, JSON]]] = [
        (f"{f.scope.value}:{f.origin}", f.settings) for f in hooks.settings_files if f.settings
    ]
    sources.append(("user:~/.claude.json", project_record))
    for where, settings in sources:
        if settings.get("enableAllProjectMcpServers") is True:
            everything = True
            by.append(where)
        names = settings.get("enabledMcpjsonServers")
        if isinstance(names, list):
            enabled.update(str(n) for n in names)
            if names:
                by.append(where)
        names = settings.get("disabledMcpjsonServers")
        if isinstance(names, list):
            disabled.update(str(n) for n in names)
    return enabled, disabled, everything, by


def claude_mcp(
    ctx: ScanContext, hooks: ClaudeHooks, repo_gate: tuple[Gate, str]
) -> tuple[list[Runnable], list[str]]:
    """The servers, and the files of the repository that approve its own servers."""
    home = ctx.home_for("CLAUDE_CONFIG_DIR")
    paths = ClaudePaths.from_environment(
        ctx.project, home=home, env=ctx.env, managed_dir=ctx.claude_managed_dir
    )
    global_config = _read_object(claude_global_config(home, ctx.env)) or {}
    projects = global_config.get("projects")
    record = projects.get(str(ctx.project)) if isinstance(projects, dict) else None
    project_record: dict[str, JSON] = record if isinstance(record, dict) else {}
    out: list[Runnable] = []
    managed_file = paths.managed_dir / "managed-mcp.json"
    managed = _read_object(managed_file)
    if managed is not None:
        out.extend(
            servers_of(
                "claude",
                "managed",
                str(managed_file),
                managed.get("mcpServers"),
                pointer=["mcpServers"],
                gate=(Gate.USER, "managed"),
                ctx=ctx,
            )
        )
    global_path = str(claude_global_config(home, ctx.env))
    out.extend(
        servers_of(
            "claude",
            "user",
            global_path,
            global_config.get("mcpServers"),
            pointer=["mcpServers"],
            gate=(Gate.USER, "user"),
            ctx=ctx,
        )
    )
    out.extend(
        servers_of(
            "claude",
            "local",
            global_path,
            project_record.get("mcpServers"),
            pointer=["projects", str(ctx.project), "mcpServers"],
            gate=(Gate.USER, "user (this project)"),
            ctx=ctx,
        )
    )
    self_approved: list[str] = []
    mcp_json = ctx.project / ".mcp.json"
    project = _read_object(mcp_json)
    if project is not None:
        enabled, disabled, everything, by = _approvals(hooks, project_record)
        repo_files = {
            f.origin
            for f in hooks.settings_files
            if f.scope in (ClaudeScope.PROJECT, ClaudeScope.LOCAL)
        }
        from_repo = [w for w in by if w.split(":", 1)[1] in repo_files]
        self_approved = sorted({w.split(":", 1)[1] for w in from_repo})
        approve: dict[str, tuple[Gate, str]] = {}
        servers = project.get("mcpServers")
        for name in servers if isinstance(servers, dict) else {}:
            if name in disabled:
                approve[name] = (Gate.OFF, "disabledMcpjsonServers")
            elif everything or name in enabled:
                if from_repo and len(from_repo) == len(by):
                    approve[name] = (
                        repo_gate[0] if repo_gate[0] is Gate.TRUSTED else Gate.NO_PROMPT,
                        f"approved by the repository's own settings ({', '.join(self_approved)})",
                    )
                else:
                    approve[name] = (Gate.TRUSTED, "approved by the user")
            else:
                approve[name] = (Gate.AFTER_TRUST, "Claude Code asks before starting it")
        out.extend(
            servers_of(
                "claude",
                "project",
                str(mcp_json),
                servers,
                pointer=["mcpServers"],
                gate=repo_gate,
                ctx=ctx,
                approve=approve,
            )
        )
    for plugin in hooks.plugins:
        out.extend(_plugin_servers(plugin, ctx))
    return out, self_approved


def _plugin_servers(plugin: ClaudePlugin, ctx: ScanContext) -> Iterable[Runnable]:
    """The MCP servers an enabled plugin starts: its ``.mcp.json``, and what its
    ``.claude-plugin/plugin.json`` gives under ``mcpServers`` (inline, or paths of files)."""
    env = (("CLAUDE_PLUGIN_ROOT", str(plugin.root)), ("CLAUDE_PLUGIN_DATA", str(plugin.data_dir)))
    gate = (Gate.USER, f"plugin {plugin.id}")
    manifest = plugin.root / ".claude-plugin" / "plugin.json"
    meta = _read_object(manifest) or {}
    named = meta.get("mcpServers")
    sources: list[tuple[Path, JSON, list[str | int]]] = []
    if isinstance(named, dict):
        sources.append((manifest, named, ["mcpServers"]))
    files = [plugin.root / ".mcp.json"]
    for entry in [named] if isinstance(named, str) else named if isinstance(named, list) else []:
        if isinstance(entry, str):
            path = Path(os.path.normpath(plugin.root / entry.replace("${CLAUDE_PLUGIN_ROOT}", ".")))
            if path.is_relative_to(plugin.root) and path not in files:
                files.append(path)
    for path in files:
        config = _read_object(path)
        if config is not None:
            servers = config.get("mcpServers", config)
            pointer: list[str | int] = ["mcpServers"] if "mcpServers" in config else []
            sources.append((path, servers, pointer))
    for path, servers, pointer in sources:
        for runnable in servers_of(
            "claude", plugin.scope, str(path), servers, pointer=pointer, gate=gate, ctx=ctx
        ):
            # the plugin's variables first: its servers' own env comes after
            yield replace(
                runnable,
                argv=tuple(
                    a.replace("${CLAUDE_PLUGIN_ROOT}", str(plugin.root))
                    for a in runnable.argv or ()
                ),
                command=runnable.command.replace("${CLAUDE_PLUGIN_ROOT}", str(plugin.root)),
                env=(*env, *runnable.env),
                env_lines=(runnable.line, runnable.line, *runnable.env_lines),
            )


# --------------------------------------------------------------------------- Gemini CLI


def gemini_mcp(
    ctx: ScanContext, settings: LoadedSettings, repo_gate: tuple[Gate, str]
) -> list[Runnable]:
    out: list[Runnable] = []
    for scope in (
        SettingsScope.SYSTEM_DEFAULTS,
        SettingsScope.USER,
        SettingsScope.PROJECT,
        SettingsScope.SYSTEM,
    ):
        file = settings.files[scope]
        if not file.loaded:
            continue
        gate = repo_gate if scope is SettingsScope.PROJECT else (Gate.USER, scope.value)
        out.extend(
            servers_of(
                "gemini",
                scope.value,
                str(file.path),
                file.settings.get("mcpServers"),
                pointer=["mcpServers"],
                gate=gate,
                ctx=ctx,
            )
        )
        out.extend(command_line_servers("gemini", scope.value, str(file.path), file.settings,
                                        gate=gate, ctx=ctx))  # fmt: skip
    for extension, manifest, servers in extension_servers(settings, Path(ctx.project)):
        gate = (Gate.USER, "extension") if extension.active else (Gate.OFF, "extension disabled")
        out.extend(
            servers_of(
                "gemini",
                extension.scope,
                str(manifest),
                servers,
                pointer=["mcpServers"],
                gate=gate,
                ctx=ctx,
            )
        )
    return out


def command_line_servers(
    host: str,
    scope: str,
    origin: str,
    settings: object,
    *,
    gate: tuple[Gate, str],
    ctx: ScanContext,
) -> list[Runnable]:
    """The server a settings file starts from a command line (Gemini CLI's and Qwen Code's
    ``mcp.serverCommand``: a stdio server named ``mcp``, red team s27 F11), at its line."""
    found = server_command(host, settings) if isinstance(settings, dict) else None
    if found is None:
        return []
    name, key, entry = found
    line = json_line(file_text(origin) or "", list[str | int](key.split("."))) or 1
    servers = servers_of(host, scope, origin, {name: entry}, pointer=[], gate=gate, ctx=ctx)
    return [replace(r, line=line) for r in servers]


# --------------------------------------------------------------------------- Codex


def codex_mcp(ctx: ScanContext, real: CodexHooks, everything: CodexHooks) -> list[Runnable]:
    out: list[Runnable] = []
    for name, origin, config, gate, why in codex_layers(real, everything):
        out.extend(
            servers_of(
                "codex",
                name,
                origin,
                config.get("mcp_servers"),
                pointer=[],
                gate=(gate, why),
                ctx=ctx,
            )
        )
    for layer in real.layers:
        if layer.name != "user":
            continue
        for path in profile_files(layer.folder):
            try:
                config = tomllib.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
            name = path.name.removesuffix(PROFILE_FILE_SUFFIX)
            out.extend(
                servers_of(
                    "codex",
                    "user",
                    str(path),
                    config.get("mcp_servers"),
                    pointer=[],
                    gate=(Gate.USER, f"profile (`codex --profile {name}`)"),
                    ctx=ctx,
                )
            )
    return out
