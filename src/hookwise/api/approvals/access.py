"""Who is calling an approval route, and whether that role may.

A bearer token (admin, approver or agent) or, for the console page, the session cookie
of a signed-in approver; a cookie request that changes something must carry the
session's CSRF token and, if the browser sent one, this origin's ``Origin``.
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from hookwise.api.approvals.sessions import COOKIE, find_session
from hookwise.api.auth import bearer_principal, bearer_token, forbidden, unauthorized
from hookwise.api.edge.errors import ApiError
from hookwise.api.state import state_of
from hookwise.api.tokens import Principal, Role

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "x-csrf-token"


def _same_origin(request: Request, origin: str) -> bool:
    parts = urlsplit(origin)
    own = {request.headers.get("host", "")}
    public = state_of(request).settings.public_url
    if public:
        own.add(urlsplit(public).netloc)
    return parts.scheme in ("http", "https") and parts.netloc in own


async def caller(request: Request) -> Principal:
    """The principal of the request: its bearer token, else its console session."""
    authorization = request.headers.get("authorization")
    if authorization is not None:
        return await bearer_principal(request, bearer_token(authorization))
    session_id = request.cookies.get(COOKIE, "")
    if not session_id:
        raise unauthorized()
    state = state_of(request)
    session = await run_in_threadpool(
        find_session, state.engine, session_id, state.settings.api_token
    )
    if session is None:
        raise unauthorized()
    if request.method not in SAFE_METHODS:
        given = request.headers.get(CSRF_HEADER, "")
        origin = request.headers.get("origin")
        if not hmac.compare_digest(given.encode(), session.csrf.encode()) or (
            origin is not None and not _same_origin(request, origin)
        ):
            raise ApiError(403, "forbidden", "missing or wrong X-CSRF-Token for this session")
    return session.principal


def allow(principal: Principal, *roles: Role) -> Principal:
    """``principal`` if its role is one of ``roles``; else the 403."""
    if principal.role not in roles:
        raise forbidden(principal)
    return principal
