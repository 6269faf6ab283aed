"""One payload through the policy: detect, decode, evaluate, encode — or fail as configured.

``hookwise hook``, ``hookwise explain``, ``hookwise test`` and the service all call
:func:`decide`; there is no second implementation of any step.

Failure behaviour: when the policy cannot be used (a broken file, an unreadable file) or the
payload cannot be decoded, events that decide whether a tool runs (tool.before,
permission.request) fail closed — denied, with a reason naming the file and the error — and
the others fail open with a visible message. ``settings.on_error`` changes both (from the
part of the policy that did load), and ``HOOKWISE_ON_ERROR=allow|deny`` overrides everything.
"""

from __future__ import annotations

from hookwise.policy.adapters import DecodeError, adapter, detect_platform
from hookwise.policy.adapters.base import Answer, gates_tool
from hookwise.policy.canonical import file_lines, linked_files
from hookwise.policy.rules.engine import Decision, evaluate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import State


class Outcome:
    """Everything about one decision, for the answer, the audit log and explanations."""

    __slots__ = ("answer", "approval", "decision", "error", "events", "host", "host_event")

    def __init__(self) -> None:
        self.host: str | None = None
        self.host_event: str | None = None
        self.events: list[Event] = []
        self.decision: Decision | None = None
        self.answer = Answer()
        self.error: str | None = None
        self.approval: dict[str, Any] | None = None  # what the approval relay did (relay.py)


def first_error(policy: dict[str, Any]) -> str | None:
    errors = policy.get("errors") or []
    if not errors:
        return None
    first = errors[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    place = f"{first['file']}:{first['line']}:{first['column']}" if first["line"] else first["file"]
    return f"{place}: {first['message']}{more}"


def on_error_verdict(tool_event: bool | None, settings: dict[str, Any], env: dict[str, str]) -> str:
    """ "deny" or "allow" for a failure; None for ``tool_event`` means unknown (closed)."""
    forced = env.get("HOOKWISE_ON_ERROR")
    if forced in ("deny", "allow"):
        return forced
    if tool_event is None or tool_event:
        return str(settings.get("on_error.tool_events", "deny"))
    return str(settings.get("on_error.other_events", "allow"))


def failure_answer(
    outcome: Outcome,
    message: str,
    tables: dict[str, Any] | None,
    settings: dict[str, Any],
    env: dict[str, str],
    *,
    tool_event: bool | None = None,
) -> Answer:
    """The answer for a failure, in the host's own form where the event is known.

    ``tool_event`` is taken from the decoded events when there are some; otherwise None
    means "cannot tell" (treated as a tool event: closed by default).
    """
    outcome.error = message
    if outcome.events:
        tool_event = gates_tool(outcome.events)
    verdict = on_error_verdict(tool_event, settings, env)
    text = f"hookwise: {message}"
    decision = Decision()
    decision.errors.append(message)
    if verdict == "deny":
        decision.decision = "deny"
        decision.reason = (
            f"{text} (hookwise fails closed: tool calls are blocked until it can decide)"
        )
    else:
        decision.messages.append(f"{text} (policy not applied)")
    outcome.decision = decision
    if outcome.events and tables is not None and outcome.host is not None:
        answer: Answer = adapter(outcome.host).encode(decision, outcome.events, tables, settings)
        answer.stderr = text + "\n"
        return answer
    if verdict != "deny":
        return Answer("", text + "\n", 0)
    # The event is unknown: exit 2 + reason on stderr blocks on Gemini CLI, Claude Code and
    # Codex; a host whose table says an exit 2 is no reliable deny gets its JSON deny too.
    from hookwise.policy.blind_deny import blind_deny  # cold: only when hookwise fails

    blind = blind_deny(outcome.host, decision, tables, settings)
    return blind or Answer("", decision.reason + "\n", 2)


def deliver_unapproved_rewrite(
    decision: Decision, outcome: Outcome, tables: dict[str, Any]
) -> None:
    """A rewrite whose rules do not approve the whole call: where the host applies a
    rewrite that comes with no decision and then decides by its own rules (its table's
    ``rewrite_alone``), send it undecided; asking instead would stop every headless run.
    Elsewhere (Codex: a rewrite is an allow) the ask stands."""
    host = outcome.host or "claude"
    spec = tables.get(host, {}).get("events", {}).get(outcome.host_event)
    if not (isinstance(spec, dict) and spec.get("rewrite_alone")):
        return
    decision.decision = None
    decision.reason = ""
    decision.notes.append(
        "rewrite sent without a decision: its rules do not approve the whole call, so "
        f"{tables[host]['title']}'s own permission rules decide on the rewritten call"
    )


def decode_payload(
    payload: Any,
    platform: str | None,
    tables: dict[str, Any],
    env: dict[str, str],
    *,
    now: float,
    outcome: Outcome,
) -> None:
    """Fill ``outcome.host/host_event/events``; raises DecodeError."""
    outcome.host = platform  # (known before the payload is: the failure's form)
    if not isinstance(payload, dict):
        raise DecodeError("the payload is not a JSON object")
    host = platform or detect_platform(payload, tables, env)
    outcome.host = host
    name = payload.get("hook_event_name")
    outcome.host_event = name if isinstance(name, str) else None
    outcome.events = adapter(host).decode(payload, tables, env, now)
    if outcome.events:  # (a payload may leave its event to the adapter to place)
        outcome.host_event = outcome.events[0].host_event


def decide(
    payload: Any,
    policy: dict[str, Any],
    platform: str | None,
    env: dict[str, str],
    *,
    now: float,
    state: State = None,
    run_validators: bool = True,
    decoded: Outcome | None = None,
) -> Outcome:
    """The whole decision for one payload. ``decoded``: the payload decoded already with
    the same host tables (the hook decodes it to see where a command line moves)."""
    outcome = Outcome()
    tables = policy["hosts"]
    settings = policy["settings"]
    try:
        if decoded is not None and decoded.events:
            outcome.host, outcome.host_event = decoded.host, decoded.host_event
            outcome.events = decoded.events
        else:
            decode_payload(payload, platform, tables, env, now=now, outcome=outcome)
    except DecodeError as exc:
        named = isinstance(payload, dict) and outcome.host_event is not None
        # A named event hookwise does not know is advisory (open); a payload it cannot
        # read at all, or one that carries a tool, is treated as a tool event (closed).
        tool_event = None if not named or "tool_name" in payload else False
        outcome.events = []
        outcome.answer = failure_answer(
            outcome, str(exc), tables, settings, env, tool_event=tool_event
        )
        return outcome
    error = first_error(policy)
    if error is not None:
        outcome.answer = failure_answer(outcome, error, tables, settings, env)
        return outcome
    if not outcome.events:  # an event no rule can reach (canonical.UNRULED_KINDS)
        outcome.answer = Answer("", "", 0, [f"no rule reaches {outcome.host_event}"])
        return outcome
    decision = evaluate(policy, outcome.events, state, run_validators)
    outcome.decision = decision
    if decision.decision == "ask":  # the files the call reaches through a link, named
        linked = file_lines(linked_files(outcome.events))
        if linked:
            decision.reason = f"{decision.reason} ({'; '.join(linked)})"
    if decision.unapproved_rewrite:
        deliver_unapproved_rewrite(decision, outcome, tables)
    answer = adapter(outcome.host or "claude").encode(decision, outcome.events, tables, settings)
    decision.notes.extend(answer.notes)
    outcome.answer = answer
    return outcome
