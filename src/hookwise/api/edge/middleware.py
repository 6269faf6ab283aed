"""Pure ASGI middleware (no BaseHTTPMiddleware: it costs a task per request).

Every request gets an id (echoed as ``X-Request-Id`` and used in logs and 500 bodies),
headers past the limits of api/edge/limits.py are refused before authentication, bodies over
the limit are refused with 413 before they are read whole, and every answer
is counted for the health metrics.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from hookwise.api.edge.limits import head_problem
from hookwise.api.metrics import Metrics

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_SAFE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
log = logging.getLogger("hookwise.api")


def _log_error(scope: Scope, status: int, rid: str) -> None:
    """Every error answer, with its request id, at WARNING (5xx: ERROR)."""
    level = logging.ERROR if status >= 500 else logging.WARNING
    log.log(
        level,
        "request %s %s %s -> %d",
        rid,
        scope.get("method", ""),
        scope.get("path", ""),
        status,
        extra={"request_id": rid},
    )


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value)
    return None


async def _send_json(send: Send, status: int, body: dict[str, Any], rid: str) -> None:
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                (b"x-request-id", rid.encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


class ServiceMiddleware:
    def __init__(self, app: ASGIApp, max_body: int, metrics: Metrics) -> None:
        self.app = app
        self.max_body = max_body
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = _header(scope, b"x-request-id")
        text = incoming.decode("latin-1") if incoming else ""
        rid = text if _SAFE_ID.fullmatch(text) else uuid.uuid4().hex
        scope["hookwise.request_id"] = rid
        problem = head_problem(scope["headers"])
        if problem is not None:  # before the token is read
            status, field, message = problem
            self.metrics.response(status)
            _log_error(scope, status, rid)
            detail = {"field": field, "message": message, "code": "INVALID_VALUE"}
            body = (
                {"error": "invalid_request", "message": message, "details": [detail]}
                if status == 400
                else {"error": "header_too_large", "message": message}
            )
            await _send_json(send, status, body, rid)
            return
        too_large = {
            "error": "payload_too_large",
            "message": f"request body exceeds {self.max_body} bytes",
        }
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            self.metrics.response(413)
            _log_error(scope, 413, rid)
            await _send_json(send, 413, too_large, rid)
            return

        seen = 0
        exceeded = False
        replaced = False

        async def limited_receive() -> Message:
            nonlocal seen, exceeded
            if exceeded:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    # Frameworks swallow errors raised while reading the body (FastAPI turns
                    # them into a 400), so stop the body here and answer 413 on the way out.
                    exceeded = True
                    return {"type": "http.disconnect"}
            return message

        async def tagged_send(message: Message) -> None:
            nonlocal replaced
            if exceeded:
                if not replaced:
                    replaced = True
                    self.metrics.response(413)
                    _log_error(scope, 413, rid)
                    await _send_json(send, 413, too_large, rid)
                return
            if message["type"] == "http.response.start":
                status = int(message["status"])
                self.metrics.response(status)
                if status >= 400:
                    _log_error(scope, status, rid)
                message["headers"] = [*message.get("headers", []), (b"x-request-id", rid.encode())]
            await send(message)

        try:
            await self.app(scope, limited_receive, tagged_send)
        except Exception:
            if not exceeded:
                raise
        if exceeded and not replaced:
            self.metrics.response(413)
            _log_error(scope, 413, rid)
            await _send_json(send, 413, too_large, rid)
