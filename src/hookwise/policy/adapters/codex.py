"""Codex: payload -> canonical events, decision -> the answer Codex obeys.

Codex fails open on anything it does not support (protocol/codex.py; observed with 0.169.0):
an unknown key, ``ask``, a bare ``allow``, ``continue: false`` on PreToolUse, ``updatedInput``
without ``allow``... makes it ignore the whole answer and run the tool. So this adapter
sends only the keys each event's schema has:

- PreToolUse: ``hookSpecificOutput`` {``hookEventName``, ``permissionDecision: "deny"``,
  ``permissionDecisionReason``}; a rewrite is ``allow`` + ``updatedInput`` (with a string
  ``command``); ``ask`` becomes ``ask_fallback`` (default deny, with the reason); an
  explicit ``allow`` has no form Codex accepts, so nothing is sent (Codex's own approval
  applies); a stop becomes a deny;
- PermissionRequest: ``hookSpecificOutput.decision.behavior`` allow / deny (+ ``message``);
- UserPromptSubmit, PostToolUse, Stop, SubagentStop: top-level ``decision: "block"`` +
  ``reason`` (on Stop: the retry); ``continue: false`` stops where Codex honours it;
- Stop answers must be JSON, so an empty answer is ``{}`` there.
"""

from __future__ import annotations

from hookwise.policy.adapters.base import (
    Answer,
    Encoding,
    ask_denied_reason,
    decode_dialect,
    resolve_ask,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "codex"
_COMMAND_TOOLS = ("Bash", "apply_patch")


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    return decode_dialect(HOST, payload, tables, env, now)


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    enc = Encoding(HOST, events, tables)
    pattern = enc.spec["decision"]
    hso = enc.hso
    verdict = decision.decision
    reason = decision.reason or "blocked by policy"
    stop = decision.stop
    if verdict == "ask" and pattern != "permission_request":
        if resolve_ask(decision, settings) == "deny":
            verdict, reason = "deny", ask_denied_reason(decision)
            enc.notes.append("codex cannot ask; answered as deny")
        else:
            verdict = None
            enc.notes.append("codex cannot ask; answered as allow (Codex's own approval applies)")
    if pattern == "permission":
        if stop is not None and verdict != "deny":
            verdict, reason = "deny", stop
            enc.notes.append("codex cannot stop on PreToolUse; answered as deny")
            stop = None
        if verdict == "deny":
            hso["permissionDecision"] = "deny"
            hso["permissionDecisionReason"] = reason
        elif decision.updated_input is not None:
            command = decision.updated_input.get("command")
            if events[0].host_tool in _COMMAND_TOOLS and not isinstance(command, str):
                hso["permissionDecision"] = "deny"
                hso["permissionDecisionReason"] = (
                    "hookwise: the rewritten input has no string 'command', which Codex needs"
                )
                enc.notes.append("rewrite not expressible on codex; denied")
            else:
                hso["permissionDecision"] = "allow"
                hso["updatedInput"] = decision.updated_input
        elif verdict == "allow":
            enc.notes.append("codex has no explicit allow; its own approval applies")
    enc.decide_requests_and_blocks(decision, verdict, reason, rewrite_requests=False)
    return enc.finish(decision, stop, always_json=enc.spec["json_required"])
