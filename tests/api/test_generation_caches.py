"""The per-worker caches the generation refreshes (config_store, subscriber_index): a
reader that finds the generation moved never takes the old value while another thread's
re-read is in flight (CI stop 32: test_config_put_is_seen_by_every_worker[postgres] read
the old configuration on a loaded machine)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.processing.output_config import OutputConfigUpdate
from hookwise.api.settings import sqlite_url
from hookwise.api.storage.config_store import ConfigStore
from hookwise.api.storage.db import make_engine, migrate
from hookwise.api.storage.generation import Generation
from hookwise.api.storage.tables import webhook_subscribers
from hookwise.api.webhooks.subscriber_index import SubscriberIndex


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(sqlite_url(tmp_path))
    migrate(made, tmp_path)
    yield made
    made.dispose()


class SlowRead:
    """Holds the first re-read it is given until released, so a second reader runs while
    it is in flight."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.first = True

    def hold(self) -> None:
        if self.first:
            self.first = False
            self.entered.set()
            assert self.release.wait(10)


def _racing(read: SlowRead, first: object, second: object) -> list[object]:
    """Run ``first`` in a thread until its re-read is held, then ``second`` beside it."""
    seen: list[object] = []
    holder = threading.Thread(target=lambda: seen.append(first()))  # type: ignore[operator]
    holder.start()
    assert read.entered.wait(10)
    other = threading.Thread(target=lambda: seen.append(second()))  # type: ignore[operator]
    other.start()
    other.join(0.3)
    early = list(seen)
    read.release.set()
    holder.join(10)
    other.join(10)
    assert early == [], f"a reader returned while the re-read was in flight: {early}"
    return seen


def test_a_config_reader_waits_for_a_re_read_in_flight(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = ConfigStore(engine, Generation(tmp_path, engine, listen=False))
    reader = ConfigStore(engine, Generation(tmp_path, engine, listen=False))
    assert reader.get().validationLevel == "strict"
    writer.update(OutputConfigUpdate(validationLevel="lenient"))
    read = SlowRead()
    reload = reader._reload

    def slow_reload() -> None:
        read.hold()
        reload()

    monkeypatch.setattr(reader, "_reload", slow_reload)
    levels = _racing(
        read, lambda: reader.get().validationLevel, lambda: reader.get().validationLevel
    )
    assert levels == ["lenient", "lenient"]


def test_a_subscriber_reader_waits_for_a_re_read_in_flight(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generation = Generation(tmp_path, engine, listen=False)
    index = SubscriberIndex(engine, generation)
    assert not index.wanted("hook_output_processed")
    with engine.begin() as conn:
        conn.execute(
            webhook_subscribers.insert().values(
                id="w1",
                url="https://example.invalid/h",
                events=["hook_output_processed"],
                secret="s" * 32,
                active=True,
                created_at=0,
            )
        )
    generation.bump()
    read = SlowRead()
    connect = engine.connect

    def slow_connect() -> sa.Connection:
        read.hold()
        return connect()

    monkeypatch.setattr(engine, "connect", slow_connect)
    answers = _racing(
        read,
        lambda: index.wanted("hook_output_processed"),
        lambda: index.wanted("hook_output_processed"),
    )
    assert answers == [True, True]
