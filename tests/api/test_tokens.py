"""Named tokens: names, roles, hashing, revocation and reuse, on both databases."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

from hookwise.api.storage.db import make_engine, migrate
from hookwise.api.storage.tables import api_tokens
from hookwise.api.tokens import (
    TokenError,
    add_token,
    check_name,
    list_tokens,
    lookup,
    revoke_token,
    token_digest,
)


@pytest.fixture
def engine(database_url: str, tmp_path: Path) -> sa.Engine:
    made = make_engine(database_url)
    migrate(made, tmp_path)
    yield made  # type: ignore[misc]
    made.dispose()


def test_only_the_digest_is_stored(engine: sa.Engine) -> None:
    token = add_token(engine, "alice", "approver")
    with engine.connect() as conn:
        stored = conn.execute(sa.select(api_tokens)).mappings().one()
    assert stored["token_hash"] == token_digest(token)
    assert token not in str(dict(stored))
    found = lookup(engine, token)
    assert found is not None and (found.name, found.role) == ("alice", "approver")
    assert lookup(engine, token + "x") is None
    assert lookup(engine, "") is None
    assert lookup(engine, "x" * 10_000) is None


def test_revoke_then_reuse_the_name(engine: sa.Engine) -> None:
    old = add_token(engine, "ci", "agent")
    with pytest.raises(TokenError, match="exists"):
        add_token(engine, "ci", "agent")
    revoke_token(engine, "ci")
    assert lookup(engine, old) is None
    with pytest.raises(TokenError, match="already revoked"):
        revoke_token(engine, "ci")
    with pytest.raises(TokenError, match="no token"):
        revoke_token(engine, "nobody")
    new = add_token(engine, "ci", "approver")
    assert lookup(engine, old) is None
    found = lookup(engine, new)
    assert found is not None and found.role == "approver"
    (info,) = list_tokens(engine)
    assert (info.name, info.role, info.revoked_at) == ("ci", "approver", None)
    assert info.last_used_at is not None  # the lookup above


def test_roles_and_names_are_checked(engine: sa.Engine) -> None:
    with pytest.raises(TokenError, match="role"):
        add_token(engine, "x", "admin")
    for bad in ("admin", "ADMIN", "", "-x", ".x", "a b", "é", "x" * 65, "a/b", "a\nb"):
        with pytest.raises(TokenError):
            add_token(engine, bad, "agent")
    assert list_tokens(engine) == []


@given(st.text(max_size=80))
def test_a_name_is_accepted_only_in_its_documented_shape(name: str) -> None:
    import re

    shaped = re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name) and name.lower() != "admin"
    try:
        check_name(name)
    except TokenError:
        assert not shaped
    else:
        assert shaped
