"""Named, scoped tokens: who may do what on the service besides the admin token.

The admin token (``settings.api_token``) keeps full access. ``hookwise serve token add``
makes named tokens with one role:

* ``agent``: the token a hook reads to open approval requests, wait on them and withdraw
  them. The agent itself can read it, so it can never decide, list or sign in.
* ``approver``: one per person or device; lists, reads and decides approval requests.

Only the sha256 of a token is stored: a copy of the database does not hand out tokens.
Lookups go by that digest (a unique index), so no secret is ever compared byte by byte in
Python; the admin token, which lives in memory, is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from hookwise.api.storage.db import now_ms
from hookwise.api.storage.tables import api_tokens, console_sessions

Role = Literal["admin", "approver", "agent"]
NAMED_ROLES: tuple[Role, ...] = ("approver", "agent")
ADMIN_NAME = "admin"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
MAX_TOKEN_CHARS = 512  # longer is never one of ours: refused before hashing
TOUCH_EVERY_MS = 60_000  # last_used_at is written at most this often per token


class TokenError(ValueError):
    """A token command cannot be done; the message says why."""


@dataclass(frozen=True)
class Principal:
    """Who a request acts for: the token's name (the approver recorded) and its role."""

    name: str
    role: Role


ADMIN = Principal(ADMIN_NAME, "admin")


@dataclass(frozen=True)
class TokenInfo:
    name: str
    role: str
    created_at: int
    last_used_at: int | None
    revoked_at: int | None


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        raise TokenError(
            f"token name {name!r}: expected 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    if name.lower() == ADMIN_NAME:
        raise TokenError(f"token name {name!r} is reserved for the admin token")
    return name


def add_token(engine: Engine, name: str, role: str) -> str:
    """Create token ``name`` with ``role``; returns the secret (shown once, never stored).

    A revoked token's name may be used again (the old secret stays dead: its digest is
    replaced); an active one's may not."""
    check_name(name)
    if role not in NAMED_ROLES:
        raise TokenError(f"role {role!r}: expected one of {', '.join(NAMED_ROLES)}")
    token = f"hw_{role}_{secrets.token_urlsafe(32)}"
    row = {
        "name": name,
        "role": role,
        "token_hash": token_digest(token),
        "created_at": now_ms(),
        "last_used_at": None,
        "revoked_at": None,
    }
    with engine.begin() as conn:
        existing = conn.execute(
            sa.select(api_tokens.c.revoked_at).where(api_tokens.c.name == name)
        ).first()
        if existing is not None and existing.revoked_at is None:
            raise TokenError(f"a token named {name!r} exists; revoke it first to replace it")
        if existing is not None:
            conn.execute(api_tokens.delete().where(api_tokens.c.name == name))
        conn.execute(api_tokens.insert().values(**row))
    return token


def list_tokens(engine: Engine) -> list[TokenInfo]:
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(
                api_tokens.c.name,
                api_tokens.c.role,
                api_tokens.c.created_at,
                api_tokens.c.last_used_at,
                api_tokens.c.revoked_at,
            ).order_by(api_tokens.c.name)
        ).all()
    return [
        TokenInfo(
            r.name,
            r.role,
            int(r.created_at),
            None if r.last_used_at is None else int(r.last_used_at),
            None if r.revoked_at is None else int(r.revoked_at),
        )
        for r in rows
    ]


def revoke_token(engine: Engine, name: str) -> None:
    """Revoke ``name`` at once: its bearer calls answer 401 and its console sign-ins end."""
    now = now_ms()
    with engine.begin() as conn:
        row = conn.execute(
            sa.select(api_tokens.c.revoked_at).where(api_tokens.c.name == name)
        ).first()
        if row is None:
            raise TokenError(f"no token named {name!r}")
        if row.revoked_at is not None:
            raise TokenError(f"token {name!r} is already revoked")
        conn.execute(
            api_tokens.update()
            .where((api_tokens.c.name == name) & api_tokens.c.revoked_at.is_(None))
            .values(revoked_at=now)
        )
        conn.execute(console_sessions.delete().where(console_sessions.c.token_name == name))


def is_admin(admin_token: str, given: str) -> bool:
    return bool(given) and hmac.compare_digest(given.encode(), admin_token.encode())


def lookup(engine: Engine, given: str) -> Principal | None:
    """The active named token ``given`` is, or None; records when it was last used."""
    if not given or len(given) > MAX_TOKEN_CHARS:
        return None
    digest = token_digest(given)
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(api_tokens.c.name, api_tokens.c.role, api_tokens.c.last_used_at).where(
                (api_tokens.c.token_hash == digest) & api_tokens.c.revoked_at.is_(None)
            )
        ).first()
    if row is None or row.role not in NAMED_ROLES:
        return None
    now = now_ms()
    if row.last_used_at is None or now - int(row.last_used_at) >= TOUCH_EVERY_MS:
        with engine.begin() as conn:  # read first: most lookups write nothing
            conn.execute(
                api_tokens.update()
                .where(api_tokens.c.token_hash == digest)
                .values(last_used_at=now)
            )
    role: Role = "approver" if row.role == "approver" else "agent"
    return Principal(row.name, role)


def active_digest(engine: Engine, name: str) -> str | None:
    """The digest of named token ``name`` while it is active (console sessions check it)."""
    with engine.connect() as conn:
        value = conn.execute(
            sa.select(api_tokens.c.token_hash).where(
                (api_tokens.c.name == name) & api_tokens.c.revoked_at.is_(None)
            )
        ).scalar()
    return None if value is None else str(value)
