"""The OpenCode and Kilo adapters: the plugin's payload in, the plugin's answer out.

The answer is always one JSON object (the plugin blocks on an empty one); ask is
ask_fallback (the plugin API cannot ask); a stop is a deny; a payload the adapter cannot
read fails closed (exit 2, which the plugin throws). hypothesis: any payload decodes or
fails closed, never answers allow by accident.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.adapters.hosts import host_tables
from hookwise.policy.pipeline import decide
from tests.policy.conftest import compile_text

TABLES = host_tables()
POLICY = compile_text(
    """\
    version: 1
    rules:
      - {id: deny-rm, match: {command: rm}, action: deny, reason: "no rm", message: "m"}
      - {id: ask-reset, match: {command: git reset}, action: ask, reason: "sure?"}
      - {id: allow-ls, match: {command: ls}, action: allow, reason: "fine"}
      - id: rewrite-echo
        match: {command: echo}
        action: rewrite
        rewrite: {replace: [{arg: command, find: marker, with: marker-modified}]}
      - {id: ctx, match: {command: make}, action: context, context: "use make -j"}
      - {id: stop-halt, match: {command: halt}, action: stop, reason: "stopping"}
      - {id: no-write, match: {tool: write, files: ["secret*"]}, action: deny, reason: "no"}
      - {id: mcp, match: {mcp: {server: docs}}, action: deny, reason: "no docs"}
      - {id: bg, match: {tool: shell, command: {program: [curl]}}, action: deny, reason: "net"}
    """
)
assert POLICY["errors"] == [], POLICY["errors"]
HOSTS = ("opencode", "kilo")


def payload(tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "hook_event_name": "tool.execute.before",
        "session_id": "ses_1",
        "tool_use_id": "call_1",
        "cwd": "/p",
        "tool_name": tool,
        "tool_input": tool_input,
    }


def hook(host: str, body: Any, settings: dict[str, Any] | None = None) -> tuple[Any, int]:
    policy = (
        POLICY if settings is None else {**POLICY, "settings": {**POLICY["settings"], **settings}}
    )
    outcome = decide(body, policy, host, {"HOME": "/h"}, now=0.0)
    out = outcome.answer
    return (json.loads(out.stdout) if out.stdout else None), out.exit_code


def specific(host: str, command: str, tool: str = "bash") -> dict[str, Any]:
    result, code = hook(host, payload(tool, {"command": command, "description": "d"}))
    assert code == 0
    assert result["hookSpecificOutput"]["hookEventName"] == "tool.execute.before"
    out: dict[str, Any] = result["hookSpecificOutput"]
    return out


@pytest.mark.parametrize("host", HOSTS)
def test_the_answers(host: str) -> None:
    assert specific(host, "rm -rf x") == {
        "hookEventName": "tool.execute.before",
        "permissionDecision": "deny",
        "permissionDecisionReason": "no rm",
    }
    asked = specific(host, "git reset --hard")
    assert asked["permissionDecision"] == "deny"
    assert asked["permissionDecisionReason"].startswith("sure?")
    assert specific(host, "ls")["permissionDecision"] == "allow"
    assert specific(host, "echo hi > marker")["updatedInput"] == {
        "command": "echo hi > marker-modified",
        "description": "d",
    }
    assert specific(host, "make") == {"hookEventName": "tool.execute.before"}  # no channel
    assert specific(host, "halt")["permissionDecision"] == "deny"
    assert specific(host, "pwd") == {"hookEventName": "tool.execute.before"}


@pytest.mark.parametrize("host", HOSTS)
def test_ask_fallback_allow_answers_nothing(host: str) -> None:
    result, _ = hook(host, payload("bash", {"command": "git reset"}), {"ask_fallback": "allow"})
    assert result == {"hookSpecificOutput": {"hookEventName": "tool.execute.before"}}


@pytest.mark.parametrize("host", HOSTS)
def test_tools_are_mapped_by_the_host_table(host: str) -> None:
    denied = specific(host, "", tool="write")  # no files: the write rule does not match
    assert "permissionDecision" not in denied
    result, _ = hook(host, payload("write", {"filePath": "secret.txt", "content": "x"}))
    assert result["hookSpecificOutput"]["permissionDecision"] == "deny"
    result, _ = hook(host, payload("mcp__docs__search", {"q": "x"}))
    assert result["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_kilo_background_process_is_a_shell() -> None:
    body = payload("background_process", {"action": "start", "command": "curl x"})
    result, _ = hook("kilo", body)
    assert result["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize(
    "body",
    [
        "not an object",
        {"hook_event_name": "tool.execute.after", "tool_name": "bash", "tool_input": {}},
        {"hook_event_name": "tool.execute.before", "tool_input": {}},
        {"hook_event_name": "tool.execute.before", "tool_name": "bash", "tool_input": "ls"},
    ],
)
def test_unreadable_payloads_fail_closed(body: Any) -> None:
    """The plugin blocks on any exit code but 0 and on an answer that is no JSON object."""
    result, code = hook("opencode", body)
    assert result is None
    assert code in (0, 2)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    host=st.sampled_from(HOSTS),
    body=st.fixed_dictionaries(
        {},
        optional={
            "hook_event_name": st.sampled_from(["tool.execute.before", "x"]) | json_values,
            "tool_name": st.sampled_from(["bash", "write", "mcp__docs__q"]) | json_values,
            "tool_input": st.fixed_dictionaries(
                {}, optional={"command": st.sampled_from(["rm x", "ls"]) | json_values}
            )
            | json_values,
            "cwd": json_values,
            "session_id": json_values,
        },
    ),
)
def test_any_payload_decodes_or_fails_closed(host: str, body: dict[str, Any]) -> None:
    result, code = hook(host, body)
    if code != 0 or result is None:  # the plugin blocks the tool on both
        assert result is None
        return
    decided = result["hookSpecificOutput"]
    assert decided["hookEventName"] == "tool.execute.before"
    command = body["tool_input"].get("command")
    if body.get("tool_name") == "bash" and isinstance(command, str) and command.startswith("rm"):
        assert decided["permissionDecision"] == "deny"
