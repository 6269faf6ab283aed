"""The Copilot CLI and Qwen Code adapters on the payloads those CLIs sent (recorded offline
with @github/copilot 1.0.102 and @qwen-code/qwen-code 0.24.4 through ../shared/e2e's
run_copilot.sh / run_qwen.sh on 2026-11-27; paths shortened), answered in the form each
was seen to obey."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.adapters import DecodeError, adapter, detect_platform
from hookwise.policy.adapters.copilot import camel_event
from hookwise.policy.adapters.hosts import host_tables
from hookwise.policy.rules.engine import Decision

TABLES = host_tables()
CMD = "echo hi > /run/marker"
COPILOT_PASCAL = {
    "hook_event_name": "PreToolUse",
    "session_id": "b19d2733-904d-4e8f-b719-de2e959242c2",
    "timestamp": "2026-11-27T17:00:17.936Z",
    "cwd": "/run/proj",
    "tool_name": "Bash",
    "tool_input": {"command": CMD, "description": "write marker"},
}
COPILOT_CAMEL = {
    "sessionId": "cba0c99d-6987-4e82-b327-080984d3d2b0",
    "timestamp": 1795798864171,
    "cwd": "/run/proj",
    "toolName": "bash",
    "toolArgs": {"command": CMD, "description": "write marker"},
}
COPILOT_PERMISSION = {
    "hookName": "permissionRequest",
    "sessionId": "84b0de52-218b-4b55-8658-1e4870de2644",
    "timestamp": 1795798873472,
    "cwd": "/run/proj",
    "toolName": "bash",
    "toolInput": {"command": CMD},
    "permissionSuggestions": [],
}
QWEN = {
    "session_id": "s",
    "transcript_path": "/run/home/.qwen/t.jsonl",
    "cwd": "/run/proj",
    "hook_event_name": "PreToolUse",
    "timestamp": "2026-11-27T17:10:00.000Z",
    "permission_mode": "yolo",
    "prompt_id": "p",
    "tool_name": "run_shell_command",
    "tool_input": {"command": CMD, "description": "d", "is_background": False},
    "tool_use_id": "u",
    "tool_call_id": "u",
}
COPILOT_ENV = {"COPILOT_CLI": "1", "CLAUDE_PROJECT_DIR": "/run/proj"}
QWEN_ENV = {"QWEN_CODE_SESSION_ID": "s", "GEMINI_PROJECT_DIR": "/run/proj"}


def _answer(host: str, payload: dict[str, Any], decision: Decision) -> tuple[Any, int]:
    module = adapter(host)
    events = module.decode(dict(payload), TABLES, {}, 0.0)
    answer = module.encode(decision, events, TABLES, {})
    return (json.loads(answer.stdout) if answer.stdout else None), answer.exit_code


def _decision(verdict: str | None, **extra: Any) -> Decision:
    decision = Decision()
    decision.decision = verdict
    decision.reason = "POLICY: no"
    for key, value in extra.items():
        setattr(decision, key, value)
    return decision


@pytest.mark.parametrize(
    ("payload", "env", "host"),
    [
        (COPILOT_PASCAL, COPILOT_ENV, "copilot"),
        (COPILOT_CAMEL, COPILOT_ENV, "copilot"),
        (COPILOT_PERMISSION, {}, "copilot"),
        (QWEN, QWEN_ENV, "qwen"),
        (dict(QWEN, hook_event_name="SessionStart"), {}, "qwen"),  # timestamp: not Gemini
    ],
)
def test_the_host_is_detected_from_what_it_sent(
    payload: dict[str, Any], env: dict[str, str], host: str
) -> None:
    assert detect_platform(payload, TABLES, env) == host


def test_both_copilot_dialects_decode_to_the_shell_tool() -> None:
    for payload in (COPILOT_PASCAL, COPILOT_CAMEL):
        (event,) = adapter("copilot").decode(dict(payload), TABLES, {}, 0.0)
        assert (event.name, event.tool, event.command) == ("tool.before", "shell", CMD)
    (event,) = adapter("qwen").decode(dict(QWEN), TABLES, {}, 0.0)
    assert (event.tool, event.command) == ("shell", CMD)


def test_copilot_pascal_answers_in_claude_form_that_copilot_obeys() -> None:
    out, code = _answer("copilot", COPILOT_PASCAL, _decision("deny"))
    assert code == 0
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert out["hookSpecificOutput"]["permissionDecisionReason"] == "POLICY: no"
    out, _ = _answer("copilot", COPILOT_PASCAL, _decision("ask"))
    assert out["hookSpecificOutput"]["permissionDecision"] == "ask"
    out, _ = _answer("copilot", COPILOT_PASCAL, _decision(None, contexts=["CTX"]))
    assert out["hookSpecificOutput"]["additionalContext"] == "CTX"
    out, _ = _answer("copilot", COPILOT_PASCAL, _decision("allow", updated_input={"command": "x"}))
    assert out["hookSpecificOutput"]["updatedInput"] == {"command": "x"}


def test_copilot_camel_answers_at_the_top_level() -> None:
    out, _ = _answer("copilot", COPILOT_CAMEL, _decision("deny"))
    assert out == {"permissionDecision": "deny", "permissionDecisionReason": "POLICY: no"}
    out, _ = _answer("copilot", COPILOT_CAMEL, _decision(None, updated_input={"command": "x"}))
    assert out == {"permissionDecision": "allow", "modifiedArgs": {"command": "x"}}
    out, _ = _answer("copilot", COPILOT_PERMISSION, _decision("deny"))
    assert out == {"behavior": "deny", "message": "POLICY: no"}
    # no rule allowed it: no answer, so Copilot's own permission applies
    assert _answer("copilot", COPILOT_CAMEL, _decision("allow")) == (None, 0)


def test_qwen_cannot_rewrite_so_a_rewrite_is_a_deny_and_context_is_not_sent() -> None:
    out, code = _answer("qwen", QWEN, _decision("allow", updated_input={"command": "x"}))
    assert code == 0
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "cannot rewrite" in out["hookSpecificOutput"]["permissionDecisionReason"]
    out, _ = _answer("qwen", QWEN, _decision(None, contexts=["CTX"]))
    assert out is None or "additionalContext" not in json.dumps(out)


@given(st.dictionaries(st.sampled_from(["toolArgs", "toolResult", "prompt", "x", "y"]), st.none()))
def test_a_camel_payload_is_placed_by_its_fields_or_refused(payload: dict[str, Any]) -> None:
    try:
        event = camel_event(payload)
    except DecodeError as exc:
        assert "hookName" in str(exc)
        assert not {"toolArgs", "toolResult", "prompt"} & set(payload)
        return
    assert event in TABLES["copilot"]["events"]
    if "toolResult" in payload:
        assert event == "postToolUse"
