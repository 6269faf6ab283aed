"""Qwen Code: Claude Code's payload and answer form, read through Qwen's own table.

What differs (protocol/qwen.py, observed with 0.24.4): no input rewrite, so a policy
rewrite is answered as a deny (allowing would run the original command); PreToolUse context
never reaches the model (recorded as a note); ``ask`` is sent as Qwen's own ``ask``, which
a headless run turns into a deny. Every answer is exit 0 and JSON: Qwen runs the tool after
an exit 2 whose stderr is empty, and after a crash or a timeout (it fails open), so a
hookwise failure is a JSON deny too (pipeline.failure_answer through this adapter).
"""

from __future__ import annotations

from hookwise.policy.adapters.base import decode_dialect
from hookwise.policy.adapters.claude import encode_dialect

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.adapters.base import Answer
    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "qwen"


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    return decode_dialect(HOST, payload, tables, env, now)


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    return encode_dialect(HOST, decision, events, tables)
