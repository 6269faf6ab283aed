"""The directories a host may be started in for one project, and the files of them it reads.

A host reads its project MCP settings from the directory it is started in, not from the one
hookwise calls the project (red team s28 F5): Claude Code the ``.mcp.json`` there, Gemini CLI
the ``.gemini/settings.json`` there, Codex each ``.codex/config.toml`` from the repository
root down to it. A monorepo is started in its package directories, so install, doctor and
scan look at every directory of the repository that holds one of those files (a walk from
the repository root), and say which directories they did not look in. Above the repository,
Claude Code also starts the servers of a ``.mcp.json`` in every directory up to ``/`` (F7):
``above`` lists those.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["SKIPPED_NAMES", "WALK_LIMIT", "Walk", "above", "repository_root", "walk"]

# Directories not walked into, each said so: installed dependencies and tool caches, which
# nobody starts an agent in (their ``.mcp.json`` would be a package's, not the project's).
SKIPPED_NAMES = frozenset([".git", "node_modules", ".venv", "venv", "__pycache__", ".tox"])
# Directories visited at most; a larger tree is cut, and said so.
WALK_LIMIT = 20000


def repository_root(start: Path) -> Path:
    """The nearest directory from ``start`` up holding ``.git`` (a repository's root, as
    Codex finds its project layers), else ``start``."""
    start = Path(os.path.abspath(start))
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return start


@dataclass
class Walk:
    """What a walk found: the directories holding one of the files, root first."""

    root: Path
    dirs: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)  # not walked into (SKIPPED_NAMES, links)
    cut: bool = False  # more than WALK_LIMIT directories: the rest not looked at

    def not_looked(self) -> str:
        """Where the walk did not look, in words ("" when it looked everywhere)."""
        parts: list[str] = []
        if self.skipped:
            shown = ", ".join(str(p.relative_to(self.root)) for p in self.skipped[:3])
            more = f" and {len(self.skipped) - 3} more" if len(self.skipped) > 3 else ""
            parts.append(f"not in {shown}{more} (dependencies, caches or links)")
        if self.cut:
            parts.append(f"not past the first {WALK_LIMIT} directories of {self.root}")
        return "; ".join(parts)


def walk(root: Path, names: Iterable[str], *, limit: int = WALK_LIMIT) -> Walk:
    """The directories under ``root`` (itself included) holding one of ``names`` (paths
    relative to a directory, such as ``.gemini/settings.json``)."""
    wanted = tuple(dict.fromkeys(names))
    found = Walk(Path(os.path.abspath(root)))
    pending = [found.root]
    seen = 0
    while pending:
        directory = pending.pop()
        seen += 1
        if seen > limit:
            found.cut = True
            break
        if any(os.path.lexists(directory / name) for name in wanted):
            found.dirs.append(directory)
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name, reverse=True)
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                linked = not is_dir and entry.is_symlink() and entry.is_dir()
            except OSError:
                continue
            if linked or (is_dir and entry.name in SKIPPED_NAMES and entry.name != ".git"):
                found.skipped.append(Path(entry.path))
            elif is_dir and entry.name != ".git":
                pending.append(Path(entry.path))
    found.dirs.sort(key=lambda p: (len(p.parts), str(p)))
    found.skipped.sort()
    return found


def above(root: Path, name: str) -> list[Path]:
    """``name`` in each directory above ``root`` up to ``/`` that has one (nearest last)."""
    root = Path(os.path.abspath(root))
    return [d / name for d in reversed(root.parents) if os.path.lexists(d / name)]
