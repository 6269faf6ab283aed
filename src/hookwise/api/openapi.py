"""The OpenAPI document says every answer a route can give, in the shapes it really has.

FastAPI documents a 422 the service never sends (validation answers 400 with the
contract's body) and none of the shared errors; this fills in 400/401/413/500 on every
protected route, 429 (with Retry-After) where a rate limit applies, and drops the 422.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from hookwise.api.schemas import (
    ErrorResponse,
    InternalErrorResponse,
    InvalidRequestResponse,
    RateLimitResponse,
)


def _rate_limited(dependant: Dependant) -> bool:
    for dep in dependant.dependencies:
        if getattr(dep.call, "rate_group", None) or _rate_limited(dep):
            return True
    return False


def _errors(limited: bool, protected: bool) -> dict[int | str, dict[str, Any]]:
    out: dict[int | str, dict[str, Any]] = {
        400: {"model": InvalidRequestResponse, "description": "Invalid request"},
        413: {"model": ErrorResponse, "description": "Body over 1 MiB"},
        500: {"model": InternalErrorResponse, "description": "Internal error"},
    }
    if protected:
        out[401] = {"model": ErrorResponse, "description": "Missing or wrong bearer token"}
    if limited:
        out[429] = {
            "model": RateLimitResponse,
            "description": "Rate limit exceeded",
            "headers": {
                "Retry-After": {
                    "description": "Seconds until the window resets",
                    "schema": {"type": "integer"},
                }
            },
        }
    return out


def document_router(router: APIRouter, protected: bool) -> None:
    """Before the router is included (FastAPI copies its routes then)."""
    for route in router.routes:
        if isinstance(route, APIRoute):
            for code, spec in _errors(_rate_limited(route.dependant), protected).items():
                route.responses.setdefault(code, spec)


def without_422(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            for path in schema.get("paths", {}).values():
                for operation in path.values():
                    operation.get("responses", {}).pop("422", None)
            components = schema.get("components", {}).get("schemas", {})
            text = str(schema.get("paths"))
            for name in ("HTTPValidationError", "ValidationError"):
                if f"/{name}'" not in text:
                    components.pop(name, None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
