"""What the plugin hosts (the registry's ``hooks_layout`` "plugin": OpenCode, Kilo) start on
their own: the plugins they load and the MCP servers of their settings.

- Plugins: every ``*.js``/``*.ts`` of the plugin directories (the row's project and user
  files), and the ``plugin`` key of the settings files (npm names, ``file://`` paths). A
  plugin runs inside the host with the user's rights and sees, changes or blocks every tool
  call. hookwise's own plugin is recognised only when it is byte for byte what this
  hookwise writes for the command and timeout it names; then its command is what is
  analysed. Any other file, one that only claims to be hookwise's included, is a plugin.
- MCP servers: the ``mcp`` key: ``{"type": "local", "command": [argv], "environment"}``
  (started as that argv, no shell) or ``{"type": "remote", "url"}``; ``enabled: false``
  keeps it off.

Neither host has folder trust (its row's ``trust``): what a repository holds runs without a
prompt, unless the host's switch turning off project configuration is set; its pure switch
turns off every plugin but its built-in ones.
"""

from __future__ import annotations

import importlib
import os
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from hookwise.config.jsonc import parse_jsonc
from hookwise.policy.install.plugin_files import plugin_handlers, plugin_text
from hookwise.protocol.hosts import HOSTS, config_path, hosts_with
from hookwise.protocol.hosts import host as host_info
from hookwise.protocol.jsvalue import JSON
from hookwise.scan.context import ScanContext
from hookwise.scan.locate import file_text, json_line
from hookwise.scan.model import Gate, Runnable
from hookwise.scan.sources.mcp import env_pairs, server_runnable

__all__ = ["PLUGIN_KIND", "plugin_host_runnables"]

PLUGIN_KIND = "plugin"
HOOKWISE_PLUGIN_KIND = "hookwise-plugin"
_SOURCES = (".js", ".ts", ".mjs", ".mts")
MAX_PLUGIN_FILES = 200  # per directory: a hostile tree cannot make the scan list forever


def _switched(env: Mapping[str, str], name: str) -> bool:
    return env.get(name) not in (None, "", "0", "false")


def _gates(host: str, facts: ModuleType, env: Mapping[str, str]) -> dict[str, tuple[Gate, str]]:
    """(gate, why) of the project's and the user's content, for plugins and for servers."""
    title = host_info(host).title
    project: tuple[Gate, str] = (
        Gate.NO_PROMPT,
        f"{title} has no folder trust: it loads the repository's configuration in every folder",
    )
    if _switched(env, facts.PROJECT_CONFIG_SWITCH):
        project = (Gate.OFF, f"{facts.PROJECT_CONFIG_SWITCH} is set")
    pure = _switched(env, facts.PURE_SWITCH)
    off = (Gate.OFF, f"{facts.PURE_SWITCH} is set")
    return {
        "project": project,
        "user": (Gate.USER, "user"),
        "project-plugin": off if pure else project,
        "user-plugin": off if pure else (Gate.USER, "user"),
    }


def _user_env(ctx: ScanContext) -> dict[str, str]:
    """The environment that names the user's config directory (an explicit home wins)."""
    env = dict(ctx.env)
    if ctx.home is not None:
        env["HOME"] = str(ctx.home)
        env.pop("XDG_CONFIG_HOME", None)
    return env


def plugin_host_runnables(ctx: ScanContext) -> tuple[list[Runnable], list[str]]:
    """Every plugin and MCP server of every plugin host; warnings for unreadable files."""
    out: list[Runnable] = []
    warnings: list[str] = []
    env = _user_env(ctx)
    for host in hosts_with("scan"):
        info = HOSTS[host]
        if info.hooks_layout != "plugin":
            continue
        facts = importlib.import_module(info.module)
        gates = _gates(host, facts, ctx.env)
        user_dir = Path(config_path(host, env))
        prefix = info.config_dir[1]
        for scope, base, dirs in (
            ("project", ctx.project, info.project_files),
            ("user", user_dir, [d.removeprefix(prefix + "/") for d in info.user_files]),
        ):
            for directory in dirs:
                out += _directory(host, scope, base / directory, gates[f"{scope}-plugin"])
        for scope, base, names in (
            ("project", ctx.project, info.code_files.get("project", ())),
            ("user", user_dir, info.code_files.get("user", ())),
        ):
            for name in names:
                if name.endswith("/"):  # a directory of code, not a settings file
                    continue
                path = base / name
                text = file_text(path)
                if text is None:
                    continue
                value, problem = parse_jsonc(text)
                if problem is not None or not isinstance(value, dict):
                    warnings.append(f"{path}: not a JSON object ({problem}); not read")
                    continue
                out += _settings_plugins(host, scope, path, text, value, gates, ctx)
                out += _servers(host, scope, path, text, value.get("mcp"), gates[scope], ctx)
    return out, warnings


def _directory(host: str, scope: str, directory: Path, gate: tuple[Gate, str]) -> list[Runnable]:
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)[:MAX_PLUGIN_FILES]
    except OSError:
        return []
    out: list[Runnable] = []
    for entry in entries:
        if entry.name.endswith(_SOURCES) and entry.is_file():
            out.append(_plugin_file(host, scope, Path(entry.path), entry.name, gate))
    return out


def _plugin_file(host: str, scope: str, path: Path, name: str, gate: tuple[Gate, str]) -> Runnable:
    text = file_text(path) or ""
    for _event, _index, handler in plugin_handlers(text, host):
        command_key, timeout_key, _ = host_info(host).handler
        command, timeout = handler[command_key], handler[timeout_key]
        if text == plugin_text(host, command, timeout):  # exactly what install writes
            return Runnable(
                host=host,
                kind=HOOKWISE_PLUGIN_KIND,
                name=name,
                scope=scope,
                command=command,
                file=str(path),
                line=1,
                gate=gate[0],
                gate_detail=f"hookwise's own plugin; {gate[1]}",
            )
    return Runnable(
        host=host,
        kind=PLUGIN_KIND,
        name=name,
        scope=scope,
        command=shlex.join(("node", str(path))),
        file=str(path),
        line=1,
        gate=gate[0],
        gate_detail=gate[1],
        argv=("node", str(path)),
        cwd=str(path.parent),
    )


def _settings_plugins(  # noqa: PLR0917 - one settings file's place and parsed text
    host: str,
    scope: str,
    path: Path,
    text: str,
    value: dict[str, JSON],
    gates: dict[str, tuple[Gate, str]],
    ctx: ScanContext,
) -> Iterable[Runnable]:
    plugins = value.get("plugin")
    gate = gates[f"{scope}-plugin"]
    for index, item in enumerate(plugins if isinstance(plugins, list) else []):
        spec = item[0] if isinstance(item, list) and item else item  # [name, options]
        if not isinstance(spec, str) or not spec.strip():
            continue
        line = json_line(text, ["plugin", index]) or 1
        if spec.startswith("file://"):
            file = Path(spec.removeprefix("file://"))
            if not file.is_absolute():
                file = path.parent / file
            yield replace(_plugin_file(host, scope, file, spec, gate), file=str(path), line=line)
            continue
        yield Runnable(
            host=host,
            kind=PLUGIN_KIND,
            name=spec,
            scope=scope,
            command="",
            file=str(path),
            line=line,
            gate=gate[0],
            gate_detail=f"an npm package the host installs and loads; {gate[1]}",
            cwd=str(ctx.project),
        )


def _servers(  # noqa: PLR0917 - one settings file's place and parsed text
    host: str,
    scope: str,
    path: Path,
    text: str,
    servers: JSON,
    gate: tuple[Gate, str],
    ctx: ScanContext,
) -> Iterable[Runnable]:
    if not isinstance(servers, dict):
        return
    for name, server in servers.items():
        if not isinstance(server, dict):
            continue
        line = json_line(text, ["mcp", name]) or 1
        these = (Gate.OFF, "enabled: false") if server.get("enabled") is False else gate
        command = server.get("command")  # (a list: the program and its arguments)
        argv = (
            tuple(command)
            if isinstance(command, list) and command and all(isinstance(a, str) for a in command)
            else None
        )
        found = server_runnable(
            host, scope, str(path), str(name), line, these, argv=argv, url=server.get("url"),
            env=env_pairs(server.get("environment")), cwd=str(ctx.project),
        )  # fmt: skip
        if found is not None:
            yield found
