"""Alembic environment: runs on the connection the service hands over (never a URL of its own)."""

from __future__ import annotations

from alembic import context

from hookwise.api.storage.tables import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only through hookwise.api.storage.db.migrate
    raise RuntimeError("run migrations through hookwise.api.storage.db.migrate()")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
