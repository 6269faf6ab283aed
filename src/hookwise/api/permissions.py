"""Pending permission requests: created by a PreToolUse "ask", resolved once, or expired.

Every state change is one conditional UPDATE (``WHERE status = 'pending' AND expires_at >
now``), so whichever worker process or client gets there first wins and every other one
sees zero rows changed: twenty concurrent resolvers yield exactly one success on SQLite
and on PostgreSQL alike. The webhook event for the change is queued in the same
transaction, so a permission and its event commit together or not at all.

Expiry does not depend on a background loop's timing: reads and resolves expire due rows
first (the loop only makes ``permission_resolved`` go out without waiting for a reader).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.processing.output_config import OutputConfig
from hookwise.api.storage.db import now_ms
from hookwise.api.storage.tables import permissions
from hookwise.api.webhooks.outbox import enqueue

Decision = Literal["allow", "deny"]
PENDING = "pending"
EXPIRED = "expired"
STATUS_FOR = {"allow": "allowed", "deny": "denied"}
MAX_ID_CHARS = 64  # the width of permissions.id
EXPIRY_BATCH = 100  # rows expired per statement round; the rest go on the next round


class PermissionNotFoundError(LookupError):
    """No permission has this id."""


@dataclass(frozen=True)
class PermissionConflictError(Exception):
    """The permission is no longer pending: already resolved, or expired with the fallback."""

    permission_id: str
    status: str  # "resolved" | "expired"
    decision: str

    def __str__(self) -> str:
        if self.status == EXPIRED:
            return (
                f"permission {self.permission_id} expired before it was resolved; "
                f"the fallback decision '{self.decision}' was applied"
            )
        return f"permission {self.permission_id} was already resolved with '{self.decision}'"


@dataclass(frozen=True)
class Resolution:
    """What a successful resolve returns to the route."""

    decision: Decision
    reason: str | None
    timestamp: int
    processing_time: int


def text_problem(value: str | None) -> str | None:
    """Why ``value`` cannot go into a text column (PostgreSQL refuses NUL; neither
    database takes a lone surrogate), or None when it can."""
    if value is None:
        return None
    if "\x00" in value:
        return "must not contain NUL characters"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "must be valid Unicode (no lone surrogates)"
    return None


def text_details(fields: Mapping[str, str | None]) -> list[dict[str, str]]:
    """One 400 detail per request field whose text cannot be stored."""
    return [
        {"field": name, "message": problem, "code": "INVALID_VALUE"}
        for name, value in fields.items()
        if (problem := text_problem(value)) is not None
    ]


def storable(value: str) -> str:
    """``value`` with what a text column refuses replaced by U+FFFD (for text that comes
    from hook output, which is reported rather than refused)."""
    if text_problem(value) is None:
        return value
    cleaned = value.replace("\x00", "\ufffd")
    return cleaned.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def new_permission_id(now: int) -> str:
    """``perm_<ms>_<random>`` as the reference implementation names them, but unguessable."""
    return f"perm_{now}_{secrets.token_hex(12)}"


@contextmanager
def _transaction(target: Engine | sa.Connection) -> Iterator[sa.Connection]:
    """A connection in a transaction: the caller's (it commits), or a new one of ours."""
    if isinstance(target, sa.Connection):
        yield target
        return
    with target.begin() as conn:
        yield conn


def pending_view(row: Mapping[Any, Any]) -> dict[str, Any]:
    """A stored row as the contract's PendingPermission (plus session and expiry)."""
    view: dict[str, Any] = {
        "id": row["id"],
        "toolName": row["tool_name"],
        "reason": row["reason"],
        "originalInput": row["original_input"],
        "timestamp": int(row["created_at"]),
        "expiresAt": int(row["expires_at"]),
        "sessionId": row["session_id"],
    }
    if row["updated_input"] is not None:
        view["updatedInput"] = row["updated_input"]
    return view


# Built once: building statements per call cost more than running them.
_INSERT = permissions.insert()
_RESOLVE = (
    permissions.update()
    .where(
        (permissions.c.id == sa.bindparam("pid"))
        & (permissions.c.status == sa.bindparam("pending"))
        & (permissions.c.expires_at > sa.bindparam("now"))
    )
    .values(
        status=sa.bindparam("status"),
        decision=sa.bindparam("decision"),
        decision_reason=sa.bindparam("decision_reason"),
        resolved_at=sa.bindparam("resolved_at"),
    )
    .returning(permissions.c.created_at, permissions.c.session_id)
)


def create_permission(  # noqa: PLR0917 - the signature the other routes call
    target: Engine | sa.Connection,
    tool_name: str,
    reason: str,
    original_input: Mapping[str, Any],
    updated_input: Mapping[str, Any] | None,
    session_id: str,
    config: OutputConfig,
    wanted: Callable[[str], bool] | None = None,
) -> dict[str, Any]:
    """Store a pending request expiring after ``timeoutMs.permissionRequest``; queue
    ``permission_requested`` in the same transaction. Returns the PendingPermission."""
    now = now_ms()
    tool_name, reason, session_id = storable(tool_name), storable(reason), storable(session_id)
    row: dict[str, Any] = {
        "id": new_permission_id(now),
        "session_id": session_id,
        "tool_name": tool_name,
        "reason": reason,
        "original_input": dict(original_input),
        "updated_input": dict(updated_input) if updated_input is not None else None,
        "status": PENDING,
        "created_at": now,
        "expires_at": now + int(config.timeoutMs.permissionRequest),
        "resolved_at": None,
        "decision": None,
        "decision_reason": None,
    }
    with _transaction(target) as conn:
        conn.execute(_INSERT, row)
        enqueue(
            conn,
            "permission_requested",
            {
                "eventType": "permission_requested",
                "timestamp": now,
                "permissionId": row["id"],
                "toolName": tool_name,
                "reason": reason,
                "sessionId": session_id,
            },
            wanted,
        )
    return pending_view(row)


def _resolved_event(
    permission_id: str, decision: str, created_at: int, at: int, session_id: str
) -> dict[str, Any]:
    return {
        "eventType": "permission_resolved",
        "timestamp": at,
        "permissionId": permission_id,
        "decision": decision,
        "processingTime": max(0, at - created_at),
        "sessionId": session_id,
    }


def expire_due(engine: Engine, fallback: Decision, now: int | None = None) -> int:
    """Expire every pending row past its deadline with ``fallback``; how many this call did.

    An expired request counts as decided at its deadline (``resolved_at`` and the
    event's ``processingTime``), however late a process notices; the event's
    ``timestamp`` is when it was reported.

    The candidate query is served by the (status, expires_at) index and usually finds
    nothing. Each row is then claimed by its own conditional UPDATE, so when several
    processes expire at once each row's event is queued exactly once.
    """
    now = now_ms() if now is None else now
    expired = 0
    while True:
        with engine.connect() as conn:
            due = conn.execute(
                sa.select(permissions.c.id)
                .where((permissions.c.status == PENDING) & (permissions.c.expires_at <= now))
                .order_by(permissions.c.expires_at)
                .limit(EXPIRY_BATCH)
            ).all()
        if not due:
            return expired
        with engine.begin() as conn:
            for (permission_id,) in due:
                claimed = conn.execute(
                    permissions.update()
                    .where(
                        (permissions.c.id == permission_id)
                        & (permissions.c.status == PENDING)
                        & (permissions.c.expires_at <= now)
                    )
                    .values(status=EXPIRED, decision=fallback, resolved_at=permissions.c.expires_at)
                    .returning(
                        permissions.c.created_at, permissions.c.expires_at, permissions.c.session_id
                    )
                ).first()
                if claimed is None:  # another process got there first
                    continue
                expired += 1
                event = _resolved_event(
                    permission_id, fallback, int(claimed.created_at), now, claimed.session_id
                )
                # It was decided at its deadline, whenever this process noticed.
                event["processingTime"] = int(claimed.expires_at) - int(claimed.created_at)
                enqueue(conn, "permission_resolved", event)
        if len(due) < EXPIRY_BATCH:
            return expired


def list_pending(engine: Engine, fallback: Decision) -> list[dict[str, Any]]:
    """Pending requests, oldest first; anything past its deadline is expired first."""
    now = now_ms()
    expire_due(engine, fallback, now)
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(permissions)
            .where((permissions.c.status == PENDING) & (permissions.c.expires_at > now))
            .order_by(permissions.c.created_at, permissions.c.id)
        ).mappings()
        return [pending_view(row) for row in rows]


def count_pending(engine: Engine, fallback: Decision) -> int:
    """The length ``list_pending`` would have (for /health)."""
    now = now_ms()
    expire_due(engine, fallback, now)
    with engine.connect() as conn:
        return int(
            conn.execute(
                sa.select(sa.func.count())
                .select_from(permissions)
                .where((permissions.c.status == PENDING) & (permissions.c.expires_at > now))
            ).scalar_one()
        )


def try_resolve(
    conn: sa.Connection,
    permission_id: str,
    decision: Decision,
    reason: str | None,
    wanted: Callable[[str], bool] | None = None,
) -> Resolution | None:
    """One conditional UPDATE in the caller's transaction: the Resolution when this call
    won, None when the request is unknown, resolved or expired (``why_not`` says which)."""
    now = now_ms()
    if len(permission_id) > MAX_ID_CHARS or text_problem(permission_id):
        return None  # no stored id looks like this
    won = conn.execute(
        _RESOLVE,
        {
            "pid": permission_id,
            "pending": PENDING,
            "now": now,
            "status": STATUS_FOR[decision],
            "decision": decision,
            "decision_reason": reason,
            "resolved_at": now,
        },
    ).first()
    if won is None:
        return None
    created_at = int(won.created_at)
    enqueue(
        conn,
        "permission_resolved",
        _resolved_event(permission_id, decision, created_at, now, won.session_id),
        wanted,
    )
    return Resolution(decision, reason, now, max(0, now - created_at))


def resolve_permission(
    engine: Engine,
    permission_id: str,
    decision: Decision,
    reason: str | None,
    fallback: Decision,
) -> Resolution:
    """Resolve a pending request: exactly one caller wins; every other one gets
    PermissionConflictError (or PermissionNotFoundError for an unknown id)."""
    with engine.begin() as conn:
        done = try_resolve(conn, permission_id, decision, reason)
    if done is not None:
        return done
    why_not(engine, permission_id, fallback)
    raise AssertionError("why_not always raises")  # pragma: no cover


def why_not(engine: Engine, permission_id: str, fallback: Decision) -> NoReturn:
    """The resolve lost: say why (unknown, expired or resolved), expiring the row if due."""
    now = now_ms()
    if len(permission_id) > MAX_ID_CHARS or text_problem(permission_id):
        raise PermissionNotFoundError(permission_id)
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(permissions.c.status, permissions.c.decision).where(
                permissions.c.id == permission_id
            )
        ).first()
    if row is None:
        raise PermissionNotFoundError(permission_id)
    if row.status == PENDING:  # past its deadline, not yet marked: expire it now
        expire_due(engine, fallback, now)
        with engine.connect() as conn:
            row = conn.execute(
                sa.select(permissions.c.status, permissions.c.decision).where(
                    permissions.c.id == permission_id
                )
            ).one()
    status = EXPIRED if row.status == EXPIRED else "resolved"
    raise PermissionConflictError(permission_id, status, str(row.decision))
