"""A ``file:`` URI in a tool's arguments, read as the paths it names.

MCP names files by URI, and servers take them so (``{"uri": "file:///..."}``,
``{"url": ...}``, a resource's ``location``): such a server opens the file. Under a key no
rule reads, the URI would pass every ``files:`` rule and self-protection (red team s26 F10:
``write_file {uri: file://<user policy>}`` emptied the policy). So a ``file:`` URI (or one
of another scheme a server maps to files) is a path wherever it lies, read one way for a
tool call's arguments, the MCP proxy's ``resources/read`` and the hook's MCP tools
(``canonical.uri_files``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hookwise.policy.canonical import uri_files
from hookwise.policy.uri_paths import trimmed, uri_paths

__all__ = ["trimmed", "uri_paths", "uri_reading"]


def uri_reading(args: Mapping[str, Any], cwd: str, home: str) -> dict[str, Any] | None:
    """``args`` with every path a URI in them names (under any key, at any depth:
    :func:`canonical.uri_files`, as written and as it resolves) added under
    ``file_paths``; None when they hold no such URI."""
    found = uri_files(dict(args), cwd, home)
    if not found:
        return None
    listed = args.get("file_paths")
    before = [v for v in listed if isinstance(v, str)] if isinstance(listed, list) else []
    return {**args, "file_paths": [*before, *found]}
