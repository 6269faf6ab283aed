"""The MCP stdio wire: newline-delimited JSON-RPC 2.0 messages, read strictly.

The proxy decides on what it parsed and the server acts on what it parses, so any message
the two could read differently is refused rather than passed on: duplicate keys (a parser
that keeps the first would see another method or tool), ``NaN``/``Infinity``, invalid
UTF-8, more than one JSON value on a line, and an envelope a server matching keys without
case reads otherwise (:func:`envelope_problem`). A line longer than the limit is dropped whole,
never split into pieces that each look like a message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from hookwise.policy.arg_roles import reads_as

# One message may carry a large file or image as base64: 64 MiB by default.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024

Kind = Literal["request", "notification", "response", "batch", "invalid"]


# what is kept of a line over the limit: enough to find the id its answer must carry
HEAD_BYTES = 512


class Oversize:
    """A line that was longer than the limit: ``size`` bytes, of which only the first
    ``head`` (:data:`HEAD_BYTES`) are kept, to answer the request it was."""

    __slots__ = ("head", "size")

    def __init__(self, size: int, head: bytes = b"") -> None:
        self.size = size
        self.head = head

    def __repr__(self) -> str:
        return f"Oversize({self.size})"


class LineSplitter:
    """Bytes as they arrive -> whole lines (without the newline), at most ``max_bytes`` each.

    A line past the limit yields one :class:`Oversize` and everything up to its newline is
    skipped. A trailing ``\\r`` stays: JSON reads it as whitespace.
    """

    __slots__ = ("_buf", "_dropped", "_dropping", "_head", "max_bytes")

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if max_bytes < 1:
            raise ValueError(f"max_bytes must be at least 1; got {max_bytes}")
        self.max_bytes = max_bytes
        self._buf = bytearray()
        self._dropping = False
        self._dropped = 0
        self._head = b""

    def feed(self, chunk: bytes) -> list[bytes | Oversize]:
        out: list[bytes | Oversize] = []
        start = 0
        while start < len(chunk):
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if self._dropping:
                self._dropped += len(piece)
                if len(self._head) < HEAD_BYTES:
                    self._head += piece[: HEAD_BYTES - len(self._head)]
            elif len(self._buf) + len(piece) > self.max_bytes:
                self._dropping = True
                self._dropped = len(self._buf) + len(piece)
                self._head = bytes(self._buf[:HEAD_BYTES]) + piece[: HEAD_BYTES - len(self._buf)]
                self._buf.clear()
            else:
                self._buf += piece
            if end < 0:
                break
            if self._dropping:
                out.append(Oversize(self._dropped, self._head))
                self._dropping = False
                self._dropped = 0
                self._head = b""
            else:
                out.append(bytes(self._buf))
                self._buf.clear()
            start = end + 1
        return out

    def close(self) -> list[bytes | Oversize]:
        """What is left at end of stream (a last line without its newline)."""
        if self._dropping:
            self._dropping = False
            return [Oversize(self._dropped, self._head)]
        if self._buf:
            rest = bytes(self._buf)
            self._buf.clear()
            return [rest]
        return []


class WireError(ValueError):
    """A line that is not one JSON-RPC message both sides would read alike."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise WireError(f"duplicate key {key!r} in an object")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise WireError(f"{name} is not JSON")


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):  # 1e400: no peer can write it back
        raise WireError(f"number {text[:40]} is out of range")
    return value


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)


def loads(line: bytes) -> Any:
    """One JSON value from one line, strictly (see the module docstring)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WireError(f"not UTF-8 at byte {exc.start}") from None
    try:
        value, end = _DECODER.raw_decode(text, _skip_ws(text, 0))
    except json.JSONDecodeError as exc:
        raise WireError(f"not JSON: {exc.msg} at character {exc.pos}") from None
    except RecursionError:
        raise WireError("not JSON this proxy can read: nested too deeply") from None
    except ValueError as exc:  # an integer past Python's digit limit
        raise WireError(f"not JSON this proxy can read: {exc}") from None
    if _skip_ws(text, end) != len(text):
        raise WireError(f"more than one JSON value on the line (extra data at {end})")
    if _deeper_than(value, MAX_DEPTH):
        raise WireError(
            f"nested deeper than {MAX_DEPTH} levels, which a server may not read at all "
            "(the Python SDK's parser stops at 200 and never answers)"
        )
    return value


# objects and arrays inside one another, at most: past the Python SDK's parser (pydantic's
# 200) a server drops the line unanswered, and the client would wait for --timeout
MAX_DEPTH = 128


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def _skip_ws(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def dumps(value: Any) -> bytes:
    """A message as one line, ASCII only: no byte in it that any reader could take for a
    line break (a raw U+2028 splits a line for some)."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False).encode("ascii")


def id_key(value: Any) -> tuple[str, str]:
    """A hashable key for a JSON-RPC id of any JSON type: ``1`` and ``"1"`` and ``true``
    differ (Python's ``1 == True == 1.0`` must not merge them); ``1`` and ``1.0`` are one
    number, as a JavaScript peer echoes it."""
    if isinstance(value, bool):
        return ("bool", str(value))
    if isinstance(value, int):
        return ("num", str(value))
    if isinstance(value, float):
        return ("num", str(int(value)) if value.is_integer() else repr(value))
    if isinstance(value, str):
        return ("str", value)
    if value is None:
        return ("null", "")
    return ("json", json.dumps(value, sort_keys=True))


@dataclass(frozen=True)
class Message:
    """One line read from a peer: what it is, and the parsed value."""

    kind: Kind
    value: Any = None  # the parsed JSON (a list for a batch)
    method: str | None = None
    error: str = ""  # invalid: why

    @property
    def id(self) -> Any:
        return self.value.get("id") if isinstance(self.value, dict) else None

    @property
    def key(self) -> tuple[str, str]:
        return id_key(self.id)


def classify(value: Any) -> Message:
    """What a parsed JSON value is as a JSON-RPC message (a batch's items each on their
    own: :func:`classify` them)."""
    if isinstance(value, list):
        if not value:
            return Message("invalid", value, error="an empty batch")
        return Message("batch", value)
    if not isinstance(value, dict):
        return Message("invalid", value, error=f"expected an object, got {type(value).__name__}")
    method = value.get("method")
    if "method" in value:
        if not isinstance(method, str):
            return Message("invalid", value, error="'method' is not a string")
        if "result" in value or "error" in value:
            return Message("invalid", value, error="both 'method' and 'result'/'error'")
        if "id" in value:
            return Message("request", value, method)
        return Message("notification", value, method)
    if "id" in value and ("result" in value or "error" in value):
        if "result" in value and "error" in value:
            return Message("invalid", value, error="both 'result' and 'error'")
        return Message("response", value)
    return Message("invalid", value, error="neither a request, a notification nor a response")


def parse(line: bytes) -> Message:
    """One line -> a :class:`Message` (kind ``invalid`` with the reason when it is not one)."""
    try:
        value = loads(line)
    except WireError as exc:
        return Message("invalid", None, error=str(exc))
    return classify(value)


def blank(line: bytes) -> bool:
    """A line of whitespace only: skipped, as the SDKs skip it."""
    return not line.strip(b" \t\r")


# the members of a message and of its ``params`` the proxy reads (JSON-RPC's, MCP's)
ENVELOPE_KEYS = frozenset(
    ["jsonrpc", "id", "method", "params", "result", "error", "name", "arguments", "uri",
     "_meta", "requestId", "progressToken", "capabilities", "cursor"]
)  # fmt: skip
_ENVELOPE_READS = {reads_as(key): key for key in ENVELOPE_KEYS}


def envelope_problem(value: Any) -> str | None:
    """Why a message's envelope reads otherwise to a server matching keys without case
    (Go's ``encoding/json``, as in go-sdk before 1.3.1, mark3labs/mcp-go, hand-written
    structs): two keys of the message or of its ``params`` that fold to one (``arguments``
    and ``Arguments``: the proxy decides one, the server runs the other), or a key that
    folds to a member the proxy reads without being it (``Method`` on a response, ``PARAMS``,
    ``argumentſ``); None when it reads alike (red team s26 F1)."""
    if not isinstance(value, dict):
        return None
    params = value.get("params")
    for where, obj in (("the message", value), ("its params", params)):
        if not isinstance(obj, dict):
            continue
        seen: dict[str, str] = {}
        for key in obj:
            folded = reads_as(key)
            other = seen.setdefault(folded, key)
            if other != key:
                return (
                    f"{where} has the keys {other!r} and {key!r}, which a server matching "
                    "keys without case (Go's encoding/json) reads as one"
                )
            meant = _ENVELOPE_READS.get(folded)
            if meant is not None and meant != key:
                return (
                    f"{where} has the key {key!r}, which a server matching keys without case "
                    f"(Go's encoding/json) reads as {meant!r}"
                )
    return None
