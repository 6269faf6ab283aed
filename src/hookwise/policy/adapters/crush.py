"""Crush (from its published reference, protocol/reference/crush.py; nothing observed):
Claude Code's PreToolUse payload with Crush's tool names (``bash``, ``view``, ``edit``...).
Its reference names both exit 2 and JSON ``decision: "deny"`` as a deny and calls itself
Claude Code compatible, without settling which JSON spelling wins: a deny is exit 2 with the
reason on stderr and, on stdout, the JSON in both spellings. An ask is ask_fallback (Crush's
ask is not confirmed); a rewrite is a deny (its ``updated_input`` is not confirmed either).
"""

from __future__ import annotations

from hookwise.policy.adapters.base import decode_dialect
from hookwise.policy.adapters.exit2_answer import exit2_answer_problem, exit2_encode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.adapters.base import Answer
    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "crush"


def _deny(reason: str) -> dict[str, Any]:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }
    return {"decision": "deny", "reason": reason, "hookSpecificOutput": specific}


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    return decode_dialect(HOST, payload, tables, env, now)


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    return exit2_encode(HOST, decision, events, tables, settings, json_deny=_deny)


answer_problem = exit2_answer_problem
