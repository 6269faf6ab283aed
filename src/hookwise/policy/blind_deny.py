"""The deny hookwise answers when it cannot place a payload at all (no event to encode
for), on a host where an exit code alone is no reliable deny.

Cold: only a failure of hookwise reaches it (pipeline.failure_answer).
"""

from __future__ import annotations

from hookwise.policy import fastjson
from hookwise.policy.adapters import adapter
from hookwise.policy.adapters.base import Answer
from hookwise.policy.canonical import PERMISSION_REQUEST, TOOL_BEFORE, Event

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.rules.engine import Decision


def blind_deny(
    host: str | None, decision: Decision, tables: dict[str, Any] | None, settings: dict[str, Any]
) -> Answer | None:
    """A deny for a payload whose event is unknown, on a host where exit 2 alone may let the
    tool run or hide the reason (``exit2_unreliable`` on its pre-tool events): the host's
    JSON deny for each of its tool-gating events in one object (Copilot reads a different
    form per event key; where two forms share a key the first stays), the reason on stderr,
    and exit 2 unless that hides the JSON's reason (then 0). None for the other hosts, or
    when the host is unknown."""
    table = (tables or {}).get(host) if host else None
    if host is None or table is None or tables is None:
        return None
    # exit 2 blocks on every such host; where it also hides the JSON's reason from the
    # model (Copilot's PascalCase PreToolUse), exit 0 and the JSON deny carry it
    code = table.get("blind_exit")
    if code is None:
        return None
    events = table["events"]
    pre = [name for name, spec in events.items() if TOOL_BEFORE in spec["canonical"]]
    gates = [name for name, spec in events.items() if PERMISSION_REQUEST in spec["canonical"]]
    merged: dict[str, Any] = {}
    try:
        for name in pre + gates:
            kind = TOOL_BEFORE if name in pre else PERMISSION_REQUEST
            event = Event(kind, host, name, {})
            answer = adapter(host).encode(decision, [event], tables, settings)
            for key, value in (fastjson.loads(answer.stdout) if answer.stdout else {}).items():
                merged.setdefault(key, value)
    except Exception:
        return None
    return Answer(fastjson.dumps(merged), decision.reason + "\n", code) if merged else None
