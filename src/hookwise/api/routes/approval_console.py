"""The approval page (``/console/approvals/<id>``, ``/console/approvals``) and its sign-in.

The page is public like the console (it holds no data); what it shows comes from
``/api/approvals`` with the session cookie made here (api/approvals/sessions.py):

* ``POST /api/console/session`` ``{"token": ...}``: an approver's (or the admin's) token
  for a cookie and a CSRF token; an agent token is refused (403), an unknown one 401.
* ``GET /api/console/session``: who is signed in, and the CSRF token (a page of another
  origin cannot read it); 401 when not signed in.
* ``DELETE /api/console/session``: sign out (needs the CSRF token).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.responses import JSONResponse
from pydantic import Field, StrictStr
from starlette.concurrency import run_in_threadpool

from hookwise.api.approvals.access import caller
from hookwise.api.approvals.sessions import (
    COOKIE,
    SESSION_MS,
    end_session,
    find_session,
    start_session,
)
from hookwise.api.auth import forbidden, principal_for, unauthorized
from hookwise.api.processing.output_config import StrictModel
from hookwise.api.routes.console import serve_asset
from hookwise.api.state import ServiceState, service
from hookwise.api.tokens import MAX_TOKEN_CHARS, Principal

PUBLIC = True
PAGE = "approval.html"

router = APIRouter(include_in_schema=False)
State = Annotated[ServiceState, Depends(service)]


class SignIn(StrictModel):
    token: Annotated[StrictStr, Field(min_length=1, max_length=MAX_TOKEN_CHARS)]


@router.api_route("/console/approvals", methods=["GET", "HEAD"])
def approvals_page(request: Request) -> Response:
    return serve_asset(request, PAGE)


@router.api_route("/console/approvals/{approval_id}", methods=["GET", "HEAD"])
def approval_page(request: Request, approval_id: Annotated[str, Path(max_length=64)]) -> Response:
    return serve_asset(request, PAGE)


def _secure(request: Request, state: ServiceState) -> bool:
    return request.url.scheme == "https" or state.settings.public_url.startswith("https://")


@router.post("/api/console/session")
async def sign_in(body: SignIn, request: Request, state: State) -> JSONResponse:
    principal = await run_in_threadpool(
        principal_for, state.settings.api_token, state.engine, body.token
    )
    if principal is None:
        raise unauthorized()
    if principal.role == "agent":
        raise forbidden(principal)  # the agent can read its token: it must not approve
    session_id, session = await run_in_threadpool(
        start_session, state.engine, principal, body.token
    )
    answer = JSONResponse(
        {"name": principal.name, "role": principal.role, "csrf": session.csrf},
        headers={"Cache-Control": "no-store"},
    )
    answer.set_cookie(
        COOKIE,
        session_id,
        max_age=SESSION_MS // 1000,
        path="/",
        httponly=True,
        samesite="strict",
        secure=_secure(request, state),
    )
    return answer


@router.get("/api/console/session")
async def who(request: Request, state: State) -> JSONResponse:
    session = await run_in_threadpool(
        find_session, state.engine, request.cookies.get(COOKIE, ""), state.settings.api_token
    )
    if session is None:
        raise unauthorized()
    return JSONResponse(
        {"name": session.principal.name, "role": session.principal.role, "csrf": session.csrf},
        headers={"Cache-Control": "no-store"},
    )


@router.delete("/api/console/session")
async def sign_out(
    request: Request, state: State, principal: Annotated[Principal, Depends(caller)]
) -> Response:
    session_id = request.cookies.get(COOKIE, "")
    if session_id:
        await run_in_threadpool(end_session, state.engine, session_id)
    answer = Response(status_code=204)
    answer.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return answer
