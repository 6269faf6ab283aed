"""Bearer-token access: every API route needs ``Authorization: Bearer <token>``.

The console page and the OpenAPI document are public (they carry no data); the page asks
for the token and sends it with each call.
"""

from __future__ import annotations

import hmac

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from hookwise.api.errors import ApiError

bearer_scheme = HTTPBearer(
    auto_error=False, description="HOOKWISE_API_TOKEN or .hookwise/api-token"
)


def check_token(expected: str, given: str) -> None:
    """Constant-time comparison; raises the 401 every protected route answers."""
    if not given or not hmac.compare_digest(given.encode(), expected.encode()):
        raise ApiError(
            401,
            "unauthorized",
            "missing or wrong bearer token",
            headers={"WWW-Authenticate": "Bearer"},
        )


def bearer_token(authorization: str) -> str:
    """The token of an ``Authorization: Bearer <token>`` header, or ""."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def require_token(
    request: Request,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer_scheme),  # noqa: B008
) -> None:
    expected: str = request.app.state.service.settings.api_token
    check_token(expected, credentials.credentials if credentials is not None else "")
