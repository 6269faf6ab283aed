"""Cursor (from its published reference, protocol/reference/cursor.py; nothing observed):
its payloads -> canonical events; a decision -> ``{"permission", "user_message",
"agent_message"}``.

- ``beforeShellExecution`` ``{command, cwd}`` is the shell tool, ``beforeReadFile``
  ``{file_path}`` a read, ``beforeMCPExecution`` ``{tool_name, tool_input}`` (a JSON string)
  an MCP call, ``preToolUse`` ``{tool_name, tool_input}`` any tool;
- deny: ``permission: deny`` with the reason as both messages; ``ask``: Cursor's own
  (reported to be a deny from 2.4.21); an allow only for an allow rule; a rewrite only on
  ``preToolUse`` (``updated_input``), a deny elsewhere; ``beforeSubmitPrompt`` blocks with
  ``continue: false``.

Cursor also runs Claude Code's settings hooks (third-party hooks), so ``hookwise install
claude`` is reached with a Cursor payload under a Claude event name: ``claude.py`` hands it
here (``from_cursor``), and the answer carries Cursor's fields and Claude Code's
``hookSpecificOutput`` together; a deny also exits 2 with the reason on stderr, which both
document as a block.
"""

from __future__ import annotations

from hookwise.policy import fastjson
from hookwise.policy.adapters.base import Answer, DecodeError, field_call, make_events

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hookwise.policy.canonical import Event
    from hookwise.policy.rules.engine import Decision

HOST = "cursor"

# Claude Code's event names as Cursor runs a Claude settings hook (protocol FROM_CLAUDE)
_FROM_CLAUDE = {
    "PreToolUse": "preToolUse",
    "PostToolUse": "postToolUse",
    "UserPromptSubmit": "beforeSubmitPrompt",
    "Stop": "stop",
    "SubagentStop": "subagentStop",
    "SessionStart": "sessionStart",
    "SessionEnd": "sessionEnd",
    "PreCompact": "preCompact",
}
_VIA_CLAUDE = "_hookwise_via_claude"


def from_cursor(payload: dict[str, Any]) -> bool:
    """Whether a payload is Cursor's (it always sends these; Claude Code never does)."""
    return "cursor_version" in payload or (
        "conversation_id" in payload and "generation_id" in payload
    )


def _tool(name: str, payload: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    if name in ("beforeShellExecution", "afterShellExecution"):
        command = payload.get("command")
        return "Shell", {"command": command} if isinstance(command, str) else {}
    if name == "beforeReadFile":
        path = payload.get("file_path")
        return "Read", {"file_path": path} if isinstance(path, str) else {}
    if name == "afterFileEdit":
        path = payload.get("file_path")
        return "Edit", {"file_path": path} if isinstance(path, str) else {}
    tool = payload.get("tool_name")
    raw = payload.get("tool_input")
    if isinstance(raw, str):  # beforeMCPExecution sends it JSON-encoded
        try:
            raw = fastjson.loads(raw)
        except ValueError:
            raw = {"input": raw}
    return (tool if isinstance(tool, str) and tool else None), raw if isinstance(raw, dict) else {}


def decode(
    payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str], now: float
) -> list[Event]:
    given = payload.get("hook_event_name")
    if not isinstance(given, str) or not given:
        raise DecodeError("a Cursor payload without hook_event_name")
    name = _FROM_CLAUDE.get(given, given)
    if name != given:
        payload[_VIA_CLAUDE] = given
    events = tables[HOST]["events"]
    spec = events.get(name)
    if spec is None:
        raise DecodeError(f"unknown Cursor event {given!r}; expected one of: {', '.join(events)}")
    session = payload.get("conversation_id")
    if isinstance(session, str):
        payload.setdefault("session_id", session)
    roots = payload.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str):
        payload.setdefault("cwd", roots[0])
    host_tool, raw = _tool(name, payload)
    args = field_call(
        tables[HOST].get("mcp_fields", {}).get(name), payload, payload, tables[HOST]["title"]
    )
    if args is not None:  # beforeMCPExecution: the tool by name, no server's name
        raw = args
    prompt = payload.get("prompt") if name == "beforeSubmitPrompt" else None
    fields = (host_tool, raw, prompt if isinstance(prompt, str) else None, None)
    return make_events(
        HOST,
        name,
        list(spec["canonical"]),
        payload,
        fields,
        env=env,
        now=now,
        tools=tables[HOST]["tools"],
        table=tables[HOST],
    )


def encode(
    decision: Decision, events: list[Event], tables: dict[str, Any], settings: dict[str, Any]
) -> Answer:
    name = events[0].host_event
    spec = tables[HOST]["events"][name]
    notes: list[str] = []
    out: dict[str, Any] = {}
    verdict = decision.decision
    reason = decision.reason or decision.stop or "blocked by policy"
    if decision.stop is not None and verdict != "deny":
        verdict = "deny"
    if decision.updated_input is not None and verdict != "deny":
        if "updated_input" in spec["specific"]:
            out["permission"] = "allow"
            out["updated_input"] = decision.updated_input
        else:
            verdict = "deny"
            reason = (
                f"hookwise: Cursor cannot rewrite the input on {name}, and the policy allows "
                f"this call only rewritten ({decision.reason or 'rewrite rule'})"
            )
            notes.append(f"cursor cannot rewrite on {name}; answered as deny")
    if spec["decision"] != "cursor":
        if verdict == "deny":
            notes.append(f"cursor cannot block on {name}; recorded only")
        return Answer("", "", 0, notes)
    if name == "beforeSubmitPrompt":
        if verdict == "deny":
            out = {"continue": False, "user_message": reason}
    elif verdict in ("deny", "ask"):
        out = {"permission": verdict}
        if "user_message" in spec["specific"]:
            out["user_message"] = reason
            out["agent_message"] = reason
    elif verdict == "allow" and decision.allow_rule is not None and not out:
        out = {"permission": "allow"}
    if decision.contexts:
        notes.append(f"cursor cannot pass context to the model on {name}")
    via_claude = events[0].payload.get(_VIA_CLAUDE)
    if isinstance(via_claude, str):
        return _both(out, via_claude, verdict, reason, decision, notes)
    return Answer(fastjson.dumps(out) if out else "", "", 0, notes)


def _both(  # noqa: PLR0917 - the parts of one answer
    out: dict[str, Any],
    event: str,
    verdict: str | None,
    reason: str,
    decision: Decision,
    notes: list[str],
) -> Answer:
    """A Claude settings hook run by Cursor: Cursor's fields and Claude Code's together."""
    notes.append("a Cursor payload on a Claude Code hook: answered in both forms")
    if event == "PreToolUse":
        specific: dict[str, Any] = {"hookEventName": event}
        if verdict in ("deny", "ask") or "permission" in out:
            specific["permissionDecision"] = out.get("permission", verdict)
            specific["permissionDecisionReason"] = reason
        if "updated_input" in out:
            specific["updatedInput"] = decision.updated_input
        if len(specific) > 1:
            out["hookSpecificOutput"] = specific
    elif verdict == "deny":
        out["decision"] = "block"
        out["reason"] = reason
    if verdict == "deny":
        return Answer(fastjson.dumps(out), reason + "\n", 2, notes)
    return Answer(fastjson.dumps(out) if out else "", "", 0, notes)


def answer_problem(event: str, stdout: str, stderr: str, exit_code: int | None) -> str | None:
    """Why Cursor would not read this answer (a JSON object on stdout, or exit 2)."""
    if exit_code not in (0, 2):
        return f"exit {exit_code}: a failed hook (blocks only with failClosed)"
    text = stdout.strip()
    if not text:
        return None
    try:
        value = fastjson.loads(text)
    except ValueError:
        return "not a JSON object on stdout: Cursor ignores it"
    return None if isinstance(value, dict) else "not a JSON object on stdout: Cursor ignores it"
