"""Webhook subscribers and their delivery log: the rows behind ``/api/webhooks``.

A subscriber is a URL, the event types it wants (``"*"`` = every type, including types
added later) and the secret its deliveries are signed with. The secret is stored as is
(signing needs it) and shown once, in the answer that creates the subscriber.

Every change moves the shared generation (``hookwise.api.storage.generation``), so each worker's
``SubscriberIndex`` (which lets parse-output skip the outbox when nobody listens) sees it
on its next request.

Deleting a subscriber deletes its queued events and its delivery log in one transaction:
nothing is delivered to it afterwards (an attempt already in flight finishes, and its
outcome is then discarded).

Deactivating one (``update(active=False)``) keeps its queue: no new events are queued for
it, the dispatcher leaves its pending rows alone, and they are delivered once it is active
again (an operator pausing a receiver for maintenance should not lose what happened in
the meantime). A changed URL or secret applies to every attempt claimed afterwards.
"""

from __future__ import annotations

import re
import secrets
import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.storage.db import now_ms
from hookwise.api.storage.generation import Generation
from hookwise.api.storage.tables import webhook_deliveries, webhook_outbox, webhook_subscribers
from hookwise.api.webhooks.outbox import ALL_EVENTS, EVENT_TYPES

MAX_URL_CHARS = 2048
MAX_SECRET_CHARS = 512
_PORT = r"(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})"


def _ipv6_pattern() -> str:
    """RFC 3986's ``IPv6address`` as a regular expression (no zone id, no IPvFuture).

    Written out rather than checked with ``ipaddress`` so the OpenAPI pattern states the
    whole rule; a test compares it with ``ipaddress.IPv6Address`` both ways."""
    h16 = "[0-9A-Fa-f]{1,4}"
    octet = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
    ls32 = rf"(?:{h16}:{h16}|{octet}(?:\.{octet}){{3}})"
    forms = [rf"(?:{h16}:){{6}}{ls32}", rf"::(?:{h16}:){{5}}{ls32}"]
    for before, after in [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)]:
        forms.append(rf"(?:(?:{h16}:){{0,{before}}}{h16})?::(?:{h16}:){{{after}}}{ls32}")
    forms.append(rf"(?:(?:{h16}:){{0,5}}{h16})?::{h16}")
    forms.append(rf"(?:(?:{h16}:){{0,6}}{h16})?::")
    return "(?:" + "|".join(forms) + ")"


IPV6_PATTERN = _ipv6_pattern()
# What a subscriber URL may be (also published as the OpenAPI pattern): lowercase http(s),
# a host name, IPv4 address or bracketed IPv6 address, an optional port in range, then a
# path and query in printable ASCII without a fragment.
URL_PATTERN = (
    r"^https?://(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?"
    rf"|\[{IPV6_PATTERN}\])"
    rf"(?::{_PORT})?"
    r'(?:[/?][!"$-~]*)?$'  # printable ASCII but '#' (0x23)
)
_URL = re.compile(URL_PATTERN)


@dataclass(frozen=True)
class Subscriber:
    id: str
    url: str
    events: tuple[str, ...]
    secret: str
    active: bool
    created_at: int

    def view(self, with_secret: bool = False) -> dict[str, Any]:
        """The API shape; the secret only when the subscriber has just been created."""
        shown: dict[str, Any] = {
            "id": self.id,
            "url": self.url,
            "events": list(self.events),
            "active": self.active,
            "createdAt": self.created_at,
        }
        if with_secret:
            shown["secret"] = self.secret
        return shown


@dataclass(frozen=True)
class Delivery:
    """One attempt to deliver one event to one subscriber, as logged."""

    event_id: str
    event_type: str
    attempt: int
    status_code: int | None
    error: str | None
    duration_ms: float
    at: int

    def view(self) -> dict[str, Any]:
        return {
            "eventId": self.event_id,
            "eventType": self.event_type,
            "attempt": self.attempt,
            "statusCode": self.status_code,
            "error": self.error,
            "durationMs": self.duration_ms,
            "at": self.at,
        }


def url_problem(url: str) -> str | None:
    """Why ``url`` is not a well-formed receiver URL, or None when it matches
    ``URL_PATTERN``. Where it may point is decided by ``targets.url_refusal``."""
    if len(url) > MAX_URL_CHARS:
        return f"at most {MAX_URL_CHARS} characters"
    if _URL.fullmatch(url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError as err:
        return f"not a valid URL: {err}"
    if not url.startswith(("http://", "https://")):
        return "scheme must be http or https (lowercase)"
    if not parts.netloc:
        return "must name a host"
    if "@" in parts.netloc:
        return "must not carry credentials (user@): deliveries are signed instead"
    if parts.fragment or "#" in url:
        return "must not have a #fragment"
    bracketed = parts.netloc[1:].partition("]")[0] if parts.netloc.startswith("[") else None
    if bracketed is not None and not re.fullmatch(IPV6_PATTERN, bracketed):
        return "an IPv6 host must be a valid address in brackets, without a zone id (%)"
    return (
        "must be http(s)://host[:port][/path][?query] with a DNS name, IPv4 address or "
        "[IPv6 address], a port in 1..65535 and printable ASCII only (percent-encode the rest)"
    )


def normalise_events(events: Sequence[str]) -> tuple[str, ...]:
    """Known event types without duplicates, in the order given; ``("*",)`` when present.

    Raises ValueError naming the unknown types, or when the list is empty.
    """
    unknown = [e for e in events if e != ALL_EVENTS and e not in EVENT_TYPES]
    if unknown:
        allowed = ", ".join((*EVENT_TYPES, ALL_EVENTS))
        raise ValueError(f"unknown event type(s) {', '.join(map(repr, unknown))}; use {allowed}")
    if not events:
        raise ValueError("name at least one event type (or '*')")
    if ALL_EVENTS in events:
        return (ALL_EVENTS,)
    return tuple(dict.fromkeys(events))


def generate_secret() -> str:
    return f"whsec_{secrets.token_urlsafe(32)}"


def _subscriber(row: sa.RowMapping) -> Subscriber:
    return Subscriber(
        id=row["id"],
        url=row["url"],
        events=tuple(row["events"] or ()),
        secret=row["secret"],
        active=bool(row["active"]),
        created_at=int(row["created_at"]),
    )


def create(
    engine: Engine,
    url: str,
    events: Sequence[str],
    secret: str | None,
    generation: Generation | None = None,
) -> Subscriber:
    subscriber = Subscriber(
        id=f"whk_{uuid.uuid4().hex}",
        url=url,
        events=tuple(events),
        secret=secret if secret is not None else generate_secret(),
        active=True,
        created_at=now_ms(),
    )
    with engine.begin() as conn:
        conn.execute(
            webhook_subscribers.insert().values(
                id=subscriber.id,
                url=subscriber.url,
                events=list(subscriber.events),
                secret=subscriber.secret,
                active=subscriber.active,
                created_at=subscriber.created_at,
            )
        )
        if generation is not None:
            generation.notify(conn)
    if generation is not None:
        generation.bump()
    return subscriber


def list_all(engine: Engine) -> list[Subscriber]:
    query = sa.select(webhook_subscribers).order_by(
        webhook_subscribers.c.created_at, webhook_subscribers.c.id
    )
    with engine.connect() as conn:
        return [_subscriber(row) for row in conn.execute(query).mappings()]


def get(engine: Engine, subscriber_id: str) -> Subscriber | None:
    query = sa.select(webhook_subscribers).where(webhook_subscribers.c.id == subscriber_id)
    with engine.connect() as conn:
        row = conn.execute(query).mappings().first()
    return None if row is None else _subscriber(row)


def delete(engine: Engine, subscriber_id: str, generation: Generation | None = None) -> bool:
    """Remove the subscriber, its queued events and its log; False when it did not exist."""
    with engine.begin() as conn:
        removed = conn.execute(
            webhook_subscribers.delete().where(webhook_subscribers.c.id == subscriber_id)
        ).rowcount
        if not removed:
            return False
        conn.execute(webhook_outbox.delete().where(webhook_outbox.c.subscriber_id == subscriber_id))
        conn.execute(
            webhook_deliveries.delete().where(webhook_deliveries.c.subscriber_id == subscriber_id)
        )
        if generation is not None:
            generation.notify(conn)
    if generation is not None:
        generation.bump()
    return True


def deliveries(engine: Engine, subscriber_id: str, limit: int) -> list[Delivery]:
    """The subscriber's latest attempts, newest first."""
    query = (
        sa.select(
            webhook_deliveries.c.event_id,
            webhook_outbox.c.event_type,
            webhook_deliveries.c.attempt,
            webhook_deliveries.c.status_code,
            webhook_deliveries.c.error,
            webhook_deliveries.c.duration_ms,
            webhook_deliveries.c.at,
        )
        .join(webhook_outbox, webhook_outbox.c.id == webhook_deliveries.c.outbox_id)
        .where(webhook_deliveries.c.subscriber_id == subscriber_id)
        .order_by(webhook_deliveries.c.at.desc(), webhook_deliveries.c.id.desc())
        .limit(limit)
    )
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    return [
        Delivery(
            event_id=event_id,
            event_type=event_type,
            attempt=int(attempt),
            status_code=None if status_code is None else int(status_code),
            error=error,
            duration_ms=float(duration_ms),
            at=int(at),
        )
        for event_id, event_type, attempt, status_code, error, duration_ms, at in rows
    ]


def _changed(engine: Engine, generation: Generation | None, update: sa.Update) -> Subscriber | None:
    """Apply ``update`` to one subscriber and signal the other workers; None if unknown."""
    with engine.begin() as conn:
        row = conn.execute(update.returning(*webhook_subscribers.c)).mappings().first()
        if row is None:
            return None
        if generation is not None:
            generation.notify(conn)
    if generation is not None:
        generation.bump()
    return _subscriber(row)


def update(
    engine: Engine,
    subscriber_id: str,
    *,
    url: str | None = None,
    events: Sequence[str] | None = None,
    active: bool | None = None,
    generation: Generation | None = None,
) -> Subscriber | None:
    """Change the given fields (None = keep); None when the subscriber does not exist.

    Queued events stay as they are: a narrower ``events`` list does not drop events that
    were queued while the subscriber still wanted them."""
    values: dict[str, Any] = {}
    if url is not None:
        values["url"] = url
    if events is not None:
        values["events"] = list(events)
    if active is not None:
        values["active"] = active
    if not values:
        return get(engine, subscriber_id)
    where = webhook_subscribers.c.id == subscriber_id
    return _changed(engine, generation, webhook_subscribers.update().where(where).values(values))


def rotate_secret(
    engine: Engine, subscriber_id: str, generation: Generation | None = None
) -> Subscriber | None:
    """Give the subscriber a new generated secret; attempts already claimed keep the old."""
    where = webhook_subscribers.c.id == subscriber_id
    change = webhook_subscribers.update().where(where).values(secret=generate_secret())
    return _changed(engine, generation, change)


def redeliver(engine: Engine, subscriber_id: str, event_ids: Collection[str] | None) -> int:
    """Make the subscriber's dead events (all, or those of ``event_ids``) pending again.

    Attempts start from zero and the event keeps its id, so a receiver that did get it
    after all deduplicates it. ``last_error`` is kept until the next attempt replaces it;
    returns how many rows were requeued."""
    now = now_ms()
    where = (webhook_outbox.c.subscriber_id == subscriber_id) & (webhook_outbox.c.status == "dead")
    if event_ids is not None:
        where &= webhook_outbox.c.event_id.in_(list(event_ids))
    change = (
        webhook_outbox.update()
        .where(where)
        .values(
            status="pending",
            attempts=0,
            next_attempt_at=now,
            lease_until=None,
            delivered_at=None,
        )
    )
    with engine.begin() as conn:
        return int(conn.execute(change).rowcount)


@dataclass(frozen=True)
class OutboxEvent:
    """One event queued for one subscriber, as the outbox holds it."""

    event_id: str
    event_type: str
    status: str
    attempts: int
    next_attempt_at: int | None  # None once delivered or dead
    last_error: str | None
    created_at: int
    delivered_at: int | None

    def view(self) -> dict[str, Any]:
        return {
            "eventId": self.event_id,
            "eventType": self.event_type,
            "status": self.status,
            "attempts": self.attempts,
            "nextAttemptAt": self.next_attempt_at,
            "lastError": self.last_error,
            "createdAt": self.created_at,
            "deliveredAt": self.delivered_at,
        }


def outbox_events(
    engine: Engine, subscriber_id: str, status: str | None, limit: int
) -> list[OutboxEvent]:
    """The subscriber's outbox rows (of one status, or all), newest first."""
    o = webhook_outbox.c
    query = sa.select(
        o.event_id,
        o.event_type,
        o.status,
        o.attempts,
        o.next_attempt_at,
        o.last_error,
        o.created_at,
        o.delivered_at,
    ).where(o.subscriber_id == subscriber_id)
    if status is not None:
        query = query.where(o.status == status)
    query = query.order_by(o.created_at.desc(), o.id.desc()).limit(limit)
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    return [
        OutboxEvent(
            event_id=row.event_id,
            event_type=row.event_type,
            status=row.status,
            attempts=int(row.attempts),
            next_attempt_at=int(row.next_attempt_at) if row.status == "pending" else None,
            last_error=row.last_error,
            created_at=int(row.created_at),
            delivered_at=None if row.delivered_at is None else int(row.delivered_at),
        )
        for row in rows
    ]
