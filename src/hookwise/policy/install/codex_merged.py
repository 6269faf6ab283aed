"""``doctor``: Codex's MCP servers as Codex merges its layers, not file by file.

Codex merges a server's table field by field over its layers (the user's config.toml, a
profile, each project ``.codex/config.toml`` from the repository root down to where it is
started: ``config.codex.mcp_layers``). A repository layer with only ``args = [...]`` for a
server the user's file wraps keeps the user's ``command`` (hookwise's own interpreter) and
replaces the proxy's arguments with the server's: no proxy, and each file alone looks fine
(red team s28 F8). Judged here: the merged entry in every directory of the repository that
has a layer, with and without each profile.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from hookwise.config.codex.mcp_layers import McpLayer, mcp_layers, merged_server
from hookwise.config.start_dirs import repository_root, walk
from hookwise.mcp_proxy import wrapped
from hookwise.protocol.codex import MCP_FILES

__all__ = ["Merged", "merged_problems"]

_PROJECT_FILE = MCP_FILES["project"][0][0]


@dataclass(frozen=True)
class Merged:
    """A server Codex runs outside the proxy although a file of it is wrapped."""

    name: str
    file: Path  # the last layer that changes the wrapped entry
    argv: tuple[str, ...]  # what Codex runs, merged
    why: str


def _argv(entry: Mapping[str, object]) -> list[str] | None:
    command, args = entry.get("command"), entry.get("args", [])
    if not isinstance(command, str) or not isinstance(args, list):
        return None
    return [command, *(str(a) for a in args)]


def merged_problems(project: Path, codex_home: Path) -> list[Merged]:
    """The servers not behind the proxy where Codex merges a wrapped entry with a later
    layer's fields, in every directory of the repository that has a layer (empty when every
    merged entry is as its files say)."""
    starts = walk(repository_root(Path(project)), [_PROJECT_FILE]).dirs or [Path(project)]
    out: dict[str, Merged] = {}
    for start in starts:
        user, profiles, projects = mcp_layers(codex_home, start)
        for profile in [None, *profiles]:
            chain = [x for x in (user, profile, *projects) if x is not None]
            names = {n for layer in chain for n in (layer.servers or {})}
            for name in sorted(names - set(out)):
                found = _judge(name, chain, start, profile)
                if found is not None:
                    out[name] = found
    return list(out.values())


def _judge(
    name: str, chain: list[McpLayer], start: Path, profile: McpLayer | None
) -> Merged | None:
    merged, setting = merged_server(name, chain)
    if merged is None or len(setting) < 2:
        return None  # one file alone: the file-by-file checks judge it
    argv = _argv(merged)
    own = [layer for layer in setting if (entry := (layer.servers or {}).get(name))
           and (a := _argv(entry)) is not None and wrapped(a)]  # fmt: skip
    if argv is None or wrapped(argv) or not own:
        return None
    later = [layer for layer in setting if layer not in own]
    where = f"started in {start}" + (f" with {profile.label}" if profile else "")
    why = (
        f"{', '.join(x.label for x in own)} wraps it, but Codex merges "
        f"{', '.join(x.label for x in later)} over it field by field: {where} it runs "
        f"{shlex.join(argv)!r}, not behind the proxy (give that layer's entry its own wrapped "
        "command, or remove it)"
    )
    return Merged(name, later[-1].file, tuple(argv), why)
