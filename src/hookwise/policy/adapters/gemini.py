"""Gemini CLI: payload -> canonical events, decision -> the answer Gemini CLI obeys.

What Gemini reads (protocol/gemini.py and the real engine, 0.61.0):

- a decision is top-level ``decision`` (``deny`` blocks; ``ask`` makes it confirm; ``allow``
  does not bypass its own policy) with ``reason``; exit code 0 and JSON on stdout (JSON wins
  over the exit code, and with an empty stdout Gemini would parse stderr, so hookwise always
  prints a JSON object);
- BeforeTool rewrites go in ``hookSpecificOutput.tool_input``, which *replaces* the arguments,
  so the whole rewritten input is sent;
- model-facing context is ``hookSpecificOutput.additionalContext`` on AfterTool, BeforeAgent
  and SessionStart only: BeforeTool context never reaches the model (recorded as a note);
- ``continue: false`` + ``stopReason`` stops the agent; AfterAgent ``deny`` is the retry:
  the reason becomes the next prompt;
- ``ask`` in a headless run (``gemini -p``) waits for a confirmation that never comes, so
  ``settings.gemini_ask: auto`` (the default) sends it only when the session is attended
  (an interactive ``gemini`` ancestor, relay.attended) and answers with ``ask_fallback``
  otherwise; ``native`` always asks, ``fallback`` never does.
"""

from __future__ import annotations

from hookwise.policy import canonical
from hookwise.policy.adapters.base import (
    Answer,
    DecodeError,
    Encoding,
    ask_denied_reason,
    event_name,
    failed,
    make_events,
    resolve_ask,
    text_field,
    tool_of,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "gemini"

# Notification details type -> (host tool, argument key of the detail).
_PERMISSION_TOOLS = {"exec": ("run_shell_command", "command"), "edit": ("replace", "filePath")}


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    name = event_name(payload)
    spec = tables[HOST]["events"].get(name)
    if spec is None:
        known = ", ".join(tables[HOST]["events"])
        raise DecodeError(f"unknown Gemini CLI event {name!r}; expected one of: {known}")
    names = list(spec["canonical"])
    host_tool, raw_input = tool_of(payload)
    prompt = response = None
    if name == "AfterTool" and failed(payload.get("tool_response")):
        names.append(canonical.TOOL_FAILURE)
    elif name == "BeforeAgent":
        prompt = text_field(payload, "prompt")
    elif name == "AfterAgent":
        prompt = text_field(payload, "prompt")
        response = text_field(payload, "prompt_response")
    elif name == "Notification" and payload.get("notification_type") == "ToolPermission":
        names.append(canonical.PERMISSION_REQUEST)
        details = payload.get("details")
        if isinstance(details, dict):
            kind = details.get("type")
            if kind in _PERMISSION_TOOLS:
                host_tool, key = _PERMISSION_TOOLS[str(kind)]
                value = details.get(key) or details.get("fileName")
                raw_input = {key: value} if isinstance(value, str) else {}
            elif kind == "mcp":
                server, tool = details.get("serverName"), details.get("toolName")
                if isinstance(server, str) and isinstance(tool, str):
                    host_tool = f"mcp__{server}__{tool}"
    fields = (host_tool, raw_input, prompt, response)
    return make_events(
        HOST, name, names, payload, fields, env=env, now=now, tools=tables[HOST]["tools"]
    )


def asks_natively(settings: dict[str, Any], tables: dict[str, Any]) -> bool:
    """Whether an ``ask`` goes to Gemini's own prompt: never where nobody can answer it
    (``gemini -p`` would wait forever), unless the policy insists (``native``)."""
    mode = settings.get("gemini_ask", "auto")
    if mode != "auto":
        return bool(mode == "native")
    from hookwise.policy.approvals.relay import attended

    return attended(HOST, tables[HOST], {})


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    enc = Encoding(HOST, events, tables)
    name = enc.name
    can_decide = enc.spec["decision"] == "top_decision"
    out = enc.out
    verdict = decision.decision
    reason = decision.reason
    if verdict == "ask":
        if can_decide and name == "BeforeTool" and asks_natively(settings, tables):
            out["decision"] = "ask"
            out["reason"] = reason
            enc.extra_user.append(reason)
        elif resolve_ask(decision, settings) == "deny":
            verdict, reason = "deny", ask_denied_reason(decision)
            enc.notes.append(f"ask answered as deny on {name}")
        else:
            verdict = None
            enc.notes.append(f"ask answered as allow on {name}")
    if verdict == "deny":
        if can_decide:
            out["decision"] = "deny"
            out["reason"] = reason
        else:
            enc.cannot("block", reason)
    elif verdict == "allow" and decision.allow_rule is not None and can_decide:
        out["decision"] = "allow"
        if reason:
            out["reason"] = reason
    if decision.updated_input is not None and verdict != "deny":
        if "tool_input" in enc.spec["specific"]:
            enc.hso["tool_input"] = decision.updated_input
        else:
            enc.cannot("rewrite the input")
    if decision.retry is not None and "decision" not in out and can_decide and enc.stops:
        out["decision"] = "deny"
        out["reason"] = decision.retry
    return enc.finish(decision, decision.stop, always_json=True)


def answer_problem(event: str, stdout: str, stderr: str, exit_code: int | None) -> str | None:
    """Why Gemini CLI would not take this as a valid answer (doctor's self-test); None when
    it would. Its engine's own reader decides (loaded here only, never on the hook's path)."""
    from hookwise.host.interpret import interpret_engine

    seen = interpret_engine(stdout, stderr, exit_code)
    if seen.output_format == "text":
        return (
            f"plain text (exit {exit_code}), not a JSON answer: Gemini CLI reads it as "
            f"{'a denial' if exit_code not in (0, 1) else 'a message'}"
        )
    if seen.output_format is None and exit_code not in (0, None):
        return f"exit {exit_code} without an answer: Gemini CLI marks the hook failed"
    return None
