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

from hookwise.policy.canonical import UNKNOWN_DIR, kernel_path, tool_paths

# what a WHATWG URL parser (Node's ``new URL``, Python's urlsplit) drops: C0 controls and
# space around the URL, tabs and line breaks anywhere in it (``" fi\tle:///x"`` is a file
# URL there)
_BLANKS = "".join(map(chr, range(0x21)))
_BREAKS = re.compile(r"[\t\n\r]")
_FILE = re.compile(r"[\x00-\x20]*f[\t\n\r]*i[\t\n\r]*l[\t\n\r]*e[\t\n\r]*:", re.IGNORECASE)


def trimmed(text: str) -> str:
    """``text`` as a server forgiving a model's stray blanks takes it: Python's ``strip()``
    and JavaScript's ``trim()`` (which also drops U+FEFF) both applied (red team s27 F8)."""
    while True:
        out = text.strip().strip("\ufeff")
        if out == text:
            return out
        text = out


def _whatwg(text: str) -> list[str]:
    """The path (and host + path) of a ``file:`` URL as a WHATWG parser reads it (Node's
    ``fileURLToPath``, Deno, Bun): ``\\`` is ``/`` in a special scheme, the host ends at
    ``/``, ``?`` or ``#``, dot segments (``%2e`` too) go lexically, then percent-decoding."""
    from urllib.parse import unquote

    rest = text[5:].replace("\\", "/")
    for mark in ("#", "?"):
        rest = rest.split(mark, 1)[0]
    host = ""
    if rest.startswith("//"):
        host, _, path = rest[2:].partition("/")
        path = "/" + path
    else:
        path = "/" + rest.lstrip("/")
    segments: list[str] = []
    for segment in path.split("/")[1:]:
        lowered = segment.lower()
        if lowered in ("..", ".%2e", "%2e.", "%2e%2e"):
            if segments:
                segments.pop()
        elif lowered not in (".", "%2e"):
            segments.append(segment)
    decoded = unquote("/" + "/".join(segments))
    if host in ("", "localhost"):
        return [decoded]
    return [decoded, *dict.fromkeys([host + decoded, unquote(host) + decoded])]


def uri_paths(uri: str) -> list[str] | None:
    """The paths a ``file:`` URI names, or None when ``uri`` is none. A server reads it one
    of several ways, so each is given (red team s27 F1, F16): Python's urllib (the
    percent-decoded path; when the URI names a host, the path under a directory of that
    name too, as a template ``file://project/{name}`` or the Python SDK's ``file://{name}``
    reads it), a WHATWG parser's (``\\`` a separator: Node), and the text after ``file://``
    taken as it is (``#`` and ``?`` kept, nothing decoded: servers that cut the prefix off);
    each also trimmed (``%20`` at the end). Control characters and blanks are dropped first
    as a WHATWG URL parser drops them."""
    if not _FILE.match(uri):
        return None  # before any copy: an argument may be a file's whole content
    from urllib.parse import unquote, urlsplit

    text = _BREAKS.sub("", uri.strip(_BLANKS))
    found: list[str] = []
    try:
        parts = urlsplit(text)
    except ValueError:  # a malformed host ("file://[x/"): its text is a path all the same
        found.append("/" + unquote(text[5:]).lstrip("/"))
    else:
        path = unquote(parts.path) or "/"
        found.append(path)
        if parts.netloc not in ("", "localhost"):
            found += [host + path for host in dict.fromkeys([parts.netloc, unquote(parts.netloc)])]
    found += _whatwg(text)
    naive = text[7:] if text[5:7] == "//" else text[5:]
    found.append(naive if naive.startswith("/") else "/" + naive)
    found += [trimmed(p) for p in found]
    return [p for p in dict.fromkeys(found) if p]


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
        for path in uri_paths(text) or ():
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
