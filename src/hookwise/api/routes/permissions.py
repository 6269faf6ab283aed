"""Permission requests: create, list pending, resolve once; expire in the background too.

All three routes count against the "permissions" rate-limit group of the caller's
X-Session-Id. The routes are synchronous (FastAPI runs them in its thread pool) because
the store is plain SQLAlchemy; each one is a handful of indexed statements.
"""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Depends, Path, Request

from hookwise.api.errors import ApiError, invalid_request
from hookwise.api.permissions import (
    PermissionConflictError,
    PermissionNotFoundError,
    create_permission,
    expire_due,
    list_pending,
    resolve_permission,
    text_details,
)
from hookwise.api.ratelimit import limited, session_key
from hookwise.api.schemas import (
    CreatePermissionRequest,
    CreatePermissionResponse,
    ErrorResponse,
    PendingPermission,
    PendingPermissionsResponse,
    PermissionDecision,
    ResolvePermissionRequest,
    ResolvePermissionResponse,
)
from hookwise.api.state import ServiceState, service

log = logging.getLogger("hookwise.api")

EXPIRY_INTERVAL_S = 0.25

router = APIRouter(tags=["permissions"], dependencies=[Depends(limited("permissions"))])

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
def create_permission_request(
    body: CreatePermissionRequest,
    request: Request,
    state: ServiceState = Depends(service),  # noqa: B008
) -> CreatePermissionResponse:
    """Store a pending request (a PreToolUse "ask"); it expires after
    ``timeoutMs.permissionRequest`` with the configured ``permissionFallback``."""
    _check_text({"toolName": body.toolName, "reason": body.reason})
    pending = create_permission(
        state.engine,
        body.toolName,
        body.reason,
        body.originalInput,
        body.updatedInput,
        session_key(request.headers.get("x-session-id")),
        state.config.get(),
    )
    return CreatePermissionResponse(
        permissionId=pending["id"], request=PendingPermission.model_validate(pending)
    )


@router.get("/internal/hook/pending-permissions", response_model=PendingPermissionsResponse)
def pending_permissions(
    state: ServiceState = Depends(service),  # noqa: B008
) -> PendingPermissionsResponse:
    """Every pending request, oldest first (expired ones are not pending)."""
    fallback = state.config.get().permissionFallback
    return PendingPermissionsResponse(
        permissions=[
            PendingPermission.model_validate(p) for p in list_pending(state.engine, fallback)
        ]
    )


@router.post(
    "/internal/hook/resolve-permission/{permissionId}",
    response_model=ResolvePermissionResponse,
    responses=_ERRORS,
)
def resolve(
    body: ResolvePermissionRequest,
    permission_id: str = Path(alias="permissionId"),
    state: ServiceState = Depends(service),  # noqa: B008
) -> ResolvePermissionResponse:
    """Resolve a pending request; only the first resolver of a request succeeds."""
    _check_text({"reason": body.reason})
    fallback = state.config.get().permissionFallback
    try:
        done = resolve_permission(state.engine, permission_id, body.decision, body.reason, fallback)
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
    return ResolvePermissionResponse(
        resolved=True,
        decision=PermissionDecision(
            decision=done.decision,
            shouldContinueRecursion=allow,
            reason=done.reason,
            timestamp=done.timestamp,
        ),
        shouldProceed=allow,
    )


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
