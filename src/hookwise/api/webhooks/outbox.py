"""Recording webhook events: in the caller's transaction, one row per subscriber.

Writing the event where the change itself is written means a crash can lose neither: the
permission and its ``permission_requested`` event commit together or not at all. The
event id is made once and shared by every subscriber's row, so receivers can deduplicate
the retries that at-least-once delivery implies.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import Any

import sqlalchemy as sa

from hookwise.api.storage.db import now_ms
from hookwise.api.storage.tables import webhook_outbox, webhook_subscribers

EVENT_TYPES = (
    "hook_output_processed",
    "permission_requested",
    "permission_resolved",
    "approval_requested",
    "approval_decided",
    "approval_closed",  # expired or withdrawn
)
ALL_EVENTS = "*"  # a subscriber's wildcard: every type, including types added later


_ACTIVE = sa.select(webhook_subscribers.c.id, webhook_subscribers.c.events).where(
    webhook_subscribers.c.active.is_(True)
)


def new_event_id() -> str:
    return f"evt_{uuid.uuid4().hex}"


def wants(events: Iterable[str], event_type: str) -> bool:
    """Whether a subscriber of ``events`` receives ``event_type``."""
    return any(e in (event_type, ALL_EVENTS) for e in events)


def enqueue(
    conn: sa.Connection,
    event_type: str,
    payload: dict[str, Any],
    wanted: Callable[[str], bool] | None = None,
) -> int:
    """Queue ``payload`` for every active subscriber of ``event_type``; rows written.

    ``wanted`` (a SubscriberIndex's) answers "does anybody subscribe?" from the worker's
    cache, sparing the query when nobody does."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown webhook event type {event_type!r}")
    if wanted is not None and not wanted(event_type):
        return 0
    subscribers = conn.execute(_ACTIVE).all()
    targets = [sid for sid, events in subscribers if wants(events or (), event_type)]
    if not targets:
        return 0
    event_id = new_event_id()
    now = now_ms()
    conn.execute(
        webhook_outbox.insert(),
        [outbox_row(event_id, sid, event_type, payload, now) for sid in targets],
    )
    return len(targets)


def outbox_row(
    event_id: str,
    subscriber_id: str,
    event_type: str,
    payload: dict[str, Any],
    now: int,
    *,
    target: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """A new, due outbox row; ``target`` (kind, url) for a notification that names its own
    destination instead of a subscriber's (api/approvals/notify.py)."""
    return {
        "event_id": event_id,
        "subscriber_id": subscriber_id,
        "event_type": event_type,
        "payload": payload,
        "status": "pending",
        "attempts": 0,
        "next_attempt_at": now,
        "lease_until": None,
        "last_error": None,
        "created_at": now,
        "delivered_at": None,
        "target_kind": target[0] if target else None,
        "target_url": target[1] if target else None,
    }
