"""``hookwise explain``: for one payload, every rule, matched or not, and why.

The decision is the one :func:`hookwise.policy.pipeline.decide` takes (the same code the hook
runs); the per-rule reasons come from :func:`hookwise.policy.engine.match_rule` with a trace.
"""

from __future__ import annotations

from typing import Any

from hookwise.policy.engine import RetryState, match_rule
from hookwise.policy.pipeline import Outcome, decide


def rule_results(policy: dict[str, Any], outcome: Outcome) -> list[dict[str, Any]]:
    """Per rule: for each canonical event of the payload, the status and the matcher trace."""
    records: dict[str, dict[str, Any]] = {}
    if outcome.decision is not None:
        for record in outcome.decision.records:
            records.setdefault(record["id"], record)
    out: list[dict[str, Any]] = []
    for rule in policy["rules"]:
        results: list[dict[str, Any]] = []
        for ev in outcome.events:
            entry: dict[str, Any] = {"event": ev.name}
            if not rule["enabled"]:
                entry.update(status="disabled", trace=[])
            elif ev.name not in rule["on"]:
                entry.update(status="not for this event", trace=[])
            elif rule["on"][ev.name] is not None and (
                f"{ev.host}:{ev.host_event}" not in rule["on"][ev.name]
            ):
                entry.update(status=f"only for {', '.join(rule['on'][ev.name])}", trace=[])
            else:
                trace: list[Any] = []
                matched = match_rule(rule, ev, trace)
                entry.update(
                    status="matched" if matched else "not matched",
                    trace=[{"matcher": m, "ok": ok, "detail": d} for m, ok, d in trace],
                )
            results.append(entry)
        item: dict[str, Any] = {
            "id": rule["id"],
            "scope": rule["scope"],
            "file": rule["file"],
            "line": rule["line"],
            "priority": rule["priority"],
            "mode": rule["mode"],
            "action": rule["action"],
            "results": results,
        }
        if rule["id"] in records:
            item["outcome"] = records[rule["id"]].get("outcome")
        out.append(item)
    return out


def explain(
    policy: dict[str, Any],
    payload: Any,
    platform: str | None,
    env: dict[str, str],
    *,
    now: float,
    run_validators: bool = True,
) -> dict[str, Any]:
    """The explanation of one payload as data (the CLI prints it)."""
    outcome = decide(
        payload, policy, platform, env, now=now, state=RetryState(), run_validators=run_validators
    )
    decision = outcome.decision
    return {
        "host": outcome.host,
        "event": outcome.host_event,
        "canonical": [e.name for e in outcome.events],
        "tool": outcome.events[0].tool if outcome.events else None,
        "host_tool": outcome.events[0].host_tool if outcome.events else None,
        "files": outcome.events[0].files if outcome.events else [],
        "error": outcome.error,
        "decision": decision.as_dict() if decision is not None else None,
        "answer": outcome.answer.as_dict(),
        "rules": rule_results(policy, outcome) if outcome.events and not outcome.error else [],
        "policy_errors": policy.get("errors", []),
        "policy_files": policy.get("files", []),
        "untrusted": policy.get("untrusted", []),
    }
