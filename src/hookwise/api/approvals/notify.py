"""Telling a person that a request waits: ntfy, Slack-compatible and webhook notifications.

Each target a request names becomes one outbox row carrying its kind and URL
(``target_kind``, ``target_url``), written in the transaction that creates the request;
the webhook dispatcher delivers it like any event: leased, retried with backoff, SSRF
checked at every attempt (api/webhooks/targets.py), at least once. What is sent:

* ``ntfy``: ``POST url`` with the message as a plain-text body and the headers ``Title``,
  ``Click`` (the request's page) and ``Tags`` (ntfy's publish API).
* ``slack``: ``POST url`` with ``{"text": "... <page_url|Open>"}`` (an incoming webhook).
* ``webhook``: the ``approval_requested`` event as JSON, signed like the service's
  webhooks (api/webhooks/signing.py) with the service's notification secret
  (``notify_secret``; ``hookwise serve token notify-secret`` prints it).

A notification carries the page's address and what the request says, never a token:
opening the page asks the approver to sign in. Everything in it comes from the agent, so
the Slack text is escaped (no link or mention can be injected) and header values are cut
to printable ASCII on one line.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from hookwise.api.storage.db import now_ms
from hookwise.api.storage.tables import service_secrets, webhook_outbox
from hookwise.api.webhooks.outbox import new_event_id, outbox_row

_log = logging.getLogger("hookwise.api")

KINDS = ("ntfy", "slack", "webhook")
NOTIFY_SECRET = "notify_webhook"
MAX_SUMMARY = 300
MAX_HEADER = 150
NOTIFY_WINDOW_MS = 60_000
NOTIFY_PER_WINDOW = 20
"""Notifications one destination gets per minute, at most: an agent token can open any
number of requests, and each would buzz the approver's phone. The requests are still
made and shown in the console; only the push beyond the cap is left out (and logged)."""


def summary(value: Any) -> str:
    """One line saying what the call does: a shell command as written, else its JSON."""
    if isinstance(value, Mapping) and isinstance(value.get("command"), str):
        text = str(value["command"])
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    text = " ".join(text.split())
    return text if len(text) <= MAX_SUMMARY else text[: MAX_SUMMARY - 1] + "…"


def header_value(text: str) -> str:
    """Printable ASCII on one line, at most MAX_HEADER characters."""
    cleaned = "".join(c if " " <= c <= "~" else "?" for c in " ".join(text.split()))
    return cleaned[:MAX_HEADER]


def slack_escape(text: str) -> str:
    """Slack's three control characters, so that agent text cannot form a link or mention."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def message(row: Mapping[Any, Any]) -> str:
    minutes = max(0, (int(row["expires_at"]) - now_ms()) // 60_000)
    lines = [
        f"{row['tool']} on {row['host']} asks for approval",
        summary(row["input"]),
        f"cwd: {row['cwd']}",
        f"session: {row['session_id']}",
    ]
    if row["rule_id"] or row["reason"]:
        lines.append(f"rule {row['rule_id']}: {row['reason']}".strip())
    lines.append(f"expires in {minutes} min" if minutes else "expires in under a minute")
    return "\n".join(lines)


def payload_for(kind: str, row: Mapping[Any, Any], link: str) -> dict[str, Any]:
    if kind == "ntfy":
        return {
            "title": header_value(f"Approve {row['tool']} on {row['host']}?"),
            "message": message(row),
            "click": link,
            "tags": "lock",
        }
    if kind == "slack":
        return {"text": f"{slack_escape(message(row))}\n<{link}|Open>"}
    return {
        "eventType": "approval_requested",
        "timestamp": int(row["created_at"]),
        "approvalId": row["id"],
        "status": row["status"],
        "host": row["host"],
        "sessionId": row["session_id"],
        "tool": row["tool"],
        "cwd": row["cwd"],
        "input": row["input"],
        "inputHash": row["input_hash"],
        "ruleId": row["rule_id"],
        "reason": row["reason"],
        "expiresAt": int(row["expires_at"]),
        "pageUrl": link,
    }


def target_id(kind: str, url: str) -> str:
    """The outbox's subscriber id of a target: one per destination (the dispatcher's
    per-subscriber cap then spreads over destinations, and a target listed twice is one)."""
    return "ntf_" + hashlib.sha256(f"{kind} {url}".encode()).hexdigest()[:24]


def _recent(conn: sa.Connection, destination: str, now: int) -> int:
    """Notifications queued for ``destination`` in the last window."""
    return int(
        conn.execute(
            sa.select(sa.func.count())
            .select_from(webhook_outbox)
            .where(
                webhook_outbox.c.subscriber_id == destination,
                webhook_outbox.c.created_at > now - NOTIFY_WINDOW_MS,
            )
        ).scalar_one()
    )


def queue_notifications(conn: sa.Connection, row: Mapping[Any, Any], link: str) -> int:
    """One outbox row per distinct target of ``row['notify']`` (none for a destination
    that had NOTIFY_PER_WINDOW in the last minute); rows written."""
    event_id = new_event_id()
    now = now_ms()
    rows: dict[str, dict[str, Any]] = {}
    for target in row["notify"] or ():
        kind, url = str(target["type"]), str(target["url"])
        if kind not in KINDS:
            continue
        destination = target_id(kind, url)
        if destination not in rows and _recent(conn, destination, now) >= NOTIFY_PER_WINDOW:
            _log.warning(
                "approval %s: no %s notification (%d in the last minute to that destination)",
                row["id"],
                kind,
                NOTIFY_PER_WINDOW,
            )
            continue
        if destination not in rows:
            payload = payload_for(kind, row, link)
            rows[destination] = outbox_row(
                event_id, destination, "approval_requested", payload, now, target=(kind, url)
            )
    if rows:
        conn.execute(webhook_outbox.insert(), list(rows.values()))
    return len(rows)


_INSERT_SECRET = sa.text(
    "INSERT INTO service_secrets (name, value, created_at) VALUES (:name, :value, :at) "
    "ON CONFLICT (name) DO NOTHING"
)


def notify_secret(conn: sa.Connection) -> str:
    """The key that signs ``webhook`` notifications; made once, shared by every process."""
    value = conn.execute(
        sa.select(service_secrets.c.value).where(service_secrets.c.name == NOTIFY_SECRET)
    ).scalar()
    if value is not None:
        return str(value)
    # Both databases take ON CONFLICT: a process that loses the race reads the winner's.
    conn.execute(
        _INSERT_SECRET,
        {"name": NOTIFY_SECRET, "value": secrets.token_urlsafe(32), "at": now_ms()},
    )
    return str(
        conn.execute(
            sa.select(service_secrets.c.value).where(service_secrets.c.name == NOTIFY_SECRET)
        ).scalar_one()
    )
