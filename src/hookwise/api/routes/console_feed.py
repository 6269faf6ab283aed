"""The web console's data: recent hook executions and a stream of change tokens.

The console must not poll the rate-limited contract routes (pending-permissions: 50 per
minute per session; output-config: 10) to find out whether anything happened. Instead it
follows ``GET /api/console/events``: the server reads a cheap fingerprint of the pending
permissions, the executions and the configuration version from the database every
``POLL_SECONDS`` and sends a ``changed`` event when one of them moved; the page then
fetches only the part that changed. Reading the database (not process memory) is what
makes this work when several worker processes or machines share it.

Neither route counts against a contract rate-limit group; both need the bearer token.
"""

# ruff: noqa: N815  (the response fields are the contract's camelCase names)

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field
from sqlalchemy.engine import Engine

from hookwise.api import guard_log
from hookwise.api.permissions import PENDING
from hookwise.api.state import ServiceState, service
from hookwise.api.storage.db import now_ms
from hookwise.api.storage.tables import (
    EXECUTE,
    PARSE,
    approvals,
    executions,
    permissions,
    service_config,
)
from hookwise.protocol.hosts import HOST_TITLES

log = logging.getLogger("hookwise.api")

router = APIRouter(tags=["console"])

POLL_SECONDS = 0.5
KEEPALIVE_SECONDS = 15.0
STREAM_SECONDS = 300.0  # then the page reconnects (and re-authenticates)
RETRY_MS = 2000
# Rows committed late with an earlier created_at (another worker's slower transaction)
# still change the executions fingerprint if they land within this window of the newest.
LATE_COMMIT_MS = 10_000
MAX_LIMIT = 200
MAX_MS = 2**53 - 1  # JavaScript's largest safe integer; keeps `after` inside BIGINT


class ConsoleExecution(BaseModel):
    """One row of the ``executions`` table: a hook execute-with-output ran, or the output
    of a hook its client ran, read by parse-output."""

    id: str
    kind: Literal["execute", "parse"] = Field(
        description='"execute": execute-with-output ran the command; "parse": parse-output '
        "read the output of a hook the client ran (no command is known)"
    )
    host: str | None = Field(description="whose rules read the output: claude, codex, gemini")
    hostTitle: str | None = Field(description='the host\'s name for people ("Claude Code")')
    sessionId: str
    hookEvent: str
    toolName: str | None
    command: str = Field(description='"" for a parse-output call')
    exitCode: int | None = Field(description="null when the hook did not exit (timeout)")
    executionTime: float = Field(description="milliseconds")
    shouldContinue: bool
    source: str = Field(description='"json" or "exitcode"')
    decision: str | None = Field(
        description="the host's decision: allow, deny, ask, defer, block or none "
        "(null on rows recorded before the service kept it)"
    )
    messageBlocks: list[dict[str, Any]]
    permissionId: str | None
    timestamp: int = Field(description="when the execution was recorded, ms since the epoch")


class GuardDecision(BaseModel):
    """One decision of the policy hook (`hookwise hook`), from the audit log it writes."""

    time: str
    source: Literal["hook", "fire", "simulate"] = Field(
        description='"hook": an agent asked; "fire", "simulate": hookwise ran the hook itself'
    )
    host: str | None
    hostTitle: str | None
    session: str | None
    event: str | None
    tool: str | None
    command: str | None = Field(description="the shell command, cut to 300 characters")
    decision: str = Field(description="deny, ask, allow or none")
    rule: str | None
    reason: str | None
    approval: str | None = Field(
        description='an ask sent to a person through the relay: "allowed by NAME", "expired"...'
    )
    untrusted: bool = Field(description="a project policy applied only its restrictions")


class GuardDecisionsResponse(BaseModel):
    decisions: list[GuardDecision] = Field(description="newest first")
    log: str = Field(description="the audit log read: the one this user's hooks write")


class ConsoleExecutionsResponse(BaseModel):
    executions: list[ConsoleExecution] = Field(description="newest first")


def recent_executions(engine: Engine, limit: int, after: int | None) -> list[ConsoleExecution]:
    """The newest rows; the caller flushes its worker's parse-output rows first."""
    query = sa.select(executions).order_by(executions.c.created_at.desc(), executions.c.id.desc())
    if after is not None:
        query = query.where(executions.c.created_at > after)
    with engine.connect() as conn:
        rows = conn.execute(query.limit(limit)).mappings().all()
    return [
        ConsoleExecution(
            id=row["id"],
            kind=PARSE if row["kind"] == PARSE else EXECUTE,
            host=row["host"],
            hostTitle=HOST_TITLES.get(row["host"]) if row["host"] else None,
            sessionId=row["session_id"],
            hookEvent=row["hook_event"],
            toolName=row["tool_name"],
            command=row["command"],
            exitCode=row["exit_code"],
            executionTime=float(row["execution_time"]),
            shouldContinue=bool(row["should_continue"]),
            source=row["source"],
            decision=row["decision"],
            messageBlocks=list(row["message_blocks"] or []),
            permissionId=row["permission_id"],
            timestamp=int(row["created_at"]),
        )
        for row in rows
    ]


def change_token(engine: Engine) -> dict[str, Any]:
    """Fingerprints that move whenever the console has something new to show.

    permissions: count, sum and max of ``expires_at`` over the pending rows, all read from
    the (status, expires_at) index; a request created and resolved between two reads
    leaves it unchanged, rightly, since the pending set is the same. executions: the
    newest ``created_at`` and how many rows lie within ``LATE_COMMIT_MS`` of it (index
    range). config: the configuration's version. approvals: count, sum of ``expires_at``
    and newest ``created_at`` of the pending approval requests (status index).
    """
    pending = permissions.c.status == PENDING
    with engine.connect() as conn:
        count, total, newest = conn.execute(
            sa.select(
                sa.func.count(),
                sa.func.coalesce(sa.func.sum(permissions.c.expires_at), 0),
                sa.func.coalesce(sa.func.max(permissions.c.expires_at), 0),
            ).where(pending)
        ).one()
        last = conn.execute(sa.select(sa.func.max(executions.c.created_at))).scalar()
        recent = 0
        if last is not None:
            recent = conn.execute(
                sa.select(sa.func.count()).where(
                    executions.c.created_at >= int(last) - LATE_COMMIT_MS
                )
            ).scalar_one()
        version = conn.execute(sa.select(sa.func.max(service_config.c.version))).scalar()
        waiting, ends, newest_request = conn.execute(
            sa.select(
                sa.func.count(),
                sa.func.coalesce(sa.func.sum(approvals.c.expires_at), 0),
                sa.func.coalesce(sa.func.max(approvals.c.created_at), 0),
            ).where(approvals.c.status == PENDING)
        ).one()
    return {
        "permissions": f"{int(count)}:{int(total)}:{int(newest)}",
        "executions": f"{int(last or 0)}:{int(recent)}",
        "config": int(version or 0),
        "approvals": f"{int(waiting)}:{int(ends)}:{int(newest_request)}",
    }


def _event(token: dict[str, Any], seq: int) -> str:
    data = json.dumps({**token, "serverTime": now_ms()}, separators=(",", ":"))
    return f"id: {seq}\nevent: changed\ndata: {data}\n\n"


async def _changes(engine: Engine, follow: bool) -> AsyncIterator[str]:
    """``changed`` events: the current token first, then each time it moves.

    Starlette cancels this generator when the client disconnects (it listens for the
    disconnect while streaming), so an abandoned page costs nothing after it leaves.
    """
    yield f"retry: {RETRY_MS}\n\n"
    last: dict[str, Any] | None = None
    seq = 0
    started = sent = time.monotonic()
    while True:
        try:
            token = await asyncio.to_thread(change_token, engine)
            token["decisions"] = guard_log.fingerprint()
        except sa.exc.SQLAlchemyError:  # the page reconnects after RETRY_MS
            log.exception("console change token failed")
            return
        now = time.monotonic()
        if token != last:
            seq += 1
            last, sent = token, now
            yield _event(token, seq)
        elif now - sent >= KEEPALIVE_SECONDS:
            sent = now
            yield ": keep-alive\n\n"
        if not follow or now - started >= STREAM_SECONDS:
            return
        await asyncio.sleep(POLL_SECONDS)


_STREAM_DOC = (
    "Server-sent events. Each `changed` event carries "
    '`{"permissions": str, "executions": str, "config": int, "approvals": str, '
    '"decisions": str, "serverTime": int}`: opaque fingerprints of the pending permissions, '
    "the executions, the configuration version, the pending approval requests and the "
    "policy hook's audit log; refetch the part whose "
    "fingerprint differs from the last one seen. The first event always carries the "
    "current state. The stream follows changes (checking "
    f"every {POLL_SECONDS} s, for up to {int(STREAM_SECONDS)} s) only when the request's "
    "Accept header names text/event-stream; any other request gets the current state as "
    "one event and the stream ends."
)


@router.get(
    "/api/console/executions",
    response_model=ConsoleExecutionsResponse,
    summary="Recent hook executions, newest first",
)
def console_executions(
    limit: int = Query(50, ge=1, le=MAX_LIMIT),
    after: int | None = Query(
        None, ge=0, le=MAX_MS, description="only executions recorded after this time (ms)"
    ),
    state: ServiceState = Depends(service),  # noqa: B008
) -> ConsoleExecutionsResponse:
    state.calls.flush(state.engine)  # this worker's calls show at once; others' within 1 s
    return ConsoleExecutionsResponse(executions=recent_executions(state.engine, limit, after))


@router.get(
    "/api/console/decisions",
    response_model=GuardDecisionsResponse,
    summary="The policy hook's recent decisions, newest first",
)
def console_decisions(
    limit: int = Query(50, ge=1, le=guard_log.MAX_DECISIONS),
) -> GuardDecisionsResponse:
    path = guard_log.audit_log_path()
    decisions = [GuardDecision(**d) for d in guard_log.recent_decisions(limit, path)]
    return GuardDecisionsResponse(decisions=decisions, log=path)


@router.get(
    "/api/console/events",
    response_class=StreamingResponse,
    summary="Change notifications for the web console",
    description=_STREAM_DOC,
    responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}}},
)
async def console_events(
    request: Request,
    state: ServiceState = Depends(service),  # noqa: B008
) -> StreamingResponse:
    follow = "text/event-stream" in request.headers.get("accept", "").lower()
    return StreamingResponse(
        _changes(state.engine, follow),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
