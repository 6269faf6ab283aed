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
    spec = tables[HOST]["events"][events[0].host_event]
    rewrite = decision.updated_input is not None and decision.decision != "deny"
    if not (
        rewrite and spec["decision"] == "permission" and "updatedInput" not in spec["specific"]
    ):
        return encode_dialect(HOST, decision, events, tables)
    # allowing would run the original input: the policy allows this call only rewritten
    denied = _copy(decision)
    denied.decision, denied.updated_input = "deny", None
    denied.reason = (
        f"hookwise: {tables[HOST]['title']} cannot rewrite a tool's input, and the policy "
        f"allows this call only rewritten ({decision.reason or 'rewrite rule'})"
    )
    answer = encode_dialect(HOST, denied, events, tables)
    answer.notes.append(
        f"{HOST} cannot rewrite the input on {events[0].host_event}; answered as deny"
    )
    return answer


def _copy(decision: Decision) -> Decision:
    """The decision to encode, apart from the one the audit log records."""
    copy = type(decision)()
    for name in type(decision).__slots__:
        setattr(copy, name, getattr(decision, name))
    return copy
