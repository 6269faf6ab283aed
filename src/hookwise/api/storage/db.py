"""The database: one engine per process, SQLite in WAL mode or PostgreSQL, migrated at start.

SQLite needs nothing set up and serves one machine; PostgreSQL lets several ``hookwise
serve`` processes on several machines act as one service. Everything that must be
consistent across processes (permissions, rate limits, the outbox) lives here.
"""

from __future__ import annotations

import fcntl
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

from hookwise.api.processing.hook_json import dumps_stored, loads_stored

MIGRATIONS = Path(__file__).with_name("migrations")
_PG_MIGRATION_LOCK = 0x686F6F6B  # "hook": one migrator at a time across processes


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def _lenient_text(raw: bytes) -> str:
    """A text cell that is not UTF-8 (written by hand or by another tool) reads with
    U+FFFD rather than failing the whole query."""
    return raw.decode("utf-8", "replace")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.text_factory = _lenient_text
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 10},
            pool_size=8,
            max_overflow=16,
            json_serializer=dumps_stored,
            json_deserializer=loads_stored,
        )
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # No pre-ping: a round trip per checkout; a connection the server dropped fails one
    # statement, is discarded by the pool, and the next checkout gets a fresh one.
    return sa.create_engine(
        url,
        pool_size=10,
        max_overflow=20,
        pool_recycle=1800,
        json_serializer=dumps_stored,
        json_deserializer=loads_stored,
    )


def _alembic_config(connection: sa.Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def migrate(engine: Engine, lock_dir: Path | None = None) -> None:
    """Bring the schema to head; safe when several processes start at once."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
            conn.commit()
            try:
                command.upgrade(_alembic_config(conn), "head")
                conn.commit()
            finally:
                conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": _PG_MIGRATION_LOCK})
                conn.commit()
        return
    lock_path = (lock_dir or Path(".")) / "migrate.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with engine.connect() as conn:
            command.upgrade(_alembic_config(conn), "head")
            conn.commit()
