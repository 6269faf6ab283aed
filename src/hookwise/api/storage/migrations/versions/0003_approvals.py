"""The approval relay: named tokens, approval requests, console sign-ins, service secrets,
and outbox rows that carry their own notification target.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("last_used_at", sa.BigInteger(), nullable=True),
        sa.Column("revoked_at", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("name"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_table(
        "approvals",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("host", sa.String(length=256), nullable=False),
        sa.Column("session_id", sa.String(length=256), nullable=False),
        sa.Column("cwd", sa.Text(), nullable=False),
        sa.Column("tool", sa.Text(), nullable=False),
        sa.Column("input", sa.JSON(), nullable=False),
        sa.Column("input_hash", sa.String(length=80), nullable=False),
        sa.Column("rule_id", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("nonce", sa.String(length=128), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.Column("remember_minutes", sa.Integer(), nullable=False),
        sa.Column("notify", sa.JSON(), nullable=False),
        sa.Column("requested_by", sa.String(length=64), nullable=False),
        sa.Column("decision", sa.String(length=8), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("approver", sa.String(length=64), nullable=True),
        sa.Column("decided_at", sa.BigInteger(), nullable=True),
        sa.Column("decision_remember_minutes", sa.Integer(), nullable=True),
        sa.Column("remembered_from", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("approvals", schema=None) as batch_op:
        batch_op.create_index("ix_approvals_status_expires", ["status", "expires_at"])
        batch_op.create_index("ix_approvals_created", ["created_at"])
        batch_op.create_index("ix_approvals_remembered", ["host", "session_id", "input_hash"])
    op.create_table(
        "console_sessions",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("token_name", sa.String(length=64), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("csrf", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id_hash"),
    )
    with op.batch_alter_table("console_sessions", schema=None) as batch_op:
        batch_op.create_index("ix_console_sessions_expires", ["expires_at"])
    op.create_table(
        "service_secrets",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    with op.batch_alter_table("webhook_outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("target_kind", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("target_url", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("webhook_outbox", schema=None) as batch_op:
        batch_op.drop_column("target_url")
        batch_op.drop_column("target_kind")
    op.drop_table("service_secrets")
    with op.batch_alter_table("console_sessions", schema=None) as batch_op:
        batch_op.drop_index("ix_console_sessions_expires")
    op.drop_table("console_sessions")
    with op.batch_alter_table("approvals", schema=None) as batch_op:
        batch_op.drop_index("ix_approvals_remembered")
        batch_op.drop_index("ix_approvals_created")
        batch_op.drop_index("ix_approvals_status_expires")
    op.drop_table("approvals")
    op.drop_table("api_tokens")
