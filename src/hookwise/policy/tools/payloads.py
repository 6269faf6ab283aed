"""Building host payloads from a few fields, for ``hookwise test`` scenarios and examples.

``build_payload("claude", "PreToolUse", tool="Bash", input={"command": "ls"})`` gives what
Claude Code would send; the same call with ``"gemini", "BeforeTool", tool="run_shell_command"``
what Gemini CLI would. Field names per host follow ``hookwise.protocol``.
"""

from __future__ import annotations

from typing import Any

from hookwise.policy.adapters import platforms

# The payload fields that carry the model's last answer, one of which a scenario's
# ``response`` fills: the first the event's table lists (Gemini CLI's AfterAgent
# ``prompt_response``), else Claude Code's.
_RESPONSE_FIELDS = ("prompt_response", "last_assistant_message")


def build_payload(
    host: str,
    event: str,
    *,
    tool: str | None = None,
    tool_input: dict[str, Any] | None = None,
    prompt: str | None = None,
    response: str | None = None,
    cwd: str = "/workspace",
    session: str = "hookwise-test",
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A payload as ``host`` sends it for ``event``."""
    if host not in platforms():
        raise ValueError(f"unknown host {host!r}; expected one of: {', '.join(platforms())}")
    from hookwise.protocol.hosts import common_input, event_names, session_only

    # each host's common fields, from its protocol table, with example values
    examples: dict[str, Any] = {
        "session_id": session,
        "sessionId": session,
        "transcript_path": "",
        "cwd": cwd,
        "hook_event_name": event,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "permission_mode": "default",
        "prompt_id": "00000000-0000-4000-8000-000000000001",
        "effort": {"level": "medium"},
        "model": "hookwise-test",
    }
    known = event in event_names(host)
    names = common_input(host, event) if known else ("session_id", "transcript_path", "cwd")
    # a field sent only when the session has it and with no example (a subagent's id) is
    # left out, as the host leaves it out of a top-level session's payload
    unset = set(session_only(host)) - set(examples)
    payload: dict[str, Any] = {name: examples.get(name, "") for name in names if name not in unset}
    if not known or "sessionId" not in payload:
        payload["hook_event_name"] = event  # (a camelCase Copilot payload names none)
    if _takes(host, event, "turn_id"):  # (Codex: what tells its payloads from Claude Code's)
        payload["turn_id"] = "turn-1"
    camel = "sessionId" in payload
    if tool is not None:
        payload["toolName" if camel else "tool_name"] = tool
        payload["toolArgs" if camel else "tool_input"] = dict(tool_input or {})
    if prompt is not None:
        payload["prompt"] = prompt
    if response is not None:
        payload[_response_field(host, event if known else event_names(host)[0])] = response
        payload.setdefault("stop_hook_active", False)
    if extra:
        payload.update(extra)
    from hookwise.policy.adapters import adapter

    shaped = getattr(adapter(host), "shaped", None)
    if shaped is not None:  # a host whose payloads are not shaped like Claude Code's
        out: dict[str, Any] = shaped(payload)
        return out
    return payload


def _response_field(host: str, event: str) -> str:
    """The field that carries the model's answer: the one ``event``'s table lists, else the
    one another event of the host lists (Gemini CLI's ``prompt_response``), else Claude
    Code's."""
    from hookwise.protocol.hosts import event_names, input_fields

    for events in ((event,), event_names(host)):
        listed = {f for e in events for f in input_fields(host, e)}
        found = next((f for f in _RESPONSE_FIELDS if f in listed), None)
        if found is not None:
            return found
    return _RESPONSE_FIELDS[-1]


def _takes(host: str, event: str, field: str) -> bool:
    """Whether ``host`` sends ``field`` with ``event``: the event's input fields say so, or
    most of the host's events carry it (Codex's ``turn_id``). Claude Code's MessageDisplay
    alone carries a ``turn_id``, which is no reason to give every Claude payload one."""
    from hookwise.protocol.hosts import host as host_info
    from hookwise.protocol.hosts import table

    if host_info(host).table_name is None:
        return False
    events = table(host).events
    if event in events and field in events[event].input_fields:
        return True
    carrying = sum(field in e.input_fields for e in events.values())
    return carrying * 2 > len(events)
