"""Long polls that cost nothing while they wait.

A ``GET /api/approvals/{id}?wait=S`` parks on an ``asyncio.Event`` for its id. A decision,
withdrawal or expiry made by this process sets it as soon as its transaction commits, so
the waiting client answers within a scheduler tick. A change made by another process (a
second worker, another machine on PostgreSQL, the expiry of another process) is found by
one batched query per ``RECHECK_S`` over every id this process waits on, whatever their
number: 200 waiters cost one indexed ``SELECT ... WHERE id IN (...)`` per period, not 200
polls. Waits also end at the request's expiry, when the reader expires it itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.storage.tables import approvals

log = logging.getLogger("hookwise.api")

RECHECK_S = 0.5
BATCH = 500


class Waiters:
    """Per-process registry id -> Event; used on the event loop only.

    A change made in this process hands its waiters the new approval object with the
    wake-up (``settled``), sparing each of them a database read; a wake-up from the
    re-check carries none, and the waiter reads the row."""

    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}
        self._counts: dict[str, int] = {}
        self._settled: dict[str, dict[str, Any]] = {}

    def __len__(self) -> int:
        return len(self._events)

    def ids(self) -> list[str]:
        return list(self._events)

    def wake(self, ids: Iterable[str]) -> None:
        for approval_id in ids:
            event = self._events.get(approval_id)
            if event is not None:
                event.set()

    def settled(self, approval: dict[str, Any]) -> None:
        """``approval`` is no longer pending: wake its waiters with it."""
        if approval["id"] in self._events:
            self._settled[approval["id"]] = approval
            self.wake([approval["id"]])

    async def wait(self, approval_id: str, timeout_s: float) -> dict[str, Any] | bool:
        """Wait until ``approval_id`` changes or ``timeout_s`` passes: the new approval
        object when this process changed it, True when woken otherwise, False on timeout."""
        if timeout_s <= 0:
            return False
        event = self._events.get(approval_id)
        if event is None:
            event = self._events[approval_id] = asyncio.Event()
        self._counts[approval_id] = self._counts.get(approval_id, 0) + 1
        try:
            async with asyncio.timeout(timeout_s):
                await event.wait()
            return self._settled.get(approval_id, True)
        except TimeoutError:
            return False
        finally:
            self._counts[approval_id] -= 1
            if self._counts[approval_id] <= 0:
                del self._counts[approval_id]
                self._settled.pop(approval_id, None)
                if self._events.get(approval_id) is event:
                    del self._events[approval_id]


def settled_among(engine: Engine, ids: list[str]) -> list[str]:
    """Which of ``ids`` are no longer pending (one query per ``BATCH`` ids)."""
    done: list[str] = []
    with engine.connect() as conn:
        for start in range(0, len(ids), BATCH):
            chunk = ids[start : start + BATCH]
            done.extend(
                conn.execute(
                    sa.select(approvals.c.id).where(
                        approvals.c.id.in_(chunk) & (approvals.c.status != "pending")
                    )
                ).scalars()
            )
    return done


async def recheck_loop(engine: Engine, waiters: Waiters) -> None:
    """Wake this process's waiters whose request another process settled."""
    while True:
        await asyncio.sleep(RECHECK_S)
        ids = waiters.ids()
        if not ids:
            continue
        try:
            waiters.wake(await asyncio.to_thread(settled_among, engine, ids))
        except Exception:  # the database may be briefly away; the next period retries
            log.exception("approval waiters' re-check failed")
