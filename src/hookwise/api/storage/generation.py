"""A cheap "has shared state changed?" signal for the caches each worker keeps.

The live configuration and the webhook subscribers are read on every parse-output; a
query per request would cost more than the parse. Every change bumps the generation, and
readers compare it before trusting their cache:

* on one machine: a file whose stat changes at each bump, checked with one ``stat`` per
  request, so a change is seen by the very next request on any worker. For SQLite it sits
  beside the database file (everything sharing the database shares it, whatever its data
  directory); for PostgreSQL in the data directory;
* across machines on one PostgreSQL: ``NOTIFY hookwise_generation`` sent in the changing
  transaction and heard by a listener thread in each process (milliseconds later).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine

log = logging.getLogger("hookwise.api")

CHANNEL = "hookwise_generation"
_FILE = "generation"
_MAX_FILE_BYTES = 4096


class Generation:
    def __init__(self, data_dir: Path, engine: Engine, listen: bool | None = None) -> None:
        database = engine.url.database if engine.dialect.name == "sqlite" else None
        if database and database != ":memory:":
            self.path = Path(database).with_name(Path(database).name + "." + _FILE)
        else:
            self.path = data_dir / _FILE
        self.path.touch(exist_ok=True)
        self.engine = engine
        self._remote = 0
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        postgres = engine.dialect.name == "postgresql"
        if postgres if listen is None else listen:
            self._listener = threading.Thread(
                target=self._listen, name="hookwise-generation", daemon=True
            )
            self._listener.start()

    def current(self) -> tuple[int, int, int, int]:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return (0, 0, 0, self._remote)
        return (st.st_ino, st.st_mtime_ns, st.st_size, self._remote)

    @staticmethod
    def notify(conn: sa.Connection) -> None:
        """Inside the changing transaction: other machines hear of it when it commits."""
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_notify(:c, '')"), {"c": CHANNEL})

    def bump(self) -> None:
        """After the change committed (readers check the generation before reading)."""
        with self.path.open("ab") as out:
            out.write(b".")
            size = out.tell()
        if size > _MAX_FILE_BYTES:
            self.path.write_bytes(b"")
        os.utime(self.path)

    def close(self) -> None:
        self._stop.set()

    def _listen(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._remote += 1  # (re)connected: anything may have changed meanwhile
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=1.0):
                            self._remote += 1
            except Exception as err:  # the database went away: retry, caches stay checked
                log.warning("generation listener: %s; retrying", err)
                self._remote += 1
                time.sleep(1.0)
