"""Which event types have subscribers, cached per worker and refreshed by the generation.

parse-output runs thousands of times a second; with nobody subscribed to
``hook_output_processed`` it must not open a transaction just to find that out.
"""

from __future__ import annotations

import threading

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.storage.generation import Generation
from hookwise.api.storage.tables import webhook_subscribers
from hookwise.api.webhooks.outbox import EVENT_TYPES, wants


class SubscriberIndex:
    def __init__(self, engine: Engine, generation: Generation) -> None:
        self.engine = engine
        self.generation = generation
        self._lock = threading.Lock()
        self._seen: tuple[int, ...] | None = None
        self._wanted: frozenset[str] = frozenset()

    def wanted(self, event_type: str) -> bool:
        """Whether any active subscriber receives ``event_type`` (exact across workers)."""
        now = self.generation.current()
        if now != self._seen:
            with self._lock:  # the others wait for the re-read, not take the old set
                if now == self._seen:
                    return event_type in self._wanted
                with self.engine.connect() as conn:
                    rows = conn.execute(
                        sa.select(webhook_subscribers.c.events).where(
                            webhook_subscribers.c.active.is_(True)
                        )
                    ).all()
                self._wanted = frozenset(
                    kind for kind in EVENT_TYPES for (events,) in rows if wants(events or (), kind)
                )
                self._seen = now  # taken before reading: a racing change is read next time
        return event_type in self._wanted
