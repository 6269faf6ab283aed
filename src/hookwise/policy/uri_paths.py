"""The paths a ``file:`` URI names, read each way a server reads it (WHATWG, urllib, the
naive text after ``file://``): one reading for the MCP proxy's tool calls and
``resources/read`` (integrations/file_uri.py) and for the hook's own resource tools
(Claude's ReadMcpResourceTool, Gemini's read_mcp_resource: red team s27 F18). Standard
library only; the hook loads it only for such a tool.
"""

from __future__ import annotations

import re

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


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def resource_paths(uri: str) -> list[str] | None:
    """The files a resource URI may name, or None when it has no scheme: a ``file:`` URI's
    paths (:func:`uri_paths`); under any other scheme, its path part as a template server
    maps it to a file (``fs:///{+path}``, ``workspace://{+path}``, ``repo://{root}/{+path}``:
    red team s28 F9). The server's mapping is its own, so each reading is given: the text
    after the scheme (and its ``//``) as a path, absolute when it starts with ``/`` and
    else relative to where the call is decided; the path after an authority, absolute and
    relative; each also without its query or fragment and percent-decoded. One reading for
    the proxy's ``resources/read`` and the hook's resource tools."""
    found = uri_paths(uri)
    if found is not None:
        return found
    text = _BREAKS.sub("", uri.strip(_BLANKS))
    scheme = _SCHEME.match(text)
    if scheme is None:
        return None
    from urllib.parse import unquote

    rest = text[scheme.end() :]
    parts = [rest]
    if rest.startswith("//"):
        rest = rest[2:]
        parts = [rest]
        _authority, slash, path = rest.partition("/")
        if slash:
            parts += ["/" + path, path]
    out: list[str] = []
    for part in parts:
        cut = part.split("#", 1)[0].split("?", 1)[0]
        out += [part, cut, unquote(part), unquote(cut)]
    out += query_paths(text)
    return [p for p in dict.fromkeys(trimmed(p) for p in out) if p]


_QUERY_VALUES = 8  # values of a query read as names (and each pair joined: dir, name)


def query_paths(uri: str) -> list[str]:
    """The names a URI's query may give a template server (RFC 6570 form-style expansion,
    ``q://read{?name,dir}``: ``q://read?dir=<proj>&name=.env``): each value percent-decoded,
    and each pair joined as a directory and a name in it (red team s29 F7)."""
    from urllib.parse import parse_qsl

    query = uri.split("#", 1)[0].partition("?")[2]
    if not query:
        return []
    try:
        values = [v for _k, v in parse_qsl(query, keep_blank_values=False)][:_QUERY_VALUES]
    except ValueError:
        return []
    joined = [f"{a.rstrip('/')}/{b}" for a in values for b in values if a != b]
    return [*values, *joined]


# schemes whose URLs name a place on the network, never a file here (a fetch tool's url)
NETWORK_SCHEMES = frozenset(
    ["http", "https", "ws", "wss", "ftp", "ftps", "sftp", "ssh", "git", "mailto"]
)


def argument_paths(text: str) -> list[str] | None:
    """The files a URI given to a tool argument may name: as the same URI given to
    ``resources/read`` (:func:`resource_paths`: a server exposing resources as a tool reads
    ``fs:///...`` or ``workspace://.env`` so, red team s29 F6), but a network URL names
    none; None when ``text`` is no URI."""
    found = uri_paths(text)
    if found is not None:
        return found
    scheme = _URI_START.match(text)  # (before any copy: it may be a file's whole content)
    if scheme is None or _BREAKS.sub("", scheme.group(1)).lower() in NETWORK_SCHEMES:
        return None
    return resource_paths(text)


_URI_START = re.compile(r"[\x00-\x20]*([A-Za-z][A-Za-z0-9+.\-\t\n\r]*):[\t\n\r]*/[\t\n\r]*/")
