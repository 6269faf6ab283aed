"""Executions say what wrote them (execute-with-output or parse-output), which host's
rules read the output, and the host's decision; parse rows are pruned by kind.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("executions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("kind", sa.String(length=16), nullable=False, server_default="execute")
        )
        batch_op.add_column(sa.Column("host", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("decision", sa.String(length=16), nullable=True))
        batch_op.create_index("ix_executions_kind_created", ["kind", "created_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("executions", schema=None) as batch_op:
        batch_op.drop_index("ix_executions_kind_created")
        batch_op.drop_column("decision")
        batch_op.drop_column("host")
        batch_op.drop_column("kind")
