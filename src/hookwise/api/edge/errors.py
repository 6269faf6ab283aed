"""Every error leaves as the contract's JSON shape, logged with its request id.

400 carries one detail per invalid field; 500 never carries a stack trace (the log does).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from hookwise.api.storage.db import now_ms

log = logging.getLogger("hookwise.api")

# pydantic error type -> the contract's ValidationError code
_CODES = {
    "missing": "REQUIRED_FIELD",
    "extra_forbidden": "UNKNOWN_FIELD",
    "literal_error": "INVALID_VALUE",
    "enum": "INVALID_VALUE",
    "json_invalid": "INVALID_JSON",
    "value_error": "INVALID_VALUE",
    "string_too_short": "EMPTY_REQUIRED_FIELD",
}
_STATUS_ERRORS = {
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    410: "expired",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


class ApiError(Exception):
    """An answer other than success, raised anywhere below a route."""

    def __init__(
        self,
        status: int,
        error: str,
        message: str,
        headers: Mapping[str, str] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.headers = dict(headers or {})
        self.extra = dict(extra or {})

    def at(self, path: str) -> ApiError:
        """This error as answered at ``path``: a 400's message names the route's object."""
        if self.error == "invalid_request" and self.message == GENERIC_INVALID:
            self.message = invalid_message(path)
        return self

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "message": self.message, **self.extra}


def request_id(request: Request) -> str:
    return str(request.scope.get("hookwise.request_id", ""))


def _code(error_type: str) -> str:
    if error_type in _CODES:
        return _CODES[error_type]
    if error_type.endswith("_type") or error_type.endswith("_parsing"):
        return "INVALID_TYPE"
    return "INVALID_VALUE"


def _field(loc: Sequence[int | str]) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in {"body", "query", "path", "header"}:
        parts = parts[1:]
    return ".".join(parts) or "body"


# pydantic's wording before a validator's own message ("Value error, must be http(s)://...")
_MESSAGE_PREFIXES = ("Value error, ", "Assertion failed, ")

# The 400 message names the object the route takes: (path prefix, message), first match wins.
_INVALID_MESSAGES: tuple[tuple[str, str], ...] = (
    ("/internal/hook/create-permission-request", "Invalid permission request format"),
    ("/internal/hook/resolve-permission", "Invalid permission resolution format"),
    ("/internal/hook/pending-permissions", "Invalid pending permissions query"),
    ("/internal/hook/", "Invalid hook output request format"),
    ("/internal/message/", "Invalid message request format"),
    ("/api/hook/output-config", "Invalid output configuration"),
    ("/api/webhooks", "Invalid webhook request format"),
    ("/api/approvals", "Invalid approval request format"),
    ("/api/policy/", "Invalid policy decision request format"),
    ("/api/console/", "Invalid console query"),
)
GENERIC_INVALID = "Invalid request format"


def invalid_message(path: str | None) -> str:
    """The 400 message for a request to ``path``: what was invalid, in the route's words."""
    if path is not None:
        for prefix, message in _INVALID_MESSAGES:
            if path.startswith(prefix):
                return message
    return GENERIC_INVALID


def _message(err: Mapping[str, Any]) -> str:
    text = str(err.get("msg", "invalid value"))
    for prefix in _MESSAGE_PREFIXES:
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text


def validation_details(errors: Sequence[Any]) -> list[dict[str, str]]:
    """Exactly one detail per invalid field (unions report several errors for one field)."""
    details: dict[str, dict[str, str]] = {}
    for err in errors:
        loc = [p for p in err.get("loc", ()) if not (isinstance(p, str) and "[" in p)]
        # A body that is not JSON at all: FastAPI puts the character offset in loc.
        name = "body" if err.get("type") == "json_invalid" else _field(loc)
        if name in details:
            continue
        details[name] = {
            "field": name,
            "message": _message(err),
            "code": _code(str(err.get("type", ""))),
        }
    return list(details.values())


def invalid_request(details: list[dict[str, str]], path: str | None = None) -> ApiError:
    """A 400 with one detail per field; without ``path``, the message is set when it is sent."""
    return ApiError(400, "invalid_request", invalid_message(path), extra={"details": details})


def _respond(request: Request, err: ApiError) -> JSONResponse:
    rid = request_id(request)
    err = err.at(request.url.path)
    log.info("request %s -> %d %s: %s", rid, err.status, err.error, err.message)
    return JSONResponse(err.body(), status_code=err.status, headers=err.headers)


async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return _respond(request, exc)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return _respond(request, invalid_request(validation_details(exc.errors())))


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # the framework could not read the body at all
        detail = str(exc.detail) if exc.detail else "the body could not be read"
        return _respond(
            request, invalid_request([{"field": "body", "message": detail, "code": "INVALID_JSON"}])
        )
    error = _STATUS_ERRORS.get(exc.status_code, "http_error")
    message = str(exc.detail) if exc.detail else error.replace("_", " ")
    return _respond(request, ApiError(exc.status_code, error, message, exc.headers))


async def _internal_error(request: Request, exc: Exception) -> JSONResponse:
    rid = request_id(request)
    log.error("request %s failed: %s", rid, exc, exc_info=exc)
    body = {
        "error": "internal_error",
        "message": "Hook output processing failed",
        "requestId": rid,
        "timestamp": now_ms(),
    }
    return JSONResponse(body, status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)
