"""Bearer-token access: every API route needs ``Authorization: Bearer <token>``.

The admin token (``HOOKWISE_API_TOKEN`` or the generated one) may use every route. Named
tokens (api/tokens.py) have a role: the approval routes say which roles they take
(``allow_roles``); every other route is the admin's, and a named token gets 403 there
(it is known, just not allowed), an unknown or revoked one 401.

The console page and the OpenAPI document are public (they carry no data); the page asks
for the token and sends it with each call.
"""

from __future__ import annotations

import hmac

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from hookwise.api.edge.errors import ApiError
from hookwise.api.tokens import ADMIN, Principal, is_admin, lookup

bearer_scheme = HTTPBearer(
    auto_error=False,
    description="HOOKWISE_API_TOKEN or <data dir>/api-token (~/.local/share/hookwise)",
)


def unauthorized() -> ApiError:
    return ApiError(
        401,
        "unauthorized",
        "missing or wrong bearer token",
        headers={"WWW-Authenticate": "Bearer"},
    )


def forbidden(principal: Principal) -> ApiError:
    return ApiError(
        403,
        "forbidden",
        f"the {principal.role} token {principal.name!r} may not use this route",
    )


def check_token(expected: str, given: str) -> None:
    """Constant-time comparison; raises the 401 every protected route answers."""
    if not given or not hmac.compare_digest(given.encode(), expected.encode()):
        raise unauthorized()


def bearer_token(authorization: str) -> str:
    """The token of an ``Authorization: Bearer <token>`` header, or ""."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def principal_for(admin_token: str, engine: Engine, given: str) -> Principal | None:
    """Who ``given`` is (blocking: a named token is looked up in the database)."""
    if is_admin(admin_token, given):
        return ADMIN
    return lookup(engine, given)


async def bearer_principal(request: Request, given: str) -> Principal:
    """The principal of a bearer token, or the 401."""
    service = request.app.state.service
    if is_admin(service.settings.api_token, given):
        return ADMIN  # no thread hop for the common case
    if not given:
        raise unauthorized()
    found = await run_in_threadpool(lookup, service.engine, given)
    if found is None:
        raise unauthorized()
    return found


async def require_token(
    request: Request,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer_scheme),  # noqa: B008
) -> None:
    """The admin's routes: a known named token gets 403, anything else 401."""
    given = credentials.credentials if credentials is not None else ""
    principal = await bearer_principal(request, given)
    if principal.role != "admin":
        raise forbidden(principal)
