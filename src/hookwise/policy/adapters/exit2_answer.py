"""What the hosts that block only by exit code share (Windsurf, Kiro, Augment, and Crush as
far as its reference settles it): a deny is exit 2 with the reason on stderr, which each of
their references names as the block; nothing else they read can carry an ask, a rewrite or
context. No ``encode`` here: this is a helper, not a host's adapter.
"""

from __future__ import annotations

from hookwise.policy import fastjson
from hookwise.policy.adapters.base import Answer, ask_denied_reason, resolve_ask

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision


def exit2_encode(  # noqa: PLR0917 - an adapter's encode, plus its host and JSON form
    host: str,
    decision: Decision,
    events: list[Event],
    tables: dict[str, Any],
    settings: dict[str, Any],
    json_deny: Callable[[str], dict[str, Any]] | None = None,
) -> Answer:
    """The answer for ``host``; ``json_deny(reason)`` is printed on stdout beside a deny (for
    a host whose reference also documents a JSON form)."""
    name = events[0].host_event
    spec = tables[host]["events"][name]
    title = tables[host]["title"]
    notes: list[str] = []
    verdict = decision.decision
    reason = decision.reason or "blocked by policy"
    if verdict == "ask":
        if resolve_ask(decision, settings) == "deny":
            verdict, reason = "deny", ask_denied_reason(decision)
            notes.append(f"{host} cannot ask; answered as deny")
        else:
            verdict = None
            notes.append(f"{host} cannot ask; no answer (the host's own permission applies)")
    if decision.updated_input is not None and verdict != "deny":
        verdict = "deny"
        reason = (
            f"hookwise: {title} cannot rewrite a tool's input, and the policy allows this call "
            f"only rewritten ({decision.reason or 'rewrite rule'})"
        )
        notes.append(f"{host} cannot rewrite the input; answered as deny")
    if decision.stop is not None and verdict != "deny":
        verdict, reason = "deny", decision.stop
    if decision.contexts:
        notes.append(f"{host} cannot pass context to the model on {name}")
    if spec["decision"] == "block" and decision.retry is not None:
        return Answer(fastjson.dumps({"decision": "block", "reason": decision.retry}), "", 0, notes)
    if verdict != "deny":
        return Answer("", "", 0, notes)
    if spec["decision"] not in ("exit2", "block"):
        notes.append(f"{host} cannot block on {name}; recorded only")
        return Answer("", "", 0, notes)
    stdout = fastjson.dumps(json_deny(reason)) if json_deny is not None else ""
    return Answer(stdout, reason + "\n", 2, notes)


def exit2_answer_problem(event: str, stdout: str, stderr: str, exit_code: int | None) -> str | None:
    """Why an exit-code host would not read this answer as hookwise meant it (doctor)."""
    if exit_code == 2 and not stderr.strip():
        return "exit 2 without a reason on stderr: the block carries no reason"
    if exit_code not in (0, 2):
        return f"exit {exit_code}: neither an answer nor a block; the host runs the tool"
    return None


def claude_shaped(
    host: str, json_deny: Callable[[str], dict[str, Any]] | None = None
) -> tuple[
    Callable[[dict[str, Any], dict[str, Any], dict[str, str], float], list[Event]],
    Callable[[Decision, list[Event], dict[str, Any], dict[str, Any]], Answer],
]:
    """``decode`` and ``encode`` of a host whose payloads are Claude Code's shape and whose
    deny is an exit code (Kiro, Augment, Crush): one adapter module is then three lines."""
    from hookwise.policy.adapters.base import decode_dialect

    def decode(
        payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
    ) -> list[Event]:
        return decode_dialect(host, payload, tables, env, now)

    def encode(
        decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
    ) -> Answer:
        return exit2_encode(host, decision, events, tables, settings, json_deny)

    return decode, encode
