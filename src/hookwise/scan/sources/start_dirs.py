"""MCP servers a host starts when it is not started in the scanned directory itself.

The hosts' loaders (sources/mcp.py, host_files.py) read the project directory's files. A
host started in a subdirectory of the repository reads that subdirectory's own (red team
s28 F5: ``pkg/.mcp.json``, ``pkg/.gemini/settings.json``, ``pkg/.codex/config.toml``), and
Claude Code starts the servers of a ``.mcp.json`` in every directory above it too, up to
``/`` (F7: ``~/.mcp.json`` in every project under HOME). Codex merges a server's table field
by field over its layers: a layer setting only ``args`` runs them under the wrapped entry's
command (F8). Each is a runnable here, judged like the others (report.py).
"""

from __future__ import annotations

import shlex
import tomllib
from dataclasses import replace
from pathlib import Path

from hookwise.config.jsonc import parse_jsonc
from hookwise.config.start_dirs import above, repository_root, walk
from hookwise.protocol.hosts import HOST_NAMES, HOST_TITLES, mcp_files, mcp_files_above
from hookwise.scan.context import ScanContext
from hookwise.scan.locate import file_text, text_line
from hookwise.scan.model import Gate, Runnable
from hookwise.scan.sources.mcp import command_line_servers, servers_of


def _merges_layers(host: str) -> bool:
    """Whether ``host``'s own loader reads its config layers from the root down to the
    project (its protocol module's ``MERGES_MCP_LAYERS``)."""
    import importlib

    from hookwise.protocol.hosts import host as host_info

    module = importlib.import_module(host_info(host).module)
    return bool(getattr(module, "MERGES_MCP_LAYERS", False))


__all__ = ["ABOVE_SCOPE", "start_dir_mcp"]

ABOVE_SCOPE = "above-project"  # a file above the repository (report.py: high)


def _servers(path: Path, key: str) -> dict[str, object] | None:
    text = file_text(path)
    if text is None:
        return None
    if path.suffix == ".toml":
        try:
            value: object = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return None
    else:
        value, problem = parse_jsonc(text)
        if problem is not None:
            return None
    return value if isinstance(value, dict) else None


def _file_servers(
    ctx: ScanContext, host: str, scope: str, path: Path, *, key: str, gate: tuple[Gate, str]
) -> list[Runnable]:
    doc = _servers(path, key)
    if doc is None:
        return []
    pointer: list[str | int] = [] if path.suffix == ".toml" else [key]
    out = list(servers_of(host, scope, str(path), doc.get(key), pointer=pointer, gate=gate,
                          ctx=ctx))  # fmt: skip
    out += command_line_servers(host, scope, str(path), doc, gate=gate, ctx=ctx)
    return out


def start_dir_mcp(ctx: ScanContext, codex_home: Path | None) -> tuple[list[Runnable], list[str]]:
    """(the servers of the repository's other start directories and of the files above it,
    what the scan did not look at)."""
    root = repository_root(ctx.project)
    project = ctx.project
    hosts = {h: mcp_files(h).get("project", ()) for h in HOST_NAMES}
    found = walk(root, [relative for files in hosts.values() for relative, _ in files])
    warnings = [f"MCP files: looked in every directory of {root}, {found.not_looked()}"] if (
        found.not_looked()) else []  # fmt: skip
    out: list[Runnable] = []
    for directory in found.dirs:
        if directory == project:
            continue  # the hosts' own loaders read it
        for host, files in hosts.items():
            # (Codex reads the layers from the root down to the project: its loader has those)
            if _merges_layers(host) and project.is_relative_to(directory):
                continue
            gate = (Gate.AFTER_TRUST, f"{HOST_TITLES[host]} started in {directory} runs it")
            for relative, key in files:
                found_here = _file_servers(
                    ctx, host, "project", directory / relative, key=key, gate=gate
                )  # (started there: a relative path of theirs is read from there)
                out += [r if r.cwd != str(project) else replace(r, cwd=str(directory))
                        for r in found_here]  # fmt: skip
    for host in HOST_NAMES:
        for relative, key in mcp_files_above(host):
            for path in above(root, relative):
                gate = (Gate.AFTER_TRUST, f"{HOST_TITLES[host]} reads it in every directory "
                                          "below it")  # fmt: skip
                out += _file_servers(ctx, host, ABOVE_SCOPE, path, key=key, gate=gate)
    if codex_home is not None:
        from hookwise.policy.install.codex_merged import merged_problems

        for merged in merged_problems(project, codex_home):
            line = text_line(str(merged.file), f"mcp_servers.{merged.name}", merged.name)
            out.append(Runnable(
                host="codex", kind="mcp-server", name=merged.name, scope="project",
                command=shlex.join(merged.argv), file=str(merged.file), line=line,
                gate=Gate.AFTER_TRUST, gate_detail=merged.why, argv=merged.argv,
                cwd=str(project),
            ))  # fmt: skip
    return out, warnings
