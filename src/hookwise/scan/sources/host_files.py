"""Hooks and MCP servers of every host without a settings loader of its own (GitHub Copilot
CLI, Qwen Code, Factory Droid, Cline, Cursor, Windsurf, Kiro, Augment, Crush), read through
their registry rows and protocol modules.

Hooks come from config/host_hooks.py (the files, layout and handler keys of the row), all
of them, a project's whether or not the host would trust the folder; the gate says which
would run: the user's own files run as configured, a repository's run without a prompt on
a host whose row has no trust step for them (Qwen Code with folder trust off, its default)
and only after the folder is trusted on one that has (Copilot). A row whose hooks_layout is
"script" (Cline) names directories of hook files named after their event, each run under the
program its ``#!`` line or suffix names (config/script_hooks.py). MCP servers come from the
files the protocol module lists (``MCP_FILES``), under the same gates.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from hookwise.config.host_homes import config_file
from hookwise.config.host_hooks import load_host_hooks
from hookwise.config.jsonc import parse_jsonc
from hookwise.config.script_hooks import load_script_hooks
from hookwise.protocol.hosts import host, mcp_files, table
from hookwise.scan.context import ScanContext
from hookwise.scan.locate import file_text
from hookwise.scan.model import Gate, Runnable
from hookwise.scan.sources.hooks import Loaded, entry_runnable
from hookwise.scan.sources.mcp import command_line_servers, servers_of

__all__ = ["file_host_hooks", "file_host_mcp"]


def _gates(name: str) -> dict[str, tuple[Gate, str]]:
    info = host(name)
    if info.project_trust is None:
        repository = (Gate.NO_PROMPT, f"{info.title} runs the repository's hooks: {info.trust}")
    else:
        repository = (Gate.AFTER_TRUST, info.trust)
    return {"project": repository, "user": (Gate.USER, "user settings")}


def _script_hooks(ctx: ScanContext, name: str) -> Loaded:
    """Hook files named after their event, found and started as the host does
    (config/script_hooks.py): the command is the program line the host runs for the file."""
    out = Loaded()
    gates = _gates(name)
    hooks = load_script_hooks(name, str(ctx.project), ctx.env)
    out.warnings.extend(f"{name}: {w}" for w in hooks.warnings)
    for entry in hooks.registry.entries:
        path = Path(entry.origin)
        gate, detail = gates[entry.scope]
        out.files.append(str(path))
        out.runnables.append(
            Runnable(
                host=name,
                kind="hook",
                name=path.name,
                scope=entry.scope,
                command=entry.command or "",
                file=str(path),
                line=1,
                gate=gate,
                gate_detail=detail,
                argv=tuple(shlex.split(entry.command or "")),
            )
        )
    return out


def file_host_hooks(ctx: ScanContext, name: str) -> Loaded:
    if host(name).hooks_layout == "script":
        return _script_hooks(ctx, name)
    out = Loaded()
    hooks = load_host_hooks(name, table(name), str(ctx.project), ctx.env, trusted=True)
    out.warnings.extend(f"{name}: {w}" for w in hooks.warnings)
    out.files.extend(str(p) for p in hooks.files)
    gates = _gates(name)
    for entry in hooks.registry.entries:
        gate, detail = gates.get(entry.scope, gates["project"])
        out.runnables.append(entry_runnable(name, entry, gate, detail, ctx))
    return out


def file_host_mcp(ctx: ScanContext, name: str) -> list[Runnable]:
    out: list[Runnable] = []
    gates = _gates(name)
    for scope, files in mcp_files(name).items():
        for relative, key in files:
            path = (
                config_file(name, relative, ctx.env)
                if scope == "user"
                else Path(ctx.project) / relative
            )
            text = file_text(path)
            if text is None:
                continue
            value, problem = parse_jsonc(text)
            if problem is not None or not isinstance(value, dict):
                continue
            out.extend(
                servers_of(
                    name,
                    scope,
                    str(path),
                    value.get(key),
                    pointer=[key],
                    gate=gates[scope],
                    ctx=ctx,
                )
            )
            out.extend(
                command_line_servers(name, scope, str(path), value, gate=gates[scope], ctx=ctx)
            )
    return out
