"""The floor for bench/api_load.py: a bare ASGI app under the same uvicorn, same workers.

It reads the request body and answers a fixed parse-output-shaped JSON, so the ratio
hookwise/floor is what routing, validation, auth and the parser cost on top of HTTP.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

_BODY = (
    b'{"source":"json","continue":true,"messageBlocks":[],'
    b'"requiresUserInteraction":false,"errors":[]}'
)
_HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(_BODY)).encode())]


async def app(
    scope: MutableMapping[str, Any],
    receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
    send: Callable[[MutableMapping[str, Any]], Awaitable[None]],
) -> None:
    if scope["type"] != "http":
        return
    more = True
    while more:
        message = await receive()
        more = bool(message.get("more_body"))
    await send({"type": "http.response.start", "status": 200, "headers": _HEADERS})
    await send({"type": "http.response.body", "body": _BODY})
