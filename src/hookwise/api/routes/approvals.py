"""``/api/approvals``: the approval relay's requests, long polls and decisions.

Roles (api/tokens.py): an **agent** token opens requests, reads and long-polls its own,
and withdraws them; an **approver** lists, reads and decides; the admin token does all.
Anything else answers 403 ``forbidden``; an unknown or revoked token 401.

The routes take their own authentication (``PUBLIC`` only means the app does not add the
admin-only dependency): a bearer token, or the console's session cookie for the page.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from hookwise.api.approvals import store
from hookwise.api.approvals.access import allow, caller
from hookwise.api.approvals.schemas import (
    MAX_AHEAD_MS,
    MAX_LIST,
    MAX_WAIT_S,
    CreateApproval,
    DecideApproval,
    canonical_hash,
)
from hookwise.api.approvals.waiters import recheck_loop
from hookwise.api.edge.errors import ApiError, invalid_request
from hookwise.api.schemas import ErrorResponse
from hookwise.api.state import ServiceState, service
from hookwise.api.storage.db import now_ms
from hookwise.api.tokens import Principal
from hookwise.api.webhooks.targets import url_refusal

log = logging.getLogger("hookwise.api")

PUBLIC = True
EXPIRY_INTERVAL_S = 1.0

router = APIRouter(prefix="/api/approvals", tags=["approvals"])
State = Annotated[ServiceState, Depends(service)]
Caller = Annotated[Principal, Depends(caller)]
ApprovalId = Annotated[str, Path(max_length=64, description="The request's id (apr_...)")]
Status = Literal["pending", "allowed", "denied", "expired", "withdrawn"]

_AUTH: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "Missing, unknown or revoked token"},
    403: {"model": ErrorResponse, "description": "This token's role may not use this route"},
}
_ONE: dict[int | str, dict[str, Any]] = {
    **_AUTH,
    404: {"model": ErrorResponse, "description": "No approval request has this id"},
}
_DECIDE: dict[int | str, dict[str, Any]] = {
    **_ONE,
    409: {
        "model": ErrorResponse,
        "description": "``conflict``: no longer pending; ``hash_mismatch``: the decision "
        "was made on other input",
    },
    410: {"model": ErrorResponse, "description": "``expired``: past the request's expiry"},
}


def _state_error(err: store.ApprovalStateError) -> ApiError:
    if err.kind == "remember_too_long":
        detail = {"field": "remember_minutes", "message": err.message, "code": "INVALID_VALUE"}
        return invalid_request([detail])
    status = 410 if err.kind == "expired" else 409
    return ApiError(status, err.kind, err.message, extra={"status": err.status})


def _not_found(approval_id: str) -> ApiError:
    return ApiError(404, "not_found", f"no approval request {approval_id}")


async def _check_create(body: CreateApproval, state: ServiceState) -> None:
    """What pydantic cannot check: the hash, the expiry window, where notifications go."""
    details: list[dict[str, str]] = []
    expected = canonical_hash(body.input)
    if body.input_hash != expected:
        details.append(
            {
                "field": "input_hash",
                "message": "is not the sha256 of input's canonical JSON (sorted keys, "
                "compact separators, UTF-8)",
                "code": "INVALID_VALUE",
            }
        )
    now = now_ms()
    if not now < body.expires_at <= now + MAX_AHEAD_MS:
        details.append(
            {
                "field": "expires_at",
                "message": "must be in the future and at most 24 h ahead (epoch ms)",
                "code": "INVALID_VALUE",
            }
        )
    for index, target in enumerate(body.notify):
        refused = await run_in_threadpool(url_refusal, target.url, state.settings.webhook_targets)
        if refused:
            details.append(
                {"field": f"notify.{index}.url", "message": refused, "code": "INVALID_VALUE"}
            )
    if details:
        raise invalid_request(details)


@router.post("", status_code=201, responses=_AUTH, summary="Open an approval request")
async def create(body: CreateApproval, principal: Caller, state: State) -> JSONResponse:
    """Store a request bound to its input hash and nonce; notify its targets. Created
    already allowed when a remembered decision covers it (``decision.remembered_from``)."""
    allow(principal, "agent", "approver", "admin")
    await _check_create(body, state)
    created = await run_in_threadpool(
        store.create_approval,
        state.engine,
        body,
        principal,
        state.settings.page_base,
        state.subscribers.wanted,
    )
    answer = {
        "id": created["id"],
        "status": created["status"],
        "page_url": store.page_url(state.settings.page_base, created["id"]),
        "expires_at": created["expires_at"],
    }
    if created["decision"] is not None:
        answer["decision"] = created["decision"]
    return JSONResponse(answer, status_code=201)


@router.get("", responses=_AUTH, summary="List approval requests, newest first")
async def list_requests(
    principal: Caller,
    state: State,
    status: Annotated[Status | None, Query(description="only requests in this state")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIST)] = 50,
) -> JSONResponse:
    allow(principal, "approver", "admin")
    found = await run_in_threadpool(store.list_approvals, state.engine, status, limit)
    return JSONResponse({"approvals": found})


@router.get("/{approval_id}", responses=_ONE, summary="Read (and long-poll) one request")
async def read(
    approval_id: ApprovalId,
    principal: Caller,
    state: State,
    wait: Annotated[
        float, Query(ge=0, le=MAX_WAIT_S, description="seconds to wait while it is pending")
    ] = 0,
) -> JSONResponse:
    """With ``wait``, answers as soon as the request is decided, withdrawn or expired, or
    when ``wait`` seconds have passed (it is then still pending)."""
    allow(principal, "agent", "approver", "admin")
    deadline = time.monotonic() + wait
    while True:
        try:
            found = await run_in_threadpool(
                store.get_approval, state.engine, approval_id, principal
            )
        except store.ApprovalNotFoundError:
            raise _not_found(approval_id) from None
        left = deadline - time.monotonic()
        if found["status"] != store.PENDING or left <= 0:
            return JSONResponse(found)
        until_expiry = max(0.0, (found["expires_at"] - now_ms()) / 1000) + 0.005
        woken = await state.approval_waiters.wait(approval_id, min(left, until_expiry))
        if isinstance(woken, dict):  # changed by this process: no need to read it again
            return JSONResponse(woken)


@router.post("/{approval_id}/decision", responses=_DECIDE, summary="Decide, once")
async def decision(
    approval_id: ApprovalId, body: DecideApproval, principal: Caller, state: State
) -> JSONResponse:
    """``input_hash`` must be the request's: the approver decides on what was shown."""
    allow(principal, "approver", "admin")
    try:
        decided = await run_in_threadpool(
            store.decide, state.engine, approval_id, body, principal, state.subscribers.wanted
        )
    except store.ApprovalNotFoundError:
        raise _not_found(approval_id) from None
    except store.ApprovalStateError as err:
        raise _state_error(err) from None
    state.approval_waiters.settled(decided)
    return JSONResponse(decided)


@router.post("/{approval_id}/withdraw", responses=_DECIDE, summary="Withdraw a pending request")
async def withdraw(approval_id: ApprovalId, principal: Caller, state: State) -> JSONResponse:
    """pending -> withdrawn (the host's own prompt took over); 409 once it is decided."""
    allow(principal, "agent", "admin")
    try:
        closed = await run_in_threadpool(
            store.withdraw, state.engine, approval_id, principal, state.subscribers.wanted
        )
    except store.ApprovalNotFoundError:
        raise _not_found(approval_id) from None
    except store.ApprovalStateError as err:
        raise _state_error(err) from None
    state.approval_waiters.settled(closed)
    return JSONResponse(closed)


async def expire_loop(state: ServiceState) -> None:
    """Expire overdue requests (their ``approval_closed`` goes out) and wake their waiters."""
    while True:
        await asyncio.sleep(EXPIRY_INTERVAL_S)
        try:
            state.approval_waiters.wake(await asyncio.to_thread(store.expire_due, state.engine))
        except Exception:  # the database may be briefly away; try again next tick
            log.exception("approval expiry failed")


async def waiter_recheck(state: ServiceState) -> None:
    await recheck_loop(state.engine, state.approval_waiters)


LOOPS = [expire_loop, waiter_recheck]
