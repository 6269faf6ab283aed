"""Index the outbox by subscriber: its event listing, redelivery and delete look rows up
by subscriber.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_outbox_subscriber", "webhook_outbox", ["subscriber_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_outbox_subscriber", table_name="webhook_outbox")
