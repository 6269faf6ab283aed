"""Shared pieces of the approval relay's tests: a request body as a hook would send it,
and named tokens made through the same function `hookwise serve token add` calls."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from hookwise.api.approvals.schemas import canonical_hash
from hookwise.api.tokens import add_token


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def request_body(
    command: str = "rm -rf build",
    *,
    session_id: str = "session-1",
    host: str = "claude",
    cwd: str = "/work/project",
    expires_in_ms: int = 120_000,
    remember_minutes: int = 0,
    **overrides: Any,
) -> dict[str, Any]:
    """A valid POST /api/approvals body (the hook computes input_hash the same way)."""
    tool_input = {"command": command}
    body: dict[str, Any] = {
        "host": host,
        "session_id": session_id,
        "cwd": cwd,
        "tool": "Bash",
        "input": tool_input,
        "input_hash": canonical_hash(tool_input),
        "rule_id": "ask-rm",
        "reason": "Deletes files",
        "nonce": secrets.token_hex(16),
        "expires_at": now_ms() + expires_in_ms,
        "remember_minutes": remember_minutes,
        "notify": [],
    }
    body.update(overrides)
    return body


@dataclass(frozen=True)
class Tokens:
    agent: str
    other_agent: str
    approver: str
    second_approver: str

    @staticmethod
    def bearer(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}


def make_tokens(engine: Engine) -> Tokens:
    return Tokens(
        agent=add_token(engine, "laptop-agent", "agent"),
        other_agent=add_token(engine, "ci-agent", "agent"),
        approver=add_token(engine, "alice", "approver"),
        second_approver=add_token(engine, "bob", "approver"),
    )
