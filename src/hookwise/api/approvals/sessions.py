"""The console's sign-in for approvers: a token exchanged once per device for a cookie.

A link in a notification carries no secret, so the single-request page asks for an
approver token the first time a device opens it, and trades it for a random session id
in an ``HttpOnly; SameSite=Strict`` cookie (``Secure`` when the console is served over
https). Only the sha256 of the session id is stored, next to the digest of the token it
came from: revoking the token (or changing the admin token) ends its sessions at once.

Unsafe requests made with the cookie must also carry the session's CSRF token in
``X-CSRF-Token`` (the page reads it from ``GET /api/console/session``, which another
origin cannot read), and an ``Origin`` header, when sent, must be the service's own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.storage.db import now_ms
from hookwise.api.storage.tables import api_tokens, console_sessions
from hookwise.api.tokens import ADMIN, ADMIN_NAME, Principal, token_digest

COOKIE = "hookwise_session"
SESSION_MS = 30 * 24 * 3_600_000
MAX_COOKIE_CHARS = 128


@dataclass(frozen=True)
class Session:
    principal: Principal
    csrf: str


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()


def start_session(engine: Engine, principal: Principal, token: str) -> tuple[str, Session]:
    """A new session for ``principal`` (signed in with ``token``): (cookie value, session)."""
    session_id = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(24)
    now = now_ms()
    with engine.begin() as conn:
        conn.execute(console_sessions.delete().where(console_sessions.c.expires_at <= now))
        conn.execute(
            console_sessions.insert().values(
                id_hash=_digest(session_id),
                token_name=principal.name,
                token_hash=token_digest(token),
                csrf=csrf,
                created_at=now,
                expires_at=now + SESSION_MS,
            )
        )
    return session_id, Session(principal, csrf)


def find_session(engine: Engine, session_id: str, admin_token: str) -> Session | None:
    """The live session of cookie value ``session_id``, or None (unknown, expired, or
    its token revoked or changed since)."""
    if not session_id or len(session_id) > MAX_COOKIE_CHARS:
        return None
    now = now_ms()
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(
                console_sessions.c.token_name,
                console_sessions.c.token_hash,
                console_sessions.c.csrf,
            ).where(
                (console_sessions.c.id_hash == _digest(session_id))
                & (console_sessions.c.expires_at > now)
            )
        ).first()
        if row is None:
            return None
        if row.token_name == ADMIN_NAME:
            current = token_digest(admin_token)
            if not hmac.compare_digest(current, row.token_hash):
                return None
            return Session(ADMIN, row.csrf)
        token = conn.execute(
            sa.select(api_tokens.c.role).where(
                (api_tokens.c.name == row.token_name)
                & (api_tokens.c.token_hash == row.token_hash)
                & api_tokens.c.revoked_at.is_(None)
            )
        ).first()
    if token is None or token.role != "approver":
        return None
    return Session(Principal(row.token_name, "approver"), row.csrf)


def end_session(engine: Engine, session_id: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            console_sessions.delete().where(console_sessions.c.id_hash == _digest(session_id))
        )
