"""Rewrite rules: the tool input they produce, checked again before it is used.

Cold: needed only when a rewrite rule matched and nothing denied; rewrites are rare in
policies, so a hook call does not load this unless one applies.
"""

from __future__ import annotations

from hookwise.policy import canonical

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, Protocol, TypeAlias

    from hookwise.policy.canonical import Event

    class Decision(Protocol):
        """The fields of engine.Decision a rewrite reads and sets (this module does not
        import the engine, not even for types: no import cycle)."""

        decision: str | None
        reason: str
        rule: str | None
        ask_fallback: str | None
        relay: bool
        approval_withheld: bool
        unapproved_rewrite: bool
        updated_input: dict[str, Any] | None
        rewrite_rules: list[str]
        records: list[dict[str, Any]]
        notes: list[str]

        def ask_for(self, rule: dict[str, Any], reason: str) -> None: ...

    Blockers: TypeAlias = Callable[
        [dict[str, Any], Event, Event], Iterable[tuple[dict[str, Any], str]]
    ]


def apply_rewrite(rules: list[dict[str, Any]], raw_input: dict[str, Any]) -> dict[str, Any]:
    """The host's tool input after the rules' rewrites, in order (host keys kept)."""
    result = dict(raw_input)
    for rule in rules:
        spec = rule["rewrite"]
        for key, value in spec["set"].items():
            result[canonical.host_key(result, key)] = value
        for arg, kind, pattern, replacement in spec["replace"]:
            key = canonical.host_key(result, arg)
            current = result.get(key)
            if not isinstance(current, str):
                continue
            if kind == "find":
                result[key] = current.replace(pattern, replacement)
            else:
                from hookwise.policy.rules.timed_regex import regex

                result[key] = regex(pattern).sub(replacement, current)
    return result


def host_rewrite(rules: list[dict[str, Any]], ev: Event) -> dict[str, Any]:
    """The tool input ``ev``'s host gets after the rules' rewrites. An MCP tool mapped by
    its own name (``Event.mcp_args``: ``{"file": ...}`` read as ``file_path``, ``cmd`` or a
    list as ``command``) is rewritten as the rules read it and named back in the server's
    own keys (``MappedInput.back``, as the MCP proxy answers): the server reads its own
    key, so a ``file_path`` added beside ``file`` would change nothing it does."""
    if ev.mcp_args is None or not ev.host_tool:
        return apply_rewrite(rules, ev.raw_input)
    from hookwise.policy.tool_input import mcp_mapping

    found = mcp_mapping(ev.host_tool, ev.payload, ev.mcp_args)
    if found is None:  # (mapped when the event was made: the same reading)
        return apply_rewrite(rules, ev.raw_input)
    mapped = found[1]
    return mapped.back(ev.mcp_args, apply_rewrite(rules, mapped.args))


def finish_rewrite(
    policy: dict[str, Any],
    events: list[Event],
    hits: list[tuple[int, Event]],
    decision: Decision,
    blockers: Blockers,
) -> None:
    """Apply the decision's rewrite rules to the tool call and check the rewritten call
    again against the deny and ask rules (a rewrite cannot smuggle a denied command).

    ``blockers(policy, ev, again)``: the engine's matching, passed in (this module does
    not import the engine); it yields the enforced deny
    and ask rules the rewritten call matches, with their reasons, and stops being asked
    at the first deny."""
    rules = policy["rules"]
    by_id = {rules[p]["id"]: rules[p] for p, _ in hits}
    ev = next((e for e in events if e.name == canonical.TOOL_BEFORE), None)
    if ev is None:
        return
    rewritten = host_rewrite([by_id[i] for i in decision.rewrite_rules], ev)
    if rewritten == ev.raw_input:
        decision.notes.append("the rewrite rules left the input unchanged")
        return
    mapped: dict[str, Any] | None = None
    if ev.mcp_args is not None and ev.host_tool:  # an MCP tool mapped by its own name
        from hookwise.policy.tool_input import mcp_call

        found = mcp_call(ev.host_tool, ev.payload, rewritten)
        mapped = None if found is None else found[1]
    again = ev.derived(ev.name, ev.host_tool, rewritten, mapped)
    for rule, reason in blockers(policy, ev, again):
        decision.records.append(
            {
                "id": rule["id"],
                "event": ev.name,
                "action": rule["action"],
                "mode": "enforce",
                "priority": rule["priority"],
                "scope": rule["scope"],
                "outcome": f"{rule['action']} (the rewritten input)",
            }
        )
        if rule["action"] == "deny":
            decision.decision = "deny"
            decision.reason = reason
            decision.rule = rule["id"]
            return
        decision.ask_for(rule, reason)
    decision.updated_input = rewritten
    if decision.decision is None:
        # a rewrite carries an approval only when its rules cover the whole call; else
        # the person sees the rewritten call, or, where the host applies a rewrite with no
        # decision (pipeline.deliver_unapproved_rewrite), the host's own rules decide
        decision.decision = "ask" if decision.approval_withheld else "allow"
        decision.unapproved_rewrite = decision.approval_withheld
        decision.rule = decision.rewrite_rules[0]
        decision.reason = f"rewritten by hookwise rule {decision.rewrite_rules[0]!r}"
