"""Request bodies the service could not answer with or store are a 400, before any route.

FastAPI reads bodies with ``json.loads``, which accepts what no JSON answer and neither
database can hold: lone surrogates (``"\\ud800"``), ``NaN``/``Infinity`` and numbers
that overflow to them (``1e999``). A route that stored such a value and then failed to
serialise its answer left a row that broke every later list. This layer reads each JSON
body once more with the sanitising reader's rules and refuses it, naming the field, so
nothing is committed for a request whose answer cannot be written. It sits outside the
parse-output fast path, so both paths give the same answer.
"""

from __future__ import annotations

import json

from hookwise.api.edge.errors import invalid_request
from hookwise.api.edge.fastpath import send_json
from hookwise.api.edge.middleware import ASGIApp, Message, Receive, Scope, Send
from hookwise.api.processing.hook_json import clean_value, might_be_hostile

_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})


def _constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number (expected a finite number)")


def body_problems(raw: bytes) -> list[dict[str, str]]:
    """One 400 detail per field of a JSON body holding an unanswerable value; none when
    the body is fine or not JSON at all (the route then says so in its usual words)."""
    text = raw.decode("utf-8", "replace")
    if not might_be_hostile(text):  # the common case: no parse at all
        return []
    try:
        value = json.loads(raw, parse_constant=_constant)
    except ValueError as err:
        if "not a JSON number" in str(err):
            return [{"field": "body", "message": str(err), "code": "INVALID_VALUE"}]
        return []
    except RecursionError:
        return []
    details: dict[str, dict[str, str]] = {}
    for note in clean_value(value)[1]:
        field, _, message = note.partition(": ")
        details.setdefault(
            field or "body", {"field": field or "body", "message": message, "code": "INVALID_VALUE"}
        )
    return list(details.values())


class StrictJsonBodies:
    """Buffers a JSON body (already capped by ServiceMiddleware), checks it, replays it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _WITH_BODY:
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        chunks: list[bytes] = []
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        details = body_problems(raw) if raw and messages[-1]["type"] == "http.request" else []
        if details:
            err = invalid_request(details, scope["path"])
            await send_json(send, err.status, err.body(), err.headers)
            return

        async def replay() -> Message:
            if messages:
                return messages.pop(0)
            return await receive()

        await self.app(scope, replay, send)
