"""Checking a scenario's expectations against what the simulated session recorded.

The facts are the session's events as JSON (the rollout's lines) and the plain-text
transcript, so an expectation means the same thing whether it is checked live or later.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hookwise.sim.scenario import Expectation

__all__ = ["ExpectationResult", "Facts", "evaluate"]


@dataclass(frozen=True)
class ExpectationResult:
    expectation: Expectation
    passed: bool
    message: str

    def to_json(self) -> dict[str, Any]:
        e = self.expectation
        return {
            "index": e.index,
            "line": e.line,
            "check": e.check,
            "value": e.value,
            "options": e.options,
            "passed": self.passed,
            "message": self.message,
        }


class Facts:
    """Queries over a session's events."""

    def __init__(self, events: list[dict[str, Any]], transcript: str) -> None:
        self.events = events
        self.transcript = transcript
        self.turn_index = {
            e["turn_id"]: e["index"] for e in events if e.get("type") == "turn_started"
        }

    def of(self, kind: str) -> Iterator[dict[str, Any]]:
        return (e for e in self.events if e.get("type") == kind)

    def records(self, name: str, turn: int | None = None) -> list[dict[str, Any]]:
        out = []
        for event in self.of("host"):
            data = event.get("data") or {}
            if event.get("name") == name and (turn is None or data.get("turn") == turn):
                out.append(data)
        return out

    def turn_of(self, event: dict[str, Any]) -> int | None:
        turn_id = event.get("turn_id")
        return self.turn_index.get(turn_id) if isinstance(turn_id, str) else None

    def answers(self) -> dict[int, str | None]:
        out: dict[int, str | None] = {}
        for event in self.of("turn_complete"):
            index = self.turn_of(event)
            if index is not None:
                out[index] = event.get("last_agent_message")
        return out


def _subset(expected: Any, actual: Any) -> bool:
    """``expected`` is found in ``actual``: mappings by their keys, the rest by equality
    (a boolean never equals a number)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and _subset(value, actual[key]) for key, value in expected.items()
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _contains(value: Any, text: str) -> bool:
    return any(text in s for s in _strings(value))


def _where(options: dict[str, Any]) -> str:
    return f" in turn {options['turn']}" if "turn" in options else ""


def _count(times: int | None, found: int, what: str) -> tuple[bool, str]:
    if times is None:
        return found > 0, f"{what}: found {found}"
    return found == times, f"{what}: expected {times}, found {found}"


def evaluate(expectations: tuple[Expectation, ...], facts: Facts) -> list[ExpectationResult]:
    return [_one(e, facts) for e in expectations]


def _one(e: Expectation, facts: Facts) -> ExpectationResult:
    try:
        passed, message = _CHECKS[e.check](e, facts)
    except (KeyError, TypeError, ValueError) as exc:  # a malformed record: a failed check
        passed, message = False, f"cannot check: {type(exc).__name__}: {exc}"
    return ExpectationResult(e, passed, message)


def _fired(e: Expectation, facts: Facts) -> tuple[bool, str]:
    o = e.options
    matching = [
        r
        for r in facts.records("hook_event", o.get("turn"))
        if r.get("event") == e.value and ("tool" not in o or r.get("tool") == o["tool"])
    ]
    what = f"{e.value}{_where(o)}" + (f" for {o['tool']}" if "tool" in o else "")
    if "effect" in o:
        want = o["effect"]
        want = {"action": want} if isinstance(want, str) else want
        effects = [r.get("effect") for r in matching]
        matching = [r for r in matching if _subset(want, r.get("effect"))]
        if not matching:
            seen = ", ".join(json.dumps(x, ensure_ascii=False) for x in effects) or "none"
            return False, f"no {what} with effect {json.dumps(want)}; effects seen: {seen}"
    ok, message = _count(o.get("times"), len(matching), f"{what} fired")
    if e.check == "fired" and not matching and "times" not in o:
        fired = sorted({str(r.get("event")) for r in facts.records("hook_event", o.get("turn"))})
        message = f"{what} never fired (fired{_where(o)}: {', '.join(fired) or 'nothing'})"
    return ok, message


def _not_fired(e: Expectation, facts: Facts) -> tuple[bool, str]:
    o = e.options
    found = [
        r
        for r in facts.records("hook_event", o.get("turn"))
        if r.get("event") == e.value and ("tool" not in o or r.get("tool") == o["tool"])
    ]
    return not found, f"{e.value}{_where(o)} fired {len(found)} time(s)"


def _tool_calls(e: Expectation, facts: Facts) -> list[dict[str, Any]]:
    return [
        r for r in facts.records("tool_call", e.options.get("turn")) if r.get("name") == e.value
    ]


def _tool_ran(e: Expectation, facts: Facts) -> tuple[bool, str]:
    o = e.options
    calls = [r for r in _tool_calls(e, facts) if r.get("status") in ("ran", "replaced", "stopped")]
    ran = [r for r in calls if "result" in r]
    if "args" in o:
        ran = [r for r in ran if _subset(o["args"], r.get("args"))]
    what = f"{e.value} ran{_where(o)}" + (
        f" with args {json.dumps(o['args'])}" if "args" in o else ""
    )
    ok, message = _count(o.get("times"), len(ran), what)
    if not ok:
        seen = [{"status": r.get("status"), "args": r.get("args")} for r in _tool_calls(e, facts)]
        message += f"; calls of {e.value}: {json.dumps(seen, ensure_ascii=False)}"
    return ok, message


def _tool_not_ran(e: Expectation, facts: Facts) -> tuple[bool, str]:
    ran = [r for r in _tool_calls(e, facts) if "result" in r]
    return not ran, f"{e.value} ran {len(ran)} time(s){_where(e.options)}"


def _tool_blocked(e: Expectation, facts: Facts) -> tuple[bool, str]:
    o = e.options
    statuses = ("blocked", "stopped", "denied", "restricted")
    blocked = [
        r for r in _tool_calls(e, facts) if r.get("status") in statuses and "result" not in r
    ]
    if "reason_contains" in o:
        blocked = [r for r in blocked if o["reason_contains"] in str(r.get("reason", ""))]
    if blocked:
        return True, f"{e.value} {blocked[0]['status']}: {blocked[0].get('reason')}"
    seen = [{"status": r.get("status"), "reason": r.get("reason")} for r in _tool_calls(e, facts)]
    return (
        False,
        f"{e.value} was not blocked{_where(o)}; calls: {json.dumps(seen, ensure_ascii=False)}",
    )


def _answer_of(e: Expectation, facts: Facts) -> tuple[int | None, str | None]:
    answers = facts.answers()
    if "turn" in e.options:
        turn = e.options["turn"]
        return (turn, answers.get(turn)) if turn in answers else (None, None)
    with_text = [i for i, text in answers.items() if text is not None]
    if not with_text:
        return None, None
    last = max(with_text)
    return last, answers[last]


def _answer(e: Expectation, facts: Facts) -> tuple[bool, str]:
    turn, text = _answer_of(e, facts)
    if turn is None or text is None:
        return False, f"no answer{_where(e.options)}"
    if e.check == "answer":
        return text == e.value, f"turn {turn} answered {text!r}"
    return e.value in text, f"turn {turn} answered {text!r}"


def _transcript(e: Expectation, facts: Facts) -> tuple[bool, str]:
    found = e.value in facts.transcript
    if e.check == "transcript_contains":
        return found, "found in the transcript" if found else "not in the transcript"
    return not found, "found in the transcript" if found else "not in the transcript"


def _hook_input(e: Expectation, facts: Facts) -> tuple[bool, str]:
    o = e.options
    items = [
        h
        for h in facts.of("hook_input")
        if h.get("hook") == e.value and ("turn" not in o or facts.turn_of(h) == o["turn"])
    ]
    seen = [h.get("text") for h in items]
    if "text" in o:
        items = [h for h in items if h.get("text") == o["text"]]
    if "text_contains" in o:
        items = [h for h in items if o["text_contains"] in str(h.get("text", ""))]
    if "delivery" in o:
        items = [h for h in items if h.get("delivery") == o["delivery"]]
    ok, message = _count(o.get("times"), len(items), f"HookInput from {e.value}{_where(o)}")
    if not ok:
        message += f"; texts seen: {json.dumps(seen, ensure_ascii=False)}"
    return ok, message


def _turns(e: Expectation, facts: Facts) -> tuple[bool, str]:
    count = sum(1 for _ in facts.of("turn_started"))
    return count == e.value, f"{count} turn(s) played"


def _loop_guard(e: Expectation, facts: Facts) -> tuple[bool, str]:
    tripped = any(True for _ in facts.of("loop_guard_tripped"))
    want = e.value == "tripped"
    return tripped == want, "the loop guard tripped" if tripped else "the loop guard did not trip"


def _session_stopped(e: Expectation, facts: Facts) -> tuple[bool, str]:
    stops = list(facts.of("session_stopped"))
    message = f"stopped: {stops[0].get('reason')}" if stops else "the session was not stopped"
    return bool(stops) == e.value, message


def _history(e: Expectation, facts: Facts) -> tuple[bool, str]:
    finals = facts.records("final_history")
    contents = finals[-1].get("contents") if finals else []
    found = _contains(contents, e.value)
    want = e.check == "history_contains"
    return found == want, "in the final history" if found else "not in the final history"


def _request(e: Expectation, facts: Facts) -> tuple[bool, str]:
    calls = facts.records("model_call", e.options.get("turn"))
    found = sum(1 for c in calls if _contains((c.get("request") or {}).get("contents"), e.value))
    want = e.check == "request_contains"
    what = f"{found} of {len(calls)} model request(s){_where(e.options)} contain it"
    return (found > 0) == want, what


def _model_calls(e: Expectation, facts: Facts) -> tuple[bool, str]:
    calls = [
        c for c in facts.records("model_call", e.options.get("turn")) if c.get("source") == "model"
    ]
    return len(calls) == e.value, f"{len(calls)} model call(s){_where(e.options)}"


def _outcome(e: Expectation, facts: Facts) -> tuple[bool, str]:
    outcomes = facts.records("turn_outcome", e.options.get("turn"))
    if "turn" not in e.options:
        outcomes = outcomes[-1:]
    if not outcomes:
        return False, f"no turn outcome{_where(e.options)}"
    got = outcomes[-1]
    return got.get("outcome") == e.value, f"turn {got.get('turn')}: {got.get('outcome')}" + (
        f" ({got['reason']})" if got.get("reason") else ""
    )


_CHECKS = {
    "fired": _fired,
    "not_fired": _not_fired,
    "tool_ran": _tool_ran,
    "tool_not_ran": _tool_not_ran,
    "tool_blocked": _tool_blocked,
    "answer": _answer,
    "answer_contains": _answer,
    "transcript_contains": _transcript,
    "transcript_not_contains": _transcript,
    "hook_input": _hook_input,
    "turns": _turns,
    "loop_guard": _loop_guard,
    "session_stopped": _session_stopped,
    "history_contains": _history,
    "history_not_contains": _history,
    "request_contains": _request,
    "request_not_contains": _request,
    "model_calls": _model_calls,
    "outcome": _outcome,
}
