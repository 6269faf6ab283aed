"""Request-head limits, enforced before anything reads a token or a body.

A request head (request line and headers) is bounded while it arrives: uvicorn's
httptools parser buffers a header of any size until its end, so ``LimitedHttptools``
(limited_httptools.py) counts the head's bytes as they are received and answers 431 and
closes the connection past ``MAX_HEAD_BYTES``; with h11 the same bound is
``h11_max_incomplete_event_size`` (``serve.protocol_options`` picks the one installed).
Once the head is in (so at most ``MAX_HEAD_BYTES``), ``head_problem`` checks each
header line, their number and ``X-Session-Id`` in the ASGI layer, still before
authentication.
"""

from __future__ import annotations

from collections.abc import Iterable

MAX_HEAD_BYTES = 64 * 1024  # the request line and all headers
MAX_HEADER_LINE_BYTES = 16 * 1024  # one header's name and value
MAX_HEADERS = 100
MAX_SESSION_ID_CHARS = 256

_431 = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: application/json\r\n"
    b"connection: close\r\n"
)


def refusal_bytes(message: str) -> bytes:
    """A whole 431 answer, for a connection closed before any request object exists."""
    body = ('{"error":"header_too_large","message":"' + message + '"}').encode()
    return _431 + b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body


def head_problem(headers: Iterable[tuple[bytes, bytes]]) -> tuple[int, str, str] | None:
    """(status, field, message) when the head breaks a limit, else None."""
    count = 0
    for name, value in headers:
        count += 1
        if len(name) + len(value) > MAX_HEADER_LINE_BYTES:
            shown = name.decode("latin-1")[:64]
            return 431, shown, f"header {shown} exceeds {MAX_HEADER_LINE_BYTES} bytes"
        if name == b"x-session-id" and len(value) > MAX_SESSION_ID_CHARS:
            return 400, "X-Session-Id", f"at most {MAX_SESSION_ID_CHARS} characters"
    if count > MAX_HEADERS:
        return 431, "headers", f"more than {MAX_HEADERS} headers"
    return None
