"""Delivering the outbox: lease due rows, POST them signed, record each attempt, retry.

Every ``hookwise serve`` process runs one dispatcher as an asyncio task next to the API;
database calls go through ``asyncio.to_thread`` and deliveries are bounded both in number
(``concurrency``) and in time (``timeout``), so a receiver that never answers ties up at
most a few idle sockets, never the API. No subscriber gets more than ``per_subscriber``
of a process's deliveries at once, so one dead receiver with a long queue cannot hold
every slot while the others wait.

A row is claimed by moving its ``next_attempt_at`` to the end of a lease (and setting
``lease_until`` to the same time) in one conditional UPDATE, ``FOR UPDATE SKIP LOCKED``
on PostgreSQL; SQLite serialises writers, so the same UPDATE is atomic there. Only one
process holds a row at a time. If that process dies mid-delivery the lease runs out, the
row is due again and another process (or the restarted one) sends it again with the
same event id: delivery is at least once, and receivers deduplicate on
``X-Hookwise-Event-Id``. The outcome is written only if the lease is still ours (a fence
on ``lease_until``), so a late answer cannot overwrite a newer attempt's.

Rows of an inactive subscriber are skipped, not failed: they keep their status and
attempts and become due again when the subscriber is reactivated.

Polling for due rows is one indexed read on ``(status, next_attempt_at)`` every
``poll_interval`` (200 ms), so a new event leaves within about that; the write that
claims happens only when something is due.

Tuning (environment, read when the dispatcher starts; tests shrink the delays):
``HOOKWISE_WEBHOOK_BASE_DELAY_MS`` (1000: first retry delay, doubled per attempt),
``HOOKWISE_WEBHOOK_MAX_DELAY_MS`` (300000), ``HOOKWISE_WEBHOOK_MAX_ATTEMPTS`` (12, then
the row is ``dead``), ``HOOKWISE_WEBHOOK_TIMEOUT_MS`` (10000, a whole attempt),
``HOOKWISE_WEBHOOK_CONNECT_TIMEOUT_MS`` (5000), ``HOOKWISE_WEBHOOK_LEASE_MS`` (60000,
must exceed the timeout), ``HOOKWISE_WEBHOOK_CONCURRENCY`` (16 deliveries in flight per
process), ``HOOKWISE_WEBHOOK_PER_SUBSCRIBER`` (4 of them at most for one subscriber),
``HOOKWISE_WEBHOOK_POLL_MS`` (200), ``HOOKWISE_WEBHOOK_RETENTION_HOURS`` (168:
delivered and dead rows and the delivery log are pruned after this).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise import __version__
from hookwise.api.approvals.notify import notify_secret
from hookwise.api.storage.db import now_ms
from hookwise.api.storage.tables import webhook_deliveries, webhook_outbox, webhook_subscribers
from hookwise.api.webhooks.signing import signature
from hookwise.api.webhooks.targets import (
    TargetPolicy,
    TargetRefusedError,
    UnresolvableError,
    checked_address,
    host_and_port,
)

log = logging.getLogger("hookwise.api.webhooks")

PENDING = "pending"
DELIVERED = "delivered"
DEAD = "dead"
JITTER = 0.2  # up to +20 % on each retry delay, so failed receivers are not hit in step
PRUNE_EVERY_S = 600.0
SCAN_MIN = 64  # due rows read per claim, so saturated subscribers' rows cannot hide others


@dataclass(frozen=True)
class DispatchSettings:
    base_delay_ms: int = 1_000
    max_delay_ms: int = 300_000
    max_attempts: int = 12
    timeout_ms: int = 10_000
    connect_timeout_ms: int = 5_000
    lease_ms: int = 60_000
    concurrency: int = 16
    per_subscriber: int = 4
    poll_ms: int = 200
    retention_hours: int = 7 * 24

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if value < 1:
                raise ValueError(f"webhook setting {name} must be at least 1, not {value}")
        if self.lease_ms <= self.timeout_ms:
            raise ValueError(
                f"webhook lease ({self.lease_ms} ms) must exceed the delivery timeout "
                f"({self.timeout_ms} ms), or a slow delivery would be sent twice at once"
            )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> DispatchSettings:
        env = os.environ if env is None else env
        values: dict[str, int] = {}
        for name in cls.__dataclass_fields__:
            key = f"HOOKWISE_WEBHOOK_{name.upper()}"
            raw = env.get(key, "").strip()
            if not raw:
                continue
            try:
                values[name] = int(raw)
            except ValueError:
                raise ValueError(f"{key} must be an integer, not {raw!r}") from None
        return cls(**values)


def retry_delay_ms(
    attempt: int, settings: DispatchSettings, rng: random.Random, retry_after_ms: int = 0
) -> int:
    """Delay after failed attempt ``attempt`` (1-based): base * 2^(attempt-1) plus up to 20 %
    jitter, never below the receiver's ``Retry-After``, capped at ``max_delay_ms``."""
    nominal = settings.base_delay_ms * (1 << min(attempt - 1, 40))
    nominal = min(settings.max_delay_ms, nominal)
    jittered = nominal + int(rng.uniform(0, JITTER * nominal))
    return min(settings.max_delay_ms, max(jittered, retry_after_ms))


def encode_body(payload: Mapping[str, Any]) -> bytes:
    """The request body: the stored event as compact UTF-8 JSON, the same bytes each time."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


@dataclass(frozen=True)
class Claim:
    """One outbox row leased by this process for one attempt."""

    outbox_id: int
    event_id: str
    event_type: str
    payload: dict[str, Any]
    attempt: int
    lease_until: int
    subscriber_id: str
    url: str
    secret: str
    kind: str | None = None  # an approval notification's "ntfy" | "slack" | "webhook"


@dataclass(frozen=True)
class Outcome:
    status_code: int | None
    error: str | None
    duration_ms: float
    retry_after_ms: int = 0

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def _retry_after_ms(response: httpx.Response) -> int:
    raw = response.headers.get("retry-after", "").strip()
    if response.status_code in (429, 503) and raw.isdigit():
        return int(raw) * 1000
    return 0


def pinned_request(
    client: httpx.AsyncClient, url: str, address: str, body: bytes, headers: dict[str, str]
) -> httpx.Request:
    """A POST to ``address`` (the checked IP) that names ``url``'s host in ``Host`` and,
    for https, in TLS SNI (so the certificate is still checked against the name)."""
    target = httpx.URL(url)
    extensions: dict[str, Any] = {}
    if target.scheme == "https" and target.host != address:
        extensions["sni_hostname"] = target.host
    return client.build_request(
        "POST",
        target.copy_with(host=address),
        content=body,
        headers={**headers, "Host": target.netloc.decode("ascii")},
        extensions=extensions,
    )


def request_parts(claim: Claim) -> tuple[bytes, dict[str, str]]:
    """The body and headers of one attempt: a signed event, or a notification in the
    shape its service reads (ntfy: text and headers; Slack: ``{"text"}``)."""
    agent = f"hookwise-webhooks/{__version__}"
    if claim.kind == "ntfy":
        payload = claim.payload
        return str(payload.get("message", "")).encode("utf-8"), {
            "Content-Type": "text/plain; charset=utf-8",
            "User-Agent": agent,
            "Title": str(payload.get("title", "")),
            "Click": str(payload.get("click", "")),
            "Tags": str(payload.get("tags", "")),
        }
    if claim.kind == "slack":
        text = str(claim.payload.get("text", ""))
        return encode_body({"text": text}), {
            "Content-Type": "application/json",
            "User-Agent": agent,
        }
    body = encode_body(claim.payload)
    timestamp = int(time.time())
    return body, {
        "Content-Type": "application/json",
        "User-Agent": agent,
        "X-Hookwise-Event-Id": claim.event_id,
        "X-Hookwise-Event-Type": claim.event_type,
        "X-Hookwise-Delivery-Attempt": str(claim.attempt),
        "X-Hookwise-Timestamp": str(timestamp),
        "X-Hookwise-Signature": signature(claim.secret, claim.event_id, timestamp, body),
        "X-Hookwise-Webhook-Id": claim.subscriber_id,
    }


class Dispatcher:
    def __init__(
        self,
        engine: Engine,
        settings: DispatchSettings | None = None,
        rng: random.Random | None = None,
        targets: TargetPolicy | None = None,
    ) -> None:
        self.engine = engine
        self.settings = settings or DispatchSettings()
        self.targets = targets or TargetPolicy()
        self.rng = rng or random.Random()
        self._postgres = engine.dialect.name == "postgresql"
        self._wake = asyncio.Event()
        self._open: dict[int, Claim] = {}  # claimed here, outcome not yet recorded
        self._busy: Counter[str] = Counter()  # deliveries in flight per subscriber

    # --- database (blocking; called through asyncio.to_thread) -------------------------

    def claim(self, limit: int, busy: Mapping[str, int] | None = None) -> list[Claim]:
        """Lease up to ``limit`` due rows for this process, oldest first, taking no more
        rows of one subscriber than ``per_subscriber`` minus its ``busy`` deliveries."""
        now = now_ms()
        cap = self.settings.per_subscriber
        in_flight = Counter(busy or {})
        # Rows of an inactive subscriber stay pending but are not due: they wait for it to
        # be reactivated. The leasing UPDATE checks again, so a deactivation committed
        # since the read is honoured; an attempt leased before it still goes out.
        active = sa.select(webhook_subscribers.c.id).where(webhook_subscribers.c.active.is_(True))
        due = (
            (webhook_outbox.c.status == PENDING)
            & (webhook_outbox.c.next_attempt_at <= now)
            # A notification row names its own target (api/approvals/notify.py).
            & (
                webhook_outbox.c.subscriber_id.in_(active)
                | webhook_outbox.c.target_url.is_not(None)
            )
        )
        saturated = [sid for sid, n in in_flight.items() if n >= cap]
        scan = sa.select(webhook_outbox.c.id, webhook_outbox.c.subscriber_id).where(
            due & webhook_outbox.c.subscriber_id.not_in(saturated) if saturated else due
        )
        scan = scan.order_by(webhook_outbox.c.next_attempt_at, webhook_outbox.c.id)
        with self.engine.connect() as conn:
            seen = conn.execute(scan.limit(max(4 * limit, SCAN_MIN))).all()
        picked: list[int] = []
        for outbox_id, subscriber_id in seen:
            if len(picked) >= limit:
                break
            if in_flight[subscriber_id] < cap:
                in_flight[subscriber_id] += 1
                picked.append(int(outbox_id))
        if not picked:
            return []
        lease_until = now + self.settings.lease_ms
        # Still due (another process may have taken some since the read); on PostgreSQL
        # rows another transaction is claiming right now are skipped, not waited for.
        candidates = sa.select(webhook_outbox.c.id).where(webhook_outbox.c.id.in_(picked) & due)
        if self._postgres:
            candidates = candidates.with_for_update(skip_locked=True)
        lease = (
            webhook_outbox.update()
            .where(webhook_outbox.c.id.in_(candidates) & due)
            .values(
                lease_until=lease_until,
                next_attempt_at=lease_until,
                attempts=webhook_outbox.c.attempts + 1,
            )
            .returning(
                webhook_outbox.c.id,
                webhook_outbox.c.event_id,
                webhook_outbox.c.event_type,
                webhook_outbox.c.payload,
                webhook_outbox.c.attempts,
                webhook_outbox.c.subscriber_id,
                webhook_outbox.c.target_kind,
                webhook_outbox.c.target_url,
            )
        )
        with self.engine.begin() as conn:
            rows = conn.execute(lease).all()
            if not rows:
                return []
            targets = {
                sid: (url, secret)
                for sid, url, secret in conn.execute(
                    sa.select(
                        webhook_subscribers.c.id,
                        webhook_subscribers.c.url,
                        webhook_subscribers.c.secret,
                    ).where(webhook_subscribers.c.id.in_({row.subscriber_id for row in rows}))
                )
            }
            if any(row.target_url is not None for row in rows):
                secret = notify_secret(conn)
                for row in rows:
                    if row.target_url is not None:
                        targets[row.subscriber_id] = (row.target_url, secret)
        claims = [
            Claim(
                outbox_id=int(row.id),
                event_id=row.event_id,
                event_type=row.event_type,
                payload=row.payload,
                attempt=int(row.attempts),
                lease_until=lease_until,
                subscriber_id=row.subscriber_id,
                url=targets[row.subscriber_id][0],
                secret=targets[row.subscriber_id][1],
                kind=row.target_kind,
            )
            for row in rows
            if row.subscriber_id in targets  # deleted meanwhile: its rows are gone too
        ]
        claims.sort(key=lambda c: c.outbox_id)
        return claims

    def record(self, claim: Claim, outcome: Outcome) -> str | None:
        """Log the attempt and move the row on (delivered, retry later, dead); returns the
        row's new status, or None when the lease was lost or the subscriber deleted."""
        now = now_ms()
        ours = (webhook_outbox.c.id == claim.outbox_id) & (
            webhook_outbox.c.lease_until == claim.lease_until
        )
        values: dict[str, Any] = {"lease_until": None, "last_error": outcome.error}
        if outcome.delivered:
            status = DELIVERED
            values.update(status=DELIVERED, delivered_at=now, next_attempt_at=now)
        elif claim.attempt >= self.settings.max_attempts:
            status = DEAD
            values.update(status=DEAD, next_attempt_at=now)
        else:
            status = PENDING
            delay = retry_delay_ms(claim.attempt, self.settings, self.rng, outcome.retry_after_ms)
            values.update(next_attempt_at=now + delay)
        with self.engine.begin() as conn:
            changed = conn.execute(webhook_outbox.update().where(ours).values(**values)).rowcount
            if not changed:
                exists = conn.execute(
                    sa.select(webhook_outbox.c.id).where(webhook_outbox.c.id == claim.outbox_id)
                ).first()
                if exists is None:
                    return None  # the subscriber was deleted: keep no log for it
            conn.execute(
                webhook_deliveries.insert().values(
                    outbox_id=claim.outbox_id,
                    event_id=claim.event_id,
                    subscriber_id=claim.subscriber_id,
                    attempt=claim.attempt,
                    status_code=outcome.status_code,
                    error=outcome.error,
                    duration_ms=outcome.duration_ms,
                    at=now,
                )
            )
        return status if changed else None

    def release(self, claims: list[Claim]) -> None:
        """Make unfinished claims due now (on shutdown), instead of after their lease."""
        now = now_ms()
        with self.engine.begin() as conn:
            for claim in claims:
                conn.execute(
                    webhook_outbox.update()
                    .where(
                        (webhook_outbox.c.id == claim.outbox_id)
                        & (webhook_outbox.c.lease_until == claim.lease_until)
                    )
                    .values(lease_until=None, next_attempt_at=now)
                )

    def prune(self) -> None:
        """Forget delivered and dead rows, and log entries, older than the retention."""
        cutoff = now_ms() - self.settings.retention_hours * 3_600_000
        with self.engine.begin() as conn:
            conn.execute(webhook_deliveries.delete().where(webhook_deliveries.c.at < cutoff))
            conn.execute(
                webhook_outbox.delete().where(
                    webhook_outbox.c.status.in_((DELIVERED, DEAD))
                    & (webhook_outbox.c.created_at < cutoff)
                )
            )

    # --- HTTP --------------------------------------------------------------------------

    def client(self) -> httpx.AsyncClient:
        s = self.settings
        return httpx.AsyncClient(
            timeout=httpx.Timeout(s.timeout_ms / 1000, connect=s.connect_timeout_ms / 1000),
            # No keep-alive: connections are opened to a checked IP, and a pooled TLS
            # connection verified for one name must not carry a request for another.
            limits=httpx.Limits(max_connections=s.concurrency, max_keepalive_connections=0),
            follow_redirects=False,  # a redirect is a failed attempt, never a new target
            trust_env=False,  # no proxies from the environment: deliveries go where told
        )

    async def deliver(self, client: httpx.AsyncClient, claim: Claim) -> Outcome:
        """One POST to the address checked just before; any answer other than 2xx, a
        refused or unresolvable host, or no answer in time is a failure. Only the status
        and the timing are recorded, never the receiver's answer."""
        body, headers = request_parts(claim)
        started = time.perf_counter()

        def elapsed() -> float:
            return round((time.perf_counter() - started) * 1000, 3)

        try:
            async with asyncio.timeout(self.settings.timeout_ms / 1000):
                host, port = host_and_port(claim.url)
                address = await asyncio.to_thread(checked_address, host, port, self.targets)
                request = pinned_request(client, claim.url, str(address), body, headers)
                response = await client.send(request, stream=True)
                await response.aclose()  # the body is never read
                if 200 <= response.status_code < 300:
                    return Outcome(response.status_code, None, elapsed())
        except TargetRefusedError as err:
            return Outcome(None, f"refused: {err}"[:500], elapsed())
        except UnresolvableError as err:
            return Outcome(None, str(err)[:500], elapsed())
        except TimeoutError:
            return Outcome(None, f"no answer within {self.settings.timeout_ms} ms", elapsed())
        except httpx.HTTPError as err:
            return Outcome(None, f"{type(err).__name__}: {err}"[:500], elapsed())
        error = f"HTTP {response.status_code}"
        return Outcome(response.status_code, error, elapsed(), _retry_after_ms(response))

    # --- the loop ------------------------------------------------------------------------

    async def _attempt(self, client: httpx.AsyncClient, claim: Claim) -> None:
        try:
            outcome = await self.deliver(client, claim)
            await asyncio.to_thread(self.record, claim, outcome)
        except Exception:  # the lease runs out and another attempt follows
            log.exception(
                "webhook %s to %s: recording the attempt failed", claim.event_id, claim.url
            )
        self._open.pop(claim.outbox_id, None)
        self._busy[claim.subscriber_id] -= 1
        if self._busy[claim.subscriber_id] <= 0:
            del self._busy[claim.subscriber_id]
        self._wake.set()

    async def _idle(self) -> None:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
        # that arrives as the wait ends, and the dispatcher would then never stop.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.settings.poll_ms / 1000):
                await self._wake.wait()
        self._wake.clear()

    async def run(self) -> None:
        """Claim and deliver until cancelled; unfinished claims are released on the way out."""
        tasks: set[asyncio.Task[None]] = set()
        failures = 0
        next_prune = time.monotonic() + PRUNE_EVERY_S
        async with self.client() as client:
            try:
                while True:
                    free = self.settings.concurrency - len(tasks)
                    claims: list[Claim] = []
                    if free > 0:
                        try:
                            busy = dict(self._busy)
                            claims = await asyncio.to_thread(self.claim, free, busy)
                            failures = 0
                        except Exception:
                            failures += 1
                            if failures == 1 or failures % 50 == 0:
                                log.exception("webhook dispatcher cannot claim (x%d)", failures)
                            await asyncio.sleep(min(5.0, 0.2 * failures))
                            continue
                    for claim in claims:
                        self._open[claim.outbox_id] = claim
                        self._busy[claim.subscriber_id] += 1
                        task = asyncio.create_task(self._attempt(client, claim))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                    if time.monotonic() >= next_prune:
                        next_prune = time.monotonic() + PRUNE_EVERY_S
                        try:
                            await asyncio.to_thread(self.prune)
                        except Exception:
                            log.exception("webhook dispatcher cannot prune")
                    if free <= 0 or len(claims) < free:
                        await self._idle()
            finally:
                for task in tasks:
                    task.cancel()
                with contextlib.suppress(Exception):
                    await asyncio.gather(*tasks, return_exceptions=True)
                unfinished = list(self._open.values())
                self._open.clear()
                if unfinished:
                    with contextlib.suppress(Exception):
                        self.release(unfinished)


async def run_dispatcher(engine: Engine, targets: TargetPolicy) -> None:
    await Dispatcher(engine, DispatchSettings.from_env(), targets=targets).run()
