"""Factory Droid: Claude Code's payload and answer form, read through Droid's own table.

What differs (protocol/droid.py, observed with 0.225.2): ``ask`` does not block (Droid
falls through to its autonomy level), so an ask is answered with ``ask_fallback``: a deny
with the reason, or no answer at all, leaving the call to Droid's own permission (an
explicit ``allow`` would bypass even read-only ``droid exec``, so it is sent only for an
allow rule). A crash or a timeout lets the tool run, so every failure of hookwise is an
explicit JSON deny; a payload hookwise cannot place is denied with exit 2 and the JSON deny
together (either blocks).
"""

from __future__ import annotations

from hookwise.policy.adapters.base import Answer, ask_denied_reason, decode_dialect, resolve_ask
from hookwise.policy.adapters.claude import encode_dialect
from hookwise.policy.rules.engine import Decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event

HOST = "droid"


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    return decode_dialect(HOST, payload, tables, env, now)


def with_verdict(decision: Decision, verdict: str | None, reason: str) -> Decision:
    """A copy of ``decision`` with another verdict (the engine's stays as decided)."""
    out = Decision()
    for name in Decision.__slots__:
        setattr(out, name, getattr(decision, name))
    out.decision = verdict
    out.reason = reason
    return out


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    note = None
    if decision.decision == "ask" and tables[HOST]["events"][events[0].host_event]["decision"] == (
        "permission"
    ):
        if resolve_ask(decision, settings) == "deny":
            decision = with_verdict(decision, "deny", ask_denied_reason(decision))
            note = "droid does not block on ask; answered as deny"
        else:
            decision = with_verdict(decision, None, decision.reason)
            note = "droid does not block on ask; no answer (Droid's autonomy level applies)"
    answer = encode_dialect(HOST, decision, events, tables)
    if note:
        answer.notes.append(note)
    return answer
