"""The payloads a framework bridge fires settings hooks with take each host's shape from its
event table (protocol/), not from a branch on its name: Gemini CLI's BeforeTool has no
tool_use_id, its AfterTool result is an object, its AfterAgent carries prompt_response."""

from __future__ import annotations

from typing import Any

import pytest

from hookwise.integrations.hooks import HookBridge, events


class _Gate:
    framework = "test-framework"
    cwd = "/nonexistent"
    session_id = "s-1"

    def __init__(self) -> None:
        self.env: dict[str, str] = {}

    def canonical_tool(self, tool: str) -> str:
        return "shell" if tool == "bash" else tool


def _bridge(host: str, fired: list[tuple[str, dict[str, Any]]]) -> HookBridge:
    bridge = HookBridge(_Gate(), host)

    def record(event: str, fields: dict[str, Any]) -> Any:
        fired.append((event, fields))
        raise _RecordedError

    bridge._fire_sync = record  # type: ignore[method-assign]
    return bridge


class _RecordedError(Exception):
    """Raised by the recorder: the test wants the fields, not a verdict."""


@pytest.mark.parametrize(
    ("host", "tool_name", "has_id", "result", "stop_fields"),
    [
        (
            "gemini",
            "run_shell_command",
            False,
            {"llmContent": "out", "returnDisplay": "out"},
            {"stop_hook_active": False, "prompt": "", "prompt_response": "done"},
        ),
        (
            "claude",
            "Bash",
            True,
            "out",
            {"stop_hook_active": False, "last_assistant_message": "done"},
        ),
        (
            "codex",
            "Bash",
            True,
            "out",
            {"stop_hook_active": False, "last_assistant_message": "done"},
        ),
    ],
)
def test_each_host_s_payload_has_its_table_s_fields(
    host: str, tool_name: str, has_id: bool, result: Any, stop_fields: dict[str, Any]
) -> None:
    fired: list[tuple[str, dict[str, Any]]] = []
    bridge = _bridge(host, fired)
    fields, _ = bridge._before_args("bash", {"command": "ls"})
    assert fields["tool_name"] == tool_name
    assert ("tool_use_id" in fields) is has_id
    if has_id:
        assert fields["tool_use_id"].startswith("hookwise-")
    assert bridge._after_args("bash", {"command": "ls"}, "out")["tool_response"] == result
    # an object result is sent as it is, whatever the host
    assert bridge._after_args("bash", {"command": "ls"}, {"a": 1})["tool_response"] == {"a": 1}
    with pytest.raises(_RecordedError):
        bridge.end("done", stop_hook_active=False)
    assert fired == [(events(host)[3], stop_fields)]
