"""What ``hookwise install`` registers for a policy: events, matchers, handlers, timeouts.

The policy decides: every host event its enabled rules can be raised by (the canonical
mapping of ``hosts.py`` read backwards), plus the host's pre-tool event always, so that a
policy that later breaks still fails closed on tool calls. Tool events get the match-all
matcher ``"*"`` (all three hosts read it so); timeouts are written in the host's unit
(Gemini CLI milliseconds, Claude Code and Codex seconds).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from hookwise.policy import canonical
from hookwise.policy.rules.validator import TOTAL_BUDGET_S
from hookwise.protocol.hosts import event_names, matcher_field
from hookwise.protocol.hosts import host as host_info

MATCH_ALL: Final = "*"
BASE_TIMEOUT_S: Final = 10
"""Enough for a cold ``hookwise hook`` that also rebuilds the policy cache, with margin."""
# the base and every validator's wait (bounded together by validator.TOTAL_BUDGET_S);
# the approval relay's wait and margin come on top
MAX_TIMEOUT_S: Final = BASE_TIMEOUT_S + int(TOTAL_BUDGET_S)


@cache
def tool_matcher_events(host: str) -> frozenset[str]:
    """The host's events whose matcher is compared with the tool name (the others get no
    matcher), from the host's event table."""
    return frozenset(e for e in event_names(host) if matcher_field(host, e) == "tool_name")


def host_events_for(
    tables: Mapping[str, Any], host: str, canon: str, on: list[str] | None
) -> list[str]:
    """Host events that raise ``canon`` (restricted to ``on``'s ``host:event`` names).

    A conditional mapping (Gemini AfterTool -> tool.failure, Codex PostToolUse with a failed
    response -> tool.failure) counts only where no event of the host raises ``canon`` itself.
    """
    events = tables[host]["events"]

    def allowed(name: str) -> bool:
        return on is None or f"{host}:{name}" in on

    direct = [n for n, spec in events.items() if canon in spec["canonical"] and allowed(n)]
    if direct or any(canon in spec["canonical"] for spec in events.values()):
        return direct
    conditional: list[str] = []
    for name, spec in events.items():
        if not allowed(name):
            continue
        extra = spec.get("conditional")
        if extra is None:  # no such fact in its table: a failure comes as a tool.after
            extra = (canonical.TOOL_FAILURE,) if list(spec["canonical"]) == ["tool.after"] else ()
        if canon in extra:
            conditional.append(name)
    return conditional


def policy_events(compiled: Mapping[str, Any], host: str) -> list[str]:
    """The host events to register for a compiled policy, in the host table's order."""
    tables = compiled["hosts"]
    pre = host_info(host).pre_tool_event
    events = tables[host]["events"]
    # other spellings of the pre-tool point (Copilot's camelCase ``preToolUse`` beside the
    # ``PreToolUse`` install registers): registered too, the host would run hookwise twice
    # per call (and apply a rewrite twice); a rule names one with ``on`` to get it
    spellings = {
        name
        for name, spec in events.items()
        if name != pre and spec["canonical"] == events[pre]["canonical"]
    }
    wanted = {pre}
    for rule in compiled["rules"]:
        if not rule.get("enabled", True):
            continue
        hosts = rule.get("m", {}).get("host")
        if hosts and host not in hosts:
            continue
        for canon, on in rule["on"].items():
            found = host_events_for(tables, host, canon, on)
            wanted.update(n for n in found if on is not None or n not in spellings)
    return [name for name in tables[host]["events"] if name in wanted]


def timeout_seconds(compiled: Mapping[str, Any]) -> int:
    """The hook's timeout: the base plus every validator's own (they run one after another),
    plus the approval relay's ``wait`` and margin: a host that kills a hook lets the tool
    run (real-cli-findings 9), so the hook must always answer first."""
    from hookwise.policy.approvals.relay import MARGIN_S

    default = compiled["settings"].get("validator_timeout", 10)
    total = 0.0  # each validator's own timeout; together they stop at TOTAL_BUDGET_S
    for rule in compiled["rules"]:
        if rule.get("enabled", True) and rule.get("action") == "validate" and "validator" in rule:
            total += float(rule["validator"].get("timeout", default))
    seconds = min(MAX_TIMEOUT_S, BASE_TIMEOUT_S + math.ceil(total))
    relay = compiled["settings"].get("approvals")
    if relay:
        seconds += math.ceil(float(relay.get("wait", 0))) + MARGIN_S
    return seconds


@dataclass(frozen=True)
class Registration:
    """One hook to register: event, matcher (None: no matcher key) and handler."""

    event: str
    matcher: str | None
    handler: dict[str, Any]

    def group(self) -> dict[str, Any]:
        if self.matcher is None:
            return {"hooks": [dict(self.handler)]}
        return {"matcher": self.matcher, "hooks": [dict(self.handler)]}

    def entry(self, flat: bool) -> dict[str, Any]:
        """What the event's list holds: a matcher group, or (``flat``: Crush, Kiro) the
        handler itself with its matcher among its keys."""
        if not flat:
            return self.group()
        if self.matcher is None:
            return dict(self.handler)
        return {"matcher": self.matcher, **self.handler}


def registrations(host: str, events: list[str], command: str, seconds: int) -> list[Registration]:
    """The handlers for ``events``, timeouts in the host's unit, keys as the host's row
    names them (``handler``: the command and timeout keys, and fixed ones)."""
    info = host_info(host)
    timeout = seconds * 1000 if info.timeout_unit == "ms" else seconds
    command_key, timeout_key, fixed = info.handler
    out: list[Registration] = []
    for event in events:
        matcher = MATCH_ALL if event in tool_matcher_events(host) else None
        handler: dict[str, Any] = {
            **dict(fixed),
            "type": "command",
            command_key: command,
            timeout_key: timeout,
        }
        out.append(Registration(event, matcher, handler))
    return out


__all__ = [
    "MATCH_ALL",
    "Registration",
    "host_events_for",
    "policy_events",
    "registrations",
    "timeout_seconds",
    "tool_matcher_events",
]
