"""The live output configuration: one row, versioned, survives restarts.

Each worker keeps the configuration in memory and re-reads it when the generation moved
(generation.py), so a PUT answered by one worker is what the next request sees on any
other, without a query per request.
"""

from __future__ import annotations

import threading

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.processing.output_config import OutputConfig, OutputConfigUpdate, apply_update
from hookwise.api.storage.db import now_ms
from hookwise.api.storage.generation import Generation
from hookwise.api.storage.tables import service_config

_ROW = 1


class ConfigStore:
    def __init__(self, engine: Engine, generation: Generation) -> None:
        self.engine = engine
        self.generation = generation
        self._seen = generation.current()
        self._lock = threading.Lock()
        self._reloading = threading.Lock()
        self._version = -1
        self._config = OutputConfig()
        self._ensure_row()

    def _ensure_row(self) -> None:
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.select(service_config.c.version, service_config.c.document).where(
                    service_config.c.id == _ROW
                )
            ).first()
            if row is None:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            service_config.insert().values(
                                id=_ROW,
                                document=OutputConfig().model_dump(mode="json"),
                                version=1,
                                updated_at=now_ms(),
                            )
                        )
                except sa.exc.IntegrityError:  # another process created it first
                    pass
        self._reload()

    def _reload(self) -> None:
        with self.engine.connect() as conn:
            version, document = conn.execute(
                sa.select(service_config.c.version, service_config.c.document).where(
                    service_config.c.id == _ROW
                )
            ).one()
        with self._lock:
            self._version = int(version)
            self._config = OutputConfig.model_validate(document)

    def get(self) -> OutputConfig:
        now = self.generation.current()
        if now != self._seen:
            # One thread re-reads; the others wait for it rather than take the old value
            # (CI stop 32: a request read the old configuration while a background loop's
            # re-read was in flight). ``now`` was taken before reading: a change racing
            # with the read moves the generation past it, and the next call reads again.
            with self._reloading:
                if now != self._seen:
                    self._reload()
                    self._seen = now
        return self._config

    def update(self, update: OutputConfigUpdate) -> OutputConfig:
        """Apply a partial update atomically (compare-and-swap on the version)."""
        while True:
            self._reload()
            with self._lock:
                base, version = self._config, self._version
            merged = apply_update(base, update)
            with self.engine.begin() as conn:
                changed = conn.execute(
                    service_config.update()
                    .where((service_config.c.id == _ROW) & (service_config.c.version == version))
                    .values(
                        document=merged.model_dump(mode="json"),
                        version=version + 1,
                        updated_at=now_ms(),
                    )
                ).rowcount
                if changed == 1:
                    self.generation.notify(conn)
            if changed == 1:
                self.generation.bump()
                with self._lock:
                    self._config, self._version = merged, version + 1
                return merged
