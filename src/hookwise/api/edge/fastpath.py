"""parse-output without FastAPI's routing and dependency machinery.

It is the service's hottest endpoint (thousands of calls a second from every agent), and
on two cores FastAPI's per-request overhead costs several times the parse itself. This
ASGI layer answers ``POST /internal/hook/parse-output`` with the same pieces the
FastAPI route uses (token check, the pydantic request model validated from raw JSON,
``answer_parse``, the error shapes), so both give the same answer; the route stays for
the OpenAPI document and serves the endpoint when this layer is not installed.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from hookwise.api.auth import bearer_token, forbidden, unauthorized
from hookwise.api.edge.errors import ApiError, invalid_request, validation_details
from hookwise.api.edge.middleware import ASGIApp, Receive, Scope, Send
from hookwise.api.routes.hook_output import answer_parse
from hookwise.api.schemas import ParseOutputRequest
from hookwise.api.state import ServiceState
from hookwise.api.tokens import is_admin, lookup

PARSE_OUTPUT = "/internal/hook/parse-output"


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {bytes(k): bytes(v) for k, v in scope.get("headers", ())}


async def _read_body(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


async def send_json(
    send: Send, status: int, body: Any, headers: dict[str, str] | None = None
) -> None:
    payload = json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    raw.extend((k.lower().encode(), v.encode()) for k, v in (headers or {}).items())
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": payload})


class FastPaths:
    def __init__(self, app: ASGIApp, state: ServiceState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == PARSE_OUTPUT and scope["method"] == "POST":
            await self._parse_output(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _parse_output(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        try:
            given = bearer_token(headers.get(b"authorization", b"").decode("latin-1"))
            if not is_admin(self.state.settings.api_token, given):
                # Only a failed admin check pays for the lookup: a named token is known,
                # so it gets 403 (this is an admin route), anything else 401.
                named = await run_in_threadpool(lookup, self.state.engine, given)
                raise unauthorized() if named is None else forbidden(named)
            raw = await _read_body(receive)
            if raw is None:  # the client left, or the body was over the limit
                return
            try:
                body = ParseOutputRequest.model_validate_json(raw)
            except ValidationError as err:
                raise invalid_request(validation_details(err.errors()), PARSE_OUTPUT) from None
            session = headers.get(b"x-session-id")
            answer = await answer_parse(
                self.state, body, session.decode("latin-1") if session else None
            )
        except ApiError as err:
            err = err.at(PARSE_OUTPUT)
            await send_json(send, err.status, err.body(), err.headers)
            return
        await send_json(send, 200, answer)
