"""A ``file:`` URI in a tool's arguments, read as the paths it names.

MCP names files by URI, and servers take them so (``{"uri": "file:///..."}``,
``{"url": ...}``, a resource's ``location``): such a server opens the file. Under a key no
rule reads, the URI would pass every ``files:`` rule and self-protection (red team s26 F10:
``write_file {uri: file://<user policy>}`` emptied the policy). So a ``file:`` URI is a
path wherever it lies, read one way for a tool call's arguments and for the MCP proxy's
``resources/read``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from hookwise.policy.canonical import UNKNOWN_DIR, kernel_path, tool_paths
from hookwise.policy.uri_paths import argument_paths, trimmed, uri_paths

__all__ = ["trimmed", "uri_paths", "uri_reading"]


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    if depth > 256:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, depth + 1)


def uri_reading(args: Mapping[str, Any], cwd: str, home: str) -> dict[str, Any] | None:
    """``args`` with every path a ``file:`` URI in them names (under any key, at any
    depth) added under ``file_paths``, as written and as it resolves (a server follows
    links, and the kernel takes a ``..`` after one from its target); None when they hold
    no such URI."""
    found: list[str] = []
    for text in _strings(args):
        for path in argument_paths(text) or ():
            absolute = tool_paths(path, cwd, home)[0].absolute
            if absolute is None:
                continue
            # as named, links resolved, and ``..`` after a link as the kernel takes it (F5)
            physical = kernel_path(path, cwd)
            if physical is not None and physical.startswith(UNKNOWN_DIR):
                physical = None  # a name before the `..` is missing: open(2) fails there
            for spelling in (absolute, os.path.realpath(absolute), physical):
                if spelling is not None and spelling not in found:
                    found.append(spelling)
    if not found:
        return None
    listed = args.get("file_paths")
    before = [v for v in listed if isinstance(v, str)] if isinstance(listed, list) else []
    return {**args, "file_paths": [*before, *found]}
