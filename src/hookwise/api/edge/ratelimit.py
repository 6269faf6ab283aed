"""The contract's per-session rate limits, counted in the database.

Fixed one-minute windows per (session, group); one atomic upsert per request, so several
worker processes (or machines on one PostgreSQL) share the same counters. Refused
requests count too, so the (L+1)-th request of a burst and every later one in the minute
gets 429.

The session is named by the client, so each request is also counted per client: the
token it presented (a digest of it), whatever its address (a client picks its source
address as freely as its session id: any of 127.0.0.0/8 reaches a loopback server),
under its own bucket (``<group>/client``, so no session name can collide with it). A
token gets at most ``CLIENT_FACTOR`` times a group's session budget per minute, however
many session ids and addresses it makes up.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from fastapi import Header, Request
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from hookwise.api.edge.errors import ApiError
from hookwise.api.edge.limits import MAX_SESSION_ID_CHARS
from hookwise.api.storage.tables import rate_counters

LIMITS = {
    "execution": 100,
    "permissions": 50,
    "validation": 200,
    "configuration": 10,
    "health": 60,
}
WINDOW_SECONDS = 60
CLIENT_FACTOR = 4  # one client's budget per group, in session budgets
ANONYMOUS_SESSION = "anonymous"


@dataclass(frozen=True)
class RateDecision:
    allowed: bool
    limit: int
    remaining: int
    retry_after: int


# One statement both databases run (SQLite >= 3.35 and PostgreSQL); written as text because
# building it through the expression language cost more than executing it.
_UPSERT = sa.text(
    'INSERT INTO rate_counters (session_id, bucket, "window", count) '
    "VALUES (:session, :bucket, :window, 1) "
    'ON CONFLICT (session_id, bucket, "window") '
    "DO UPDATE SET count = rate_counters.count + 1 "
    "RETURNING count"
)


class RateLimiter:
    def __init__(self, engine: Engine, limits: dict[str, int] | None = None) -> None:
        self.engine = engine
        self.limits = dict(LIMITS if limits is None else limits)

    @staticmethod
    def client_key(request: Request) -> str:
        """The per-client key: the token the request presented (a digest of it)."""
        given = request.headers.get("authorization", "")
        return "token:" + hashlib.sha256(given.encode("utf-8", "surrogateescape")).hexdigest()[:32]

    def charge(
        self,
        conn: sa.Connection,
        session: str,
        group: str,
        now: float | None = None,
        client: str | None = None,
    ) -> RateDecision:
        """Count one request for its session (and its client, when given) inside the
        caller's transaction (one round trip fewer); the tighter answer decides."""
        limit = self.limits[group]
        now = time.time() if now is None else now
        window = int(now // WINDOW_SECONDS)
        count = int(
            conn.execute(
                _UPSERT, {"session": session, "bucket": group, "window": window}
            ).scalar_one()
        )
        retry_after = max(1, math.ceil((window + 1) * WINDOW_SECONDS - now))
        decision = RateDecision(count <= limit, limit, max(0, limit - count), retry_after)
        if client is None or not decision.allowed:
            return decision
        ceiling = limit * CLIENT_FACTOR
        spent = int(
            conn.execute(
                _UPSERT, {"session": client, "bucket": f"{group}/client", "window": window}
            ).scalar_one()
        )
        if spent > ceiling:
            return RateDecision(False, ceiling, 0, retry_after)
        return decision

    def hit(
        self, session: str, group: str, now: float | None = None, client: str | None = None
    ) -> RateDecision:
        with self.engine.begin() as conn:
            return self.charge(conn, session, group, now, client)

    def check(self, session: str | None, group: str, client: str | None = None) -> None:
        """Count one request (``client``: :meth:`client_key`); raise the contract's 429 when
        over the limit."""
        decision = self.hit(session_key(session), group, client=client)
        if not decision.allowed:
            raise refusal(decision)

    def prune(self, now: float | None = None) -> None:
        window = int((time.time() if now is None else now) // WINDOW_SECONDS)
        with self.engine.begin() as conn:
            conn.execute(sa.delete(rate_counters).where(rate_counters.c.window < window - 1))


def refusal(decision: RateDecision) -> ApiError:
    """The contract's 429 body, with Retry-After."""
    return ApiError(
        429,
        "rate_limit_exceeded",
        "Hook output API rate limit exceeded",
        headers={"Retry-After": str(decision.retry_after)},
        extra={"retryAfter": decision.retry_after, "limit": decision.limit, "remaining": 0},
    )


def session_key(session: str | None) -> str:
    if not session:
        return ANONYMOUS_SESSION
    return session[:MAX_SESSION_ID_CHARS]  # the header is capped; input.session_id is not


def limited(group: str) -> Any:
    """A route dependency counting the request against ``group`` for its X-Session-Id."""

    async def dependency(
        request: Request,
        x_session_id: str | None = Header(
            default=None, description="Names the session for the per-session rate limits"
        ),
    ) -> None:
        # One thread-pool hop for the database write, none for the dependency itself.
        limiter = request.app.state.service.limiter
        await run_in_threadpool(limiter.check, x_session_id, group, limiter.client_key(request))

    dependency.rate_group = group  # type: ignore[attr-defined]  # read by openapi.py
    return dependency


def charged_by_route(group: str) -> Any:
    """For routes that charge ``group`` themselves, in the same thread-pool hop as their
    database work (the busiest routes): documents X-Session-Id and the 429, counts nothing."""

    async def dependency(
        x_session_id: str | None = Header(
            default=None, description="Names the session for the per-session rate limits"
        ),
    ) -> None:
        return None

    dependency.rate_group = group  # type: ignore[attr-defined]  # read by openapi.py
    return dependency
