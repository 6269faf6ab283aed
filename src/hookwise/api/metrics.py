"""Measured figures for /health: timings per operation and the share of failed requests.

Each worker accumulates in memory (no I/O on the request path) and flushes per-minute
sums to ``metric_samples``; /health reads the sums of every worker over a window.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections import defaultdict
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.storage.tables import metric_samples

WINDOW_MINUTES = 15
# Answers that count as failures for errorRate; 401/429 are access control, not failures.
_NOT_FAILURES = frozenset({401, 429})


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class Figure:
    count: int = 0
    total_ms: float = 0.0

    @property
    def average(self) -> float:
        return self.total_ms / self.count if self.count else 0.0


class Metrics:
    """Thread-safe accumulators; ``flush`` writes them to the database."""

    def __init__(self, worker: str | None = None) -> None:
        self.worker = worker or worker_name()
        self._lock = threading.Lock()
        self._pending: dict[tuple[int, str], Figure] = defaultdict(Figure)

    def timing(self, name: str, ms: float) -> None:
        minute = int(time.time() // 60)
        with self._lock:
            figure = self._pending[(minute, name)]
            figure.count += 1
            figure.total_ms += ms

    def response(self, status: int) -> None:
        minute = int(time.time() // 60)
        with self._lock:
            self._pending[(minute, "requests")].count += 1
            if status >= 400 and status not in _NOT_FAILURES:
                self._pending[(minute, "errors")].count += 1
            if status >= 500:
                self._pending[(minute, "server_errors")].count += 1

    def flush(self, engine: Engine) -> None:
        with self._lock:
            pending, self._pending = self._pending, defaultdict(Figure)
        if not pending:
            return
        try:
            with engine.begin() as conn:
                for (minute, name), figure in pending.items():
                    where = (
                        (metric_samples.c.minute == minute)
                        & (metric_samples.c.worker == self.worker)
                        & (metric_samples.c.name == name)
                    )
                    updated = conn.execute(
                        metric_samples.update()
                        .where(where)
                        .values(
                            count=metric_samples.c.count + figure.count,
                            total_ms=metric_samples.c.total_ms + figure.total_ms,
                        )
                    )
                    if updated.rowcount == 0:
                        conn.execute(
                            metric_samples.insert().values(
                                minute=minute,
                                worker=self.worker,
                                name=name,
                                count=figure.count,
                                total_ms=figure.total_ms,
                            )
                        )
        except Exception:
            with self._lock:  # keep the figures for the next flush
                for slot, figure in pending.items():
                    mine = self._pending[slot]
                    mine.count += figure.count
                    mine.total_ms += figure.total_ms
            raise

    def window(self, engine: Engine, minutes: int = WINDOW_MINUTES) -> dict[str, Figure]:
        """Every worker's sums over the last ``minutes`` minutes (this worker's included)."""
        self.flush(engine)
        since = int(time.time() // 60) - minutes + 1
        query = (
            sa.select(
                metric_samples.c.name,
                sa.func.sum(metric_samples.c.count),
                sa.func.sum(metric_samples.c.total_ms),
            )
            .where(metric_samples.c.minute >= since)
            .group_by(metric_samples.c.name)
        )
        with engine.connect() as conn:
            rows = conn.execute(query).all()
        return {name: Figure(int(count or 0), float(total or 0.0)) for name, count, total in rows}

    def prune(self, engine: Engine, keep_minutes: int = 24 * 60) -> None:
        cutoff = int(time.time() // 60) - keep_minutes
        with engine.begin() as conn:
            conn.execute(metric_samples.delete().where(metric_samples.c.minute < cutoff))
