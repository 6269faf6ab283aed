"""The service's tables (SQLAlchemy Core); Alembic migrations create exactly these.

Times are integer milliseconds since the epoch, as the contract's ``timestamp`` fields.
"""

from __future__ import annotations

from typing import Final

import sqlalchemy as sa

metadata = sa.MetaData()

service_config = sa.Table(
    "service_config",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),  # always 1: one live configuration
    sa.Column("document", sa.JSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.BigInteger, nullable=False),
)

permissions = sa.Table(
    "permissions",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("session_id", sa.String(256), nullable=False),
    sa.Column("tool_name", sa.Text, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("original_input", sa.JSON, nullable=False),
    sa.Column("updated_input", sa.JSON, nullable=True),
    # pending -> allowed | denied (resolved) or expired (timeoutMs.permissionRequest passed)
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.BigInteger, nullable=False),
    sa.Column("resolved_at", sa.BigInteger, nullable=True),
    sa.Column("decision", sa.String(16), nullable=True),
    sa.Column("decision_reason", sa.Text, nullable=True),
    sa.Index("ix_permissions_status_expires", "status", "expires_at"),
)

# What wrote an ``executions`` row: execute-with-output ran the hook itself; parse-output
# read the output of a hook its client ran (api/storage/call_log.py; no command, kept in batches).
EXECUTE: Final = "execute"
PARSE: Final = "parse"

executions = sa.Table(
    "executions",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False, server_default=EXECUTE),
    # the host whose rules read the output (claude | codex | gemini); NULL on older rows
    sa.Column("host", sa.String(16), nullable=True),
    sa.Column("session_id", sa.String(256), nullable=False),
    sa.Column("hook_event", sa.String(64), nullable=False),
    sa.Column("tool_name", sa.Text, nullable=True),
    sa.Column("command", sa.Text, nullable=False),
    sa.Column("exit_code", sa.Integer, nullable=True),
    sa.Column("execution_time", sa.Float, nullable=False),  # ms
    sa.Column("should_continue", sa.Boolean, nullable=False),
    sa.Column("source", sa.String(16), nullable=False),
    # the host's decision: allow | deny | ask | defer | block | none; NULL on older rows
    sa.Column("decision", sa.String(16), nullable=True),
    sa.Column("message_blocks", sa.JSON, nullable=False),
    sa.Column("permission_id", sa.String(64), nullable=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Index("ix_executions_created", "created_at"),
    sa.Index("ix_executions_kind_created", "kind", "created_at"),
)

rate_counters = sa.Table(
    "rate_counters",
    metadata,
    sa.Column("session_id", sa.String(256), primary_key=True),
    sa.Column("bucket", sa.String(32), primary_key=True),
    sa.Column("window", sa.BigInteger, primary_key=True),  # epoch minute
    sa.Column("count", sa.Integer, nullable=False),
)

webhook_subscribers = sa.Table(
    "webhook_subscribers",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("url", sa.Text, nullable=False),
    sa.Column("events", sa.JSON, nullable=False),  # list of eventType names
    sa.Column("secret", sa.Text, nullable=False),
    sa.Column("active", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

# One row per (event, subscriber), written in the same transaction as the change it
# reports, so a crash can never lose an event; the dispatcher leases rows to deliver.
webhook_outbox = sa.Table(
    "webhook_outbox",
    metadata,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
    sa.Column("event_id", sa.String(64), nullable=False),
    sa.Column("subscriber_id", sa.String(64), nullable=False),
    sa.Column("event_type", sa.String(64), nullable=False),
    sa.Column("payload", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # pending | delivered | dead
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("next_attempt_at", sa.BigInteger, nullable=False),
    sa.Column("lease_until", sa.BigInteger, nullable=True),
    sa.Column("last_error", sa.Text, nullable=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("delivered_at", sa.BigInteger, nullable=True),
    # A notification of an approval request (api/approvals/notify.py) names its target on
    # the row: kind "ntfy" | "slack" | "webhook" and its URL; subscriber rows leave both null.
    sa.Column("target_kind", sa.String(16), nullable=True),
    sa.Column("target_url", sa.Text, nullable=True),
    sa.UniqueConstraint("event_id", "subscriber_id", name="uq_outbox_event_subscriber"),
    sa.Index("ix_outbox_due", "status", "next_attempt_at"),
    sa.Index("ix_outbox_subscriber", "subscriber_id", "status"),
)

webhook_deliveries = sa.Table(
    "webhook_deliveries",
    metadata,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
    sa.Column("outbox_id", sa.BigInteger, nullable=False),
    sa.Column("event_id", sa.String(64), nullable=False),
    sa.Column("subscriber_id", sa.String(64), nullable=False),
    sa.Column("attempt", sa.Integer, nullable=False),
    sa.Column("status_code", sa.Integer, nullable=True),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("duration_ms", sa.Float, nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Index("ix_deliveries_subscriber", "subscriber_id", "at"),
)

# Per worker process and minute, so /health reports figures measured by every worker.
metric_samples = sa.Table(
    "metric_samples",
    metadata,
    sa.Column("minute", sa.BigInteger, primary_key=True),
    sa.Column("worker", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("count", sa.BigInteger, nullable=False),
    sa.Column("total_ms", sa.Float, nullable=False),
)

# Named tokens of `hookwise serve token add`: only the sha256 of the secret is kept.
api_tokens = sa.Table(
    "api_tokens",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("role", sa.String(16), nullable=False),  # approver | agent
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("last_used_at", sa.BigInteger, nullable=True),
    sa.Column("revoked_at", sa.BigInteger, nullable=True),
)

# Approval requests of the relay (issue 15): one row per request, decided at most once.
approvals = sa.Table(
    "approvals",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("host", sa.String(256), nullable=False),
    sa.Column("session_id", sa.String(256), nullable=False),
    sa.Column("cwd", sa.Text, nullable=False),
    sa.Column("tool", sa.Text, nullable=False),
    sa.Column("input", sa.JSON, nullable=False),
    sa.Column("input_hash", sa.String(80), nullable=False),
    sa.Column("rule_id", sa.Text, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("nonce", sa.String(128), nullable=False),
    # pending -> allowed | denied | expired | withdrawn
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.BigInteger, nullable=False),
    sa.Column("remember_minutes", sa.Integer, nullable=False),
    sa.Column("notify", sa.JSON, nullable=False),
    sa.Column("requested_by", sa.String(64), nullable=False),  # the creating token's name
    sa.Column("decision", sa.String(8), nullable=True),  # allow | deny
    sa.Column("note", sa.Text, nullable=True),
    sa.Column("approver", sa.String(64), nullable=True),
    sa.Column("decided_at", sa.BigInteger, nullable=True),  # also when expired or withdrawn
    sa.Column("decision_remember_minutes", sa.Integer, nullable=True),
    sa.Column("remembered_from", sa.String(64), nullable=True),
    sa.Index("ix_approvals_status_expires", "status", "expires_at"),
    sa.Index("ix_approvals_created", "created_at"),
    sa.Index("ix_approvals_remembered", "host", "session_id", "input_hash"),
)

# Console sign-ins (the phone page): a cookie's sha256 -> the token it was exchanged for.
console_sessions = sa.Table(
    "console_sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("token_name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.BigInteger, nullable=False),
    sa.Index("ix_console_sessions_expires", "expires_at"),
)

# Secrets the service makes for itself once and shares between processes (the key that
# signs approval notifications of type "webhook").
service_secrets = sa.Table(
    "service_secrets",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)
