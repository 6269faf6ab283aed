"""Claude Code: payload -> canonical events, decision -> the answer Claude Code obeys.

What Claude Code reads (protocol/claude.py; observed with 2.1.330):

- PreToolUse decides through ``hookSpecificOutput.permissionDecision`` (deny / ask / allow)
  with ``permissionDecisionReason``, ``updatedInput`` (replaces the whole input) and
  ``additionalContext``; ``hookEventName`` must name the event or the whole object is ignored;
- an explicit ``allow`` skips Claude's permission prompt, so hookwise sends one only for an
  ``allow`` rule or a rewrite, never by default (no rule -> no answer);
- ``continue: false`` on PreToolUse lets the command run and then ends the session, so a
  stop is sent together with a deny;
- PermissionRequest decides through ``hookSpecificOutput.decision.behavior``;
- UserPromptSubmit, PostToolUse, Stop, SubagentStop and PreCompact block with top-level
  ``decision: "block"`` + ``reason`` (on Stop that sends the agent back: the retry);
- Notification, PostCompact and SessionEnd discard JSON answers;
- ConfigChange blocks as above (a debug-log line only; managed settings always apply);
  Elicitation is declined with ``hookSpecificOutput.action: "decline"``; PermissionDenied
  and StopFailure are only recorded (the audit log).
"""

from __future__ import annotations

from hookwise.policy.adapters.base import Answer, Encoding, decode_dialect

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "claude"


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    if "cursor" in tables and ("cursor_version" in payload or "generation_id" in payload):
        # Cursor runs Claude Code's settings hooks too (third-party hooks): its payload
        from hookwise.policy.adapters import cursor

        if cursor.from_cursor(payload):
            return cursor.decode(payload, tables, env, now)
    return decode_dialect(HOST, payload, tables, env, now)


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    if events[0].host == "cursor":
        from hookwise.policy.adapters import cursor

        return cursor.encode(decision, events, tables, settings)
    return encode_dialect(events[0].host, decision, events, tables)


def encode_dialect(
    host: str, decision: Decision, events: list[Event], tables: dict[str, Any]
) -> Answer:
    """Claude Code's answer form, for ``host``'s table (the hosts that copied it; a host
    that cannot rewrite turns a rewrite into a deny before this, in its own adapter)."""
    enc = Encoding(host, events, tables)
    pattern = enc.spec["decision"]
    hso = enc.hso
    verdict = decision.decision
    reason = decision.reason
    stop = decision.stop
    if not enc.spec["honoured"]:
        if verdict == "deny" or stop is not None or decision.contexts:
            enc.notes.append(f"{host} discards answers to {enc.name}; recorded only")
        return Answer("", "", 0, enc.notes)
    if pattern == "permission":
        if stop is not None and verdict != "deny":
            # continue:false alone lets the command run first
            verdict, reason = "deny", stop
        if verdict in ("deny", "ask", "allow"):
            hso["permissionDecision"] = verdict
            if reason:
                hso["permissionDecisionReason"] = reason
        if decision.updated_input is not None and verdict != "deny":
            hso["updatedInput"] = decision.updated_input
    if pattern == "elicitation":
        # a deny declines the server's request; anything else leaves the dialog to the user
        if verdict == "deny":
            hso["action"] = "decline"
        return enc.finish(decision, stop)
    enc.decide_requests_and_blocks(decision, verdict, reason, rewrite_requests=True)
    return enc.finish(decision, stop)


def answer_problem(event: str, stdout: str, stderr: str, exit_code: int | None) -> str | None:
    """Why Claude Code would not take this as a valid answer (doctor's self-test); None when
    it would. Its dialect's reader decides (loaded here only, never on the hook's path)."""
    from hookwise.host.claude_dialect import read
    from hookwise.protocol.claude import CLAUDE

    reading = read(CLAUDE.events[event], stdout, stderr, exit_code)
    if reading.kind == "error":
        return reading.problem or "a non-blocking error"
    if reading.kind == "text":
        return "plain text, not a JSON answer"
    specific = (reading.answer or {}).get("hookSpecificOutput")
    if isinstance(specific, dict) and specific.get("hookEventName") != event:
        return "hookSpecificOutput.hookEventName does not name the event: Claude ignores it"
    return None
