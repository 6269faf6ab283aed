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
import re
from collections.abc import Iterator, Mapping
from typing import Any

from hookwise.policy.canonical import tool_paths

# what a WHATWG URL parser (Node's ``new URL``, Python's urlsplit) drops: C0 controls and
# space around the URL, tabs and line breaks anywhere in it (``" fi\tle:///x"`` is a file
# URL there)
_BLANKS = "".join(map(chr, range(0x21)))
_BREAKS = re.compile(r"[\t\n\r]")
_FILE = re.compile(r"[\x00-\x20]*f[\t\n\r]*i[\t\n\r]*l[\t\n\r]*e[\t\n\r]*:", re.IGNORECASE)


def uri_paths(uri: str) -> list[str] | None:
    """The paths a ``file:`` URI names, or None when ``uri`` is none: the percent-decoded
    path, and when the URI names a host, the path under a directory of that name too (a
    server's template ``file://project/{name}`` reads it so; the Python SDK's
    ``file://{name}`` reads ``file://%73ecret.txt`` as secret.txt), the host part as
    written and decoded. Control characters and blanks are dropped first as a WHATWG URL
    parser drops them."""
    if not _FILE.match(uri):
        return None  # before any copy: an argument may be a file's whole content
    from urllib.parse import unquote, urlsplit

    text = _BREAKS.sub("", uri.strip(_BLANKS))
    try:
        parts = urlsplit(text)
    except ValueError:  # a malformed host ("file://[x/"): its text is a path all the same
        return ["/" + unquote(text[5:]).lstrip("/")]
    path = unquote(parts.path) or "/"
    if parts.netloc in ("", "localhost"):
        return [path]
    hosts = dict.fromkeys([parts.netloc, unquote(parts.netloc)])
    return [path, *(host + path for host in hosts)]


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
    links); None when they hold no such URI."""
    found: list[str] = []
    for text in _strings(args):
        for path in uri_paths(text) or ():
            absolute = tool_paths(path, cwd, home)[0].absolute
            if absolute is None:
                continue
            for spelling in (absolute, os.path.realpath(absolute)):
                if spelling not in found:
                    found.append(spelling)
    if not found:
        return None
    listed = args.get("file_paths")
    before = [v for v in listed if isinstance(v, str)] if isinstance(listed, list) else []
    return {**args, "file_paths": [*before, *found]}
