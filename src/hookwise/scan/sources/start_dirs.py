"""What a host runs when it is not started in the scanned directory itself.

The hosts' loaders (sources/mcp.py, hooks.py, host_files.py) read the project directory's
files. A host started in a subdirectory of the repository reads that subdirectory's own
(red team s28 F5: ``pkg/.mcp.json``, ``pkg/.gemini/settings.json``, ``pkg/.codex/config.toml``;
s29: ``pkg/.claude/settings.json``, its hooks and the servers it approves): :func:`start_dirs`
finds those directories, and report.py reads each with the same loaders as the project. And
Claude Code starts the servers of a ``.mcp.json`` in every directory above it too, up to
``/`` (F7: ``~/.mcp.json`` in every project under HOME). Codex merges a server's table field
by field over its layers: a layer setting only ``args`` runs them under the wrapped entry's
command (F8). Each is a runnable here, judged like the others (report.py).
"""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path

from hookwise.config.jsonc import parse_jsonc
from hookwise.config.start_dirs import above, repository_root, walk
from hookwise.protocol.hosts import HOST_NAMES, HOST_TITLES, mcp_files, mcp_files_above
from hookwise.protocol.hosts import host as host_info
from hookwise.scan.context import ScanContext
from hookwise.scan.locate import file_text, text_line
from hookwise.scan.model import Gate, Runnable
from hookwise.scan.sources.mcp import command_line_servers, servers_of

__all__ = ["ABOVE_SCOPE", "start_dir_mcp", "start_dirs"]

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


def start_dirs(ctx: ScanContext) -> tuple[list[Path], list[str]]:
    """(the directories of the repository other than the project holding a host's settings
    or MCP file, which a host started there reads (``pkg/.claude/settings.json``: its hooks
    and the servers it approves); where the walk did not look). The bounded walk of
    install and doctor (config/start_dirs.walk): dependencies, caches, ``.git`` and links
    not walked into, and said so."""
    root = repository_root(ctx.project)
    names: set[str] = set()
    for name in HOST_NAMES:
        # (a pattern's directory: .clinerules/hooks/* is there when .clinerules/hooks is)
        names.update(f.split("*", 1)[0].rstrip("/") for f in host_info(name).project_files)
        names.update(relative for relative, _key in mcp_files(name).get("project", ()))
    found = walk(root, sorted(names))
    unlooked = found.not_looked()
    warnings = [f"host settings and MCP files: looked in every directory of {root}, "
                f"{unlooked}"] if unlooked else []  # fmt: skip
    return [d for d in found.dirs if d != ctx.project], warnings


def start_dir_mcp(ctx: ScanContext, codex_home: Path | None) -> list[Runnable]:
    """The servers of the files above the repository, and of Codex's merged layers (what
    a host started in a directory of the repository reads there: :func:`start_dirs`,
    read by each host's own loader in report.py)."""
    root = repository_root(ctx.project)
    project = ctx.project
    out: list[Runnable] = []
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
    return out
