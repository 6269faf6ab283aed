"""Building host payloads from a few fields, for ``hookwise test`` scenarios and examples.

``build_payload("claude", "PreToolUse", tool="Bash", input={"command": "ls"})`` gives what
Claude Code would send; the same call with ``"gemini", "BeforeTool", tool="run_shell_command"``
what Gemini CLI would. Field names per host follow ``hookwise.protocol``.
"""

from __future__ import annotations

from typing import Any

from hookwise.policy.adapters import platforms

# The payload field a scenario's ``prompt`` / ``response`` fills, per host and event.
_RESPONSE_FIELD = {"gemini": "prompt_response", "claude": "last_assistant_message"}


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
    payload: dict[str, Any] = {
        "session_id": session,
        "transcript_path": "",
        "cwd": cwd,
        "hook_event_name": event,
    }
    if host == "gemini":
        payload["timestamp"] = "2026-01-01T00:00:00.000Z"
    elif host == "claude":
        payload["permission_mode"] = "default"
    else:
        payload["model"] = "hookwise-test"
        payload["turn_id"] = "turn-1"
    if tool is not None:
        payload["tool_name"] = tool
        payload["tool_input"] = dict(tool_input or {})
    if prompt is not None:
        payload["prompt"] = prompt
    if response is not None:
        payload[_RESPONSE_FIELD.get(host, "last_assistant_message")] = response
        payload.setdefault("stop_hook_active", False)
    if extra:
        payload.update(extra)
    return payload
