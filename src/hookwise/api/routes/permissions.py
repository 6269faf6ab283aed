"""Permission requests: create, list pending, resolve once; expire in the background too.

All three routes count against the "permissions" rate-limit group of the caller's
X-Session-Id. Each does its database work (the rate-limit count included) in one
thread-pool hop and answers with the contract's JSON directly: on two cores the hops and
a second validation of the answer cost more than the statements.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from hookwise.api.edge.errors import ApiError, invalid_request
from hookwise.api.edge.ratelimit import RateDecision, charged_by_route, refusal, session_key
from hookwise.api.permissions import (
    PENDING,
    PermissionConflictError,
    PermissionNotFoundError,
    Resolution,
    create_permission,
    expire_due,
    list_pending,
    text_details,
    try_resolve,
    why_not,
)
from hookwise.api.schemas import (
    CreatePermissionRequest,
    CreatePermissionResponse,
    ErrorResponse,
    PendingPermissionsResponse,
    ResolvePermissionRequest,
    ResolvePermissionResponse,
)
from hookwise.api.state import ServiceState, service

log = logging.getLogger("hookwise.api")

EXPIRY_INTERVAL_S = 0.25

GROUP = "permissions"
router = APIRouter(tags=["permissions"], dependencies=[Depends(charged_by_route(GROUP))])

_ERRORS: dict[int | str, dict[str, object]] = {
    404: {"model": ErrorResponse, "description": "No permission request has this id"},
    409: {
        "model": ErrorResponse,
        "description": "Already resolved, or expired; ``status`` and ``decision`` say which",
    },
}


def _check_text(fields: dict[str, str | None]) -> None:
    """400 for text the database cannot store, one detail per field."""
    details = text_details(fields)
    if details:
        raise invalid_request(details)


@router.post("/internal/hook/create-permission-request", response_model=CreatePermissionResponse)
async def create_permission_request(
    body: CreatePermissionRequest,
    request: Request,
    state: ServiceState = Depends(service),  # noqa: B008
) -> JSONResponse:
    """Store a pending request (a PreToolUse "ask"); it expires after
    ``timeoutMs.permissionRequest`` with the configured ``permissionFallback``."""
    _check_text({"toolName": body.toolName, "reason": body.reason})
    session = session_key(request.headers.get("x-session-id"))
    client = state.limiter.client_key(request)

    def work() -> dict[str, Any] | RateDecision:
        with state.engine.begin() as conn:
            charged = state.limiter.charge(conn, session, GROUP, client=client)
            if not charged.allowed:
                return charged  # the count commits, nothing else happens
            return create_permission(
                conn,
                body.toolName,
                body.reason,
                body.originalInput,
                body.updatedInput,
                session,
                state.config.get(),
                state.subscribers.wanted,
            )

    pending = await run_in_threadpool(work)
    if isinstance(pending, RateDecision):
        raise refusal(pending)
    return JSONResponse({"permissionId": pending["id"], "request": _view(pending)})


def _view(pending: dict[str, Any]) -> dict[str, Any]:
    """PendingPermission as the contract writes it (``updatedInput`` only when given)."""
    view = {k: v for k, v in pending.items() if not (k == "updatedInput" and v is None)}
    view.setdefault("status", PENDING)
    return view


@router.get("/internal/hook/pending-permissions", response_model=PendingPermissionsResponse)
async def pending_permissions(
    request: Request,
    state: ServiceState = Depends(service),  # noqa: B008
) -> JSONResponse:
    """Every pending request, oldest first (expired ones are not pending)."""
    session = session_key(request.headers.get("x-session-id"))

    def work() -> list[dict[str, Any]]:
        state.limiter.check(session, GROUP, state.limiter.client_key(request))
        return list_pending(state.engine, state.config.get().permissionFallback)

    pending = await run_in_threadpool(work)
    return JSONResponse({"permissions": [_view(p) for p in pending]})


@router.post(
    "/internal/hook/resolve-permission/{permissionId}",
    response_model=ResolvePermissionResponse,
    responses=_ERRORS,
)
async def resolve(
    body: ResolvePermissionRequest,
    request: Request,
    permission_id: str = Path(alias="permissionId"),
    state: ServiceState = Depends(service),  # noqa: B008
) -> JSONResponse:
    """Resolve a pending request; only the first resolver of a request succeeds."""
    _check_text({"reason": body.reason})
    session = session_key(request.headers.get("x-session-id"))
    client = state.limiter.client_key(request)

    def work() -> Resolution | RateDecision:
        with state.engine.begin() as conn:
            charged = state.limiter.charge(conn, session, GROUP, client=client)
            if not charged.allowed:
                return charged
            done = try_resolve(
                conn, permission_id, body.decision, body.reason, state.subscribers.wanted
            )
        if done is None:  # after the commit: why_not may expire the row itself
            why_not(state.engine, permission_id, state.config.get().permissionFallback)
        return done

    try:
        done = await run_in_threadpool(work)
        if isinstance(done, RateDecision):
            raise refusal(done)
    except PermissionNotFoundError:
        raise ApiError(404, "not_found", f"no permission request {permission_id}") from None
    except PermissionConflictError as conflict:
        raise ApiError(
            409,
            "conflict",
            str(conflict),
            extra={"status": conflict.status, "decision": conflict.decision},
        ) from None
    allow = done.decision == "allow"
    decision: dict[str, Any] = {"decision": done.decision, "shouldContinueRecursion": allow}
    if done.reason is not None:
        decision["reason"] = done.reason
    decision["timestamp"] = done.timestamp
    return JSONResponse({"resolved": True, "decision": decision, "shouldProceed": allow})


async def expire_loop(state: ServiceState) -> None:
    """Expire overdue requests (and queue their events) a few times a second."""
    while True:
        await asyncio.sleep(EXPIRY_INTERVAL_S)
        try:
            fallback = (await asyncio.to_thread(state.config.get)).permissionFallback
            await asyncio.to_thread(expire_due, state.engine, fallback)
        except Exception:  # the database may be briefly away; try again next tick
            log.exception("permission expiry failed")


LOOPS = [expire_loop]
