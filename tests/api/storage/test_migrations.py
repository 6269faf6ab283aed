"""The migrations build exactly the tables tables.py declares, step by step, and go back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from hookwise.api.storage.db import MIGRATIONS, _alembic_config, make_engine, migrate
from hookwise.api.storage.tables import metadata
from tests.api.conftest import one_database


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database (the others tests get are copies at head)."""
    yield from one_database(request.param, tmp_path)


def test_head_matches_the_declared_tables(database_url: str, tmp_path: Path) -> None:
    engine = make_engine(database_url)
    try:
        migrate(engine, tmp_path)
        with engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), metadata)
        assert differences == []
    finally:
        engine.dispose()


def test_every_step_upgrades_and_downgrades(database_url: str, tmp_path: Path) -> None:
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            cfg = _alembic_config(conn)
            revisions = [
                r.revision
                for r in reversed(list(ScriptDirectory(str(MIGRATIONS)).walk_revisions()))
            ]
            assert revisions[0] == "0001"
            for revision in revisions:
                command.upgrade(cfg, revision)
                conn.commit()
            command.downgrade(cfg, "base")
            conn.commit()
            assert set(sa.inspect(conn).get_table_names()) <= {"alembic_version"}
        migrate(engine, tmp_path)  # and up again in one go
        with engine.connect() as conn:
            assert {"permissions", "webhook_outbox"} <= set(sa.inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_migrating_twice_is_a_no_op(database_url: str, tmp_path: Path) -> None:
    engine = make_engine(database_url)
    try:
        migrate(engine, tmp_path)
        migrate(engine, tmp_path)
        with engine.connect() as conn:
            version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        heads = ScriptDirectory(str(MIGRATIONS)).get_heads()
        assert [version] == heads
    finally:
        engine.dispose()
