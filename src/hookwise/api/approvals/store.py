"""Approval requests in the database: created, decided once, withdrawn or expired.

The permission machinery's rules (api/permissions.py) hold here too. Every state change
is one conditional UPDATE (``WHERE status = 'pending' AND expires_at > now``, plus the
input hash for a decision), so of twenty concurrent deciders exactly one changes a row,
on SQLite and PostgreSQL alike; the losers learn why from a read after the fact. The
webhook event and the notifications are queued in the same transaction as the change.
Expiry needs no loop: every read expires the row it reads when it is due (the loop only
makes ``approval_closed`` go out without waiting for a reader).

A decision may cover "the same command again in this session for N minutes": a later
request with the same host, session, tool, cwd and input hash, made within
min(N, that request's own ``remember_minutes``) minutes of the decision, is created
already allowed, ``remembered_from`` naming the decision it rests on. Only a person's
decision is remembered, never a remembered one, so a window cannot be extended by use.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.approvals.notify import queue_notifications
from hookwise.api.approvals.schemas import CreateApproval, DecideApproval
from hookwise.api.storage.db import now_ms
from hookwise.api.storage.tables import approvals
from hookwise.api.tokens import Principal
from hookwise.api.webhooks.outbox import enqueue

PENDING = "pending"
EXPIRED = "expired"
WITHDRAWN = "withdrawn"
STATUS_FOR = {"allow": "allowed", "deny": "denied"}
STATUSES = ("pending", "allowed", "denied", "expired", "withdrawn")
MAX_ID_CHARS = 64
EXPIRY_BATCH = 100
Wanted = Callable[[str], bool] | None


class ApprovalNotFoundError(LookupError):
    """No approval request has this id (or the caller may not see it)."""


@dataclass(frozen=True)
class ApprovalStateError(Exception):
    """A decision or withdrawal that cannot happen; ``kind`` names the answer."""

    kind: str  # "conflict" | "expired" | "hash_mismatch" | "remember_too_long"
    status: str
    message: str

    def __str__(self) -> str:
        return self.message


def new_approval_id(now: int) -> str:
    return f"apr_{now}_{secrets.token_hex(12)}"


def page_url(base: str, approval_id: str) -> str:
    return f"{base.rstrip('/')}/console/approvals/{approval_id}"


def view(row: Mapping[Any, Any]) -> dict[str, Any]:
    """A stored row as the contract's approval object."""
    decision = None
    if row["decision"] is not None:
        decision = {
            "decision": row["decision"],
            "note": row["note"] or "",
            "approver": row["approver"],
            "decided_at": int(row["decided_at"]),
            "remember_minutes": int(row["decision_remember_minutes"] or 0),
            "remembered_from": row["remembered_from"],
        }
    return {
        "id": row["id"],
        "status": row["status"],
        "host": row["host"],
        "session_id": row["session_id"],
        "cwd": row["cwd"],
        "tool": row["tool"],
        "input": row["input"],
        "input_hash": row["input_hash"],
        "rule_id": row["rule_id"],
        "reason": row["reason"],
        "nonce": row["nonce"],
        "created_at": int(row["created_at"]),
        "expires_at": int(row["expires_at"]),
        "remember_minutes": int(row["remember_minutes"]),
        "decision": decision,
    }


def _event(event_type: str, row: Mapping[Any, Any], at: int, **extra: Any) -> dict[str, Any]:
    return {
        "eventType": event_type,
        "timestamp": at,
        "approvalId": row["id"],
        "status": row["status"],
        "host": row["host"],
        "sessionId": row["session_id"],
        "tool": row["tool"],
        "ruleId": row["rule_id"],
        **extra,
    }


def _decided_event(row: Mapping[Any, Any], at: int) -> dict[str, Any]:
    return _event(
        "approval_decided",
        row,
        at,
        decision=row["decision"],
        approver=row["approver"],
        note=row["note"] or "",
        rememberedFrom=row["remembered_from"],
    )


def _remembered(conn: sa.Connection, body: CreateApproval, now: int) -> Mapping[Any, Any] | None:
    """The person's allow this request may rest on, or None."""
    if body.remember_minutes <= 0:
        return None
    earliest = now - body.remember_minutes * 60_000
    rows = conn.execute(
        sa.select(approvals)
        .where(
            (approvals.c.host == body.host)
            & (approvals.c.session_id == body.session_id)
            & (approvals.c.input_hash == body.input_hash)
            & (approvals.c.tool == body.tool)
            & (approvals.c.cwd == body.cwd)
            & (approvals.c.status == "allowed")
            & approvals.c.remembered_from.is_(None)
            & (approvals.c.decision_remember_minutes > 0)
            & (approvals.c.decided_at > earliest)
        )
        .order_by(approvals.c.decided_at.desc())
        .limit(20)
    ).mappings()
    for row in rows:
        window = min(int(row["decision_remember_minutes"]), body.remember_minutes) * 60_000
        if int(row["decided_at"]) + window > now:
            return row
    return None


def create_approval(
    engine: Engine,
    body: CreateApproval,
    requested_by: Principal,
    page_base: str,
    wanted: Wanted = None,
) -> dict[str, Any]:
    """Store a request (pending, or allowed at once by a remembered decision), queue its
    event and notifications; returns the approval object."""
    now = now_ms()
    row: dict[str, Any] = {
        "id": new_approval_id(now),
        "host": body.host,
        "session_id": body.session_id,
        "cwd": body.cwd,
        "tool": body.tool,
        "input": body.input,
        "input_hash": body.input_hash,
        "rule_id": body.rule_id,
        "reason": body.reason,
        "nonce": body.nonce,
        "status": PENDING,
        "created_at": now,
        "expires_at": body.expires_at,
        "remember_minutes": body.remember_minutes,
        "notify": [target.model_dump() for target in body.notify],
        "requested_by": requested_by.name,
        "decision": None,
        "note": None,
        "approver": None,
        "decided_at": None,
        "decision_remember_minutes": None,
        "remembered_from": None,
    }
    link = page_url(page_base, row["id"])
    with engine.begin() as conn:
        earlier = _remembered(conn, body, now)
        if earlier is not None:
            row.update(
                status="allowed",
                decision="allow",
                note=earlier["note"],
                approver=earlier["approver"],
                decided_at=now,
                decision_remember_minutes=0,
                remembered_from=earlier["id"],
            )
        conn.execute(approvals.insert().values(**row))
        enqueue(
            conn,
            "approval_requested",
            _event(
                "approval_requested",
                row,
                now,
                cwd=row["cwd"],
                input=row["input"],
                inputHash=row["input_hash"],
                reason=row["reason"],
                expiresAt=row["expires_at"],
                pageUrl=link,
            ),
            wanted,
        )
        if earlier is not None:
            enqueue(conn, "approval_decided", _decided_event(row, now), wanted)
        else:
            queue_notifications(conn, row, link)
    return view(row)


def _readable(approval_id: str) -> bool:
    return len(approval_id) <= MAX_ID_CHARS and approval_id.isascii()


def _expire_row(conn: sa.Connection, approval_id: str, now: int) -> bool:
    """Expire ``approval_id`` if it is pending and due; True when this call did it."""
    claimed = (
        conn.execute(
            approvals.update()
            .where(
                (approvals.c.id == approval_id)
                & (approvals.c.status == PENDING)
                & (approvals.c.expires_at <= now)
            )
            .values(status=EXPIRED, decided_at=approvals.c.expires_at)
            .returning(*approvals.c)
        )
        .mappings()
        .first()
    )
    if claimed is None:
        return False
    enqueue(conn, "approval_closed", _event("approval_closed", claimed, now))
    return True


def expire_due(engine: Engine, now: int | None = None) -> list[str]:
    """Expire every pending request past its deadline; the ids this call expired."""
    now = now_ms() if now is None else now
    expired: list[str] = []
    while True:
        with engine.connect() as conn:
            due = list(
                conn.execute(
                    sa.select(approvals.c.id)
                    .where((approvals.c.status == PENDING) & (approvals.c.expires_at <= now))
                    .order_by(approvals.c.expires_at)
                    .limit(EXPIRY_BATCH)
                ).scalars()
            )
        if not due:
            return expired
        with engine.begin() as conn:
            expired.extend(i for i in due if _expire_row(conn, i, now))
        if len(due) < EXPIRY_BATCH:
            return expired


def _visible(principal: Principal) -> Any:
    """An agent sees only the requests its own token opened."""
    if principal.role == "agent":
        return approvals.c.requested_by == principal.name
    return sa.true()


def get_approval(engine: Engine, approval_id: str, principal: Principal) -> dict[str, Any]:
    """The approval object (expired first if due); ApprovalNotFoundError otherwise."""
    if not _readable(approval_id):
        raise ApprovalNotFoundError(approval_id)
    where = (approvals.c.id == approval_id) & _visible(principal)
    with engine.connect() as conn:
        row = conn.execute(sa.select(approvals).where(where)).mappings().first()
    if row is None:
        raise ApprovalNotFoundError(approval_id)
    now = now_ms()
    if row["status"] == PENDING and int(row["expires_at"]) <= now:
        with engine.begin() as conn:
            _expire_row(conn, approval_id, now)
        with engine.connect() as conn:
            row = conn.execute(sa.select(approvals).where(where)).mappings().one()
    return view(row)


def list_approvals(engine: Engine, status: str | None, limit: int) -> list[dict[str, Any]]:
    """Newest first; due requests are expired before a list that could show them."""
    expire_due(engine)
    query = sa.select(approvals).order_by(approvals.c.created_at.desc(), approvals.c.id.desc())
    if status is not None:
        query = query.where(approvals.c.status == status)
    with engine.connect() as conn:
        return [view(row) for row in conn.execute(query.limit(limit)).mappings()]


def _why_not(
    engine: Engine, approval_id: str, principal: Principal, input_hash: str | None, remember: int
) -> ApprovalStateError:
    """A decision or withdrawal changed nothing: the error that says why."""
    now = now_ms()
    where = (approvals.c.id == approval_id) & _visible(principal)
    with engine.connect() as conn:
        row = conn.execute(sa.select(approvals).where(where)).mappings().first()
    if row is None:
        raise ApprovalNotFoundError(approval_id)
    if input_hash is not None and row["input_hash"] != input_hash:
        return ApprovalStateError(
            "hash_mismatch",
            row["status"],
            "input_hash differs from the request's: the decision was made on other input",
        )
    status = row["status"]
    if status == PENDING and int(row["expires_at"]) <= now:
        with engine.begin() as conn:
            _expire_row(conn, approval_id, now)
        status = EXPIRED
    if status == EXPIRED:
        return ApprovalStateError("expired", status, f"approval {approval_id} has expired")
    if status == PENDING and remember > int(row["remember_minutes"]):
        return ApprovalStateError(
            "remember_too_long",
            status,
            f"remember_minutes {remember} exceeds the request's {row['remember_minutes']}",
        )
    if status == PENDING:  # changed between our UPDATE and this read: try again
        return ApprovalStateError("conflict", status, f"approval {approval_id} changed; retry")
    return ApprovalStateError(
        "conflict", status, f"approval {approval_id} is no longer pending ({status})"
    )


def decide(
    engine: Engine,
    approval_id: str,
    body: DecideApproval,
    approver: Principal,
    wanted: Wanted = None,
) -> dict[str, Any]:
    """Decide a pending request: exactly one caller wins; the others get the reason."""
    if not _readable(approval_id):
        raise ApprovalNotFoundError(approval_id)
    now = now_ms()
    with engine.begin() as conn:
        won = (
            conn.execute(
                approvals.update()
                .where(
                    (approvals.c.id == approval_id)
                    & (approvals.c.status == PENDING)
                    & (approvals.c.expires_at > now)
                    & (approvals.c.input_hash == body.input_hash)
                    & (approvals.c.remember_minutes >= body.remember_minutes)
                )
                .values(
                    status=STATUS_FOR[body.decision],
                    decision=body.decision,
                    note=body.note,
                    approver=approver.name,
                    decided_at=now,
                    decision_remember_minutes=body.remember_minutes,
                )
                .returning(*approvals.c)
            )
            .mappings()
            .first()
        )
        if won is not None:
            enqueue(conn, "approval_decided", _decided_event(won, now), wanted)
            return view(won)
    raise _why_not(engine, approval_id, approver, body.input_hash, body.remember_minutes)


def withdraw(
    engine: Engine, approval_id: str, principal: Principal, wanted: Wanted = None
) -> dict[str, Any]:
    """pending -> withdrawn (the host's own prompt took over); only the opener or the admin."""
    if not _readable(approval_id):
        raise ApprovalNotFoundError(approval_id)
    now = now_ms()
    with engine.begin() as conn:
        won = (
            conn.execute(
                approvals.update()
                .where(
                    (approvals.c.id == approval_id)
                    & _visible(principal)
                    & (approvals.c.status == PENDING)
                    & (approvals.c.expires_at > now)
                )
                .values(status=WITHDRAWN, decided_at=now)
                .returning(*approvals.c)
            )
            .mappings()
            .first()
        )
        if won is not None:
            enqueue(conn, "approval_closed", _event("approval_closed", won, now), wanted)
            return view(won)
    error = _why_not(engine, approval_id, principal, None, 0)
    if error.kind == "expired":  # the contract: any state but pending is a 409 here
        return_error = ApprovalStateError("conflict", EXPIRED, error.message)
        raise return_error
    raise error
