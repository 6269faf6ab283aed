"""GitHub Copilot CLI: both payload dialects -> canonical events; a decision -> the form
Copilot obeys on that event (protocol/copilot.py; observed with 1.0.102).

- ``PreToolUse`` (PascalCase, what ``hookwise install`` registers): Claude Code's form,
  ``hookSpecificOutput`` with ``permissionDecision`` deny / ask / allow + reason,
  ``updatedInput`` for a rewrite, ``additionalContext``;
- ``preToolUse`` (camelCase): the same at the top level, ``modifiedArgs`` for a rewrite;
- ``permissionRequest``: ``behavior`` deny + ``message``, or allow;
- ``agentStop``/``subagentStop``: ``decision: "block"`` + ``reason`` sends the agent back.

``allow`` grants Copilot's permission outright, so it is sent only for an allow rule or a
rewrite. ``ask`` is sent as Copilot's own ``ask``: a headless run (``-p``) turns it into a
deny whose reason reaches the model. Every answer is exit 0 and JSON: after an exit 2
Copilot shows the model only "hook exited with code 2", and a timed-out hook lets the tool
run, so the reason must be in the JSON and hookwise must answer before ``timeoutSec``.

A camelCase payload does not name its event (only ``permissionRequest`` has ``hookName``):
it is read by its fields, and one that cannot be placed is a DecodeError (tool events fail
closed).
"""

from __future__ import annotations

from hookwise.policy import fastjson
from hookwise.policy.adapters.base import (
    Answer,
    DecodeError,
    Encoding,
    event_name,
    make_events,
    text_field,
)
from hookwise.policy.adapters.claude import encode_dialect

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "copilot"

# camelCase payload fields -> the event they can only come from, most specific first
_SHAPES = (
    ("toolResult", "postToolUse"),
    ("toolArgs", "preToolUse"),
    ("initialPrompt", "sessionStart"),
    ("prompt", "userPromptSubmitted"),
    ("stopReason", "agentStop"),
)


def camel_event(payload: dict[str, Any]) -> str:
    """The event of a camelCase payload: ``hookName``, else the fields only it has."""
    named = payload.get("hookName")
    if isinstance(named, str) and named:
        return named
    for field, event in _SHAPES:
        if field in payload:
            return event
    raise DecodeError(
        "a GitHub Copilot CLI payload without hook_event_name or hookName, and none of "
        f"the fields that place it ({', '.join(f for f, _ in _SHAPES)})"
    )


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    camel = "hook_event_name" not in payload
    name = camel_event(payload) if camel else event_name(payload)
    spec = tables[HOST]["events"].get(name)
    if spec is None:
        known = ", ".join(tables[HOST]["events"])
        raise DecodeError(f"unknown GitHub Copilot CLI event {name!r}; expected one of: {known}")
    if camel:
        # the canonical fields the rules and the audit log read, beside Copilot's own
        payload.setdefault("hook_event_name", name)
        session = payload.get("sessionId")
        if isinstance(session, str):
            payload.setdefault("session_id", session)
        tool, raw = payload.get("toolName"), payload.get("toolArgs", payload.get("toolInput"))
    else:
        tool, raw = payload.get("tool_name"), payload.get("tool_input")
    host_tool = tool if isinstance(tool, str) and tool else None
    raw_input = raw if isinstance(raw, dict) else {}
    names = list(spec["canonical"])
    prompt = text_field(payload, "prompt") if name == "userPromptSubmitted" else None
    fields = (host_tool, raw_input, prompt, None)
    return make_events(
        HOST, name, names, payload, fields, env=env, now=now, tools=tables[HOST]["tools"],
        table=tables[HOST],
    )  # fmt: skip


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    pattern = tables[HOST]["events"][events[0].host_event]["decision"]
    if pattern == "top_permission":
        return _top_permission(decision, events, tables)
    if pattern == "top_behavior":
        return _top_behavior(decision, events, tables)
    return encode_dialect(HOST, decision, events, tables)


def _top_permission(decision: Decision, events: list[Event], tables: dict[str, Any]) -> Answer:
    """camelCase preToolUse: Copilot's own fields at the top level."""
    enc = Encoding(HOST, events, tables)
    out = enc.out
    verdict = decision.decision
    reason = decision.reason or decision.stop or "blocked by policy"
    if decision.stop is not None and verdict != "deny":
        verdict = "deny"
        enc.notes.append("copilot cannot stop on preToolUse; answered as deny")
    if verdict in ("deny", "ask"):
        out["permissionDecision"] = verdict
        out["permissionDecisionReason"] = reason
    elif decision.updated_input is not None:
        out["permissionDecision"] = "allow"
        out["modifiedArgs"] = decision.updated_input
    elif verdict == "allow" and decision.allow_rule is not None:
        out["permissionDecision"] = "allow"
        if decision.reason:
            out["permissionDecisionReason"] = decision.reason
    if decision.contexts:
        out["additionalContext"] = "\n\n".join(decision.contexts)
    if decision.messages or decision.warnings:
        enc.cannot("show a message")
    return Answer(fastjson.dumps(out) if out else "", "", 0, enc.notes)


def _top_behavior(decision: Decision, events: list[Event], tables: dict[str, Any]) -> Answer:
    """permissionRequest: ``behavior`` (+ ``message``); an ask leaves Copilot's own flow."""
    enc = Encoding(HOST, events, tables)
    verdict = decision.decision
    if decision.stop is not None and verdict != "deny":
        verdict = "deny"
    if verdict == "deny":
        enc.out["behavior"] = "deny"
        enc.out["message"] = decision.reason or decision.stop or "blocked by policy"
    elif verdict == "allow" and decision.allow_rule is not None:
        enc.out["behavior"] = "allow"
    elif verdict == "ask":
        enc.notes.append("permissionRequest: ask leaves the question to Copilot")
    if decision.contexts:
        enc.cannot("pass context to the model")
    out = enc.out
    return Answer(fastjson.dumps(out) if out else "", "", 0, enc.notes)
