"""Augment's Auggie (from its published reference, protocol/reference/augment.py; nothing
observed): Claude Code's payloads with Auggie's tool names (``launch-process``,
``save-file``...); ``PreToolUse`` blocks by exit 2 with the reason on stderr; ``Stop``
sends the agent back with ``decision: "block"``. No ask, rewrite or context: ask_fallback,
and a rewrite is a deny.
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

HOST = "augment"


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    return decode_dialect(HOST, payload, tables, env, now)


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    return exit2_encode(HOST, decision, events, tables, settings)


answer_problem = exit2_answer_problem
