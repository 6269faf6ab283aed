"""Host tools that do what a canonical tool does must be decided as that tool (red team
s25): Claude Code 2.1.330's ``Monitor`` runs a shell script (F1) and Qwen Code's
``monitor`` a background command (F1b); ``Workflow`` starts subagents (F11);
``ReadMcpResourceTool`` reads an MCP server's resources (F10), which ``mcp:`` rules about
that server cover, as the MCP proxy decides ``resources/read``. Red team s26: Claude's
``PowerShell`` is a shell tool (F6), Gemini 0.61's ``invoke_agent`` starts a subagent (F9)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from tests.policy.conftest import compile_text

POLICY = """\
version: 1
rules:
  - {id: no-touch, match: {command: touch}, action: deny, reason: NO-TOUCH}
  - {id: no-subagents, match: {tool: task}, action: deny, reason: NO-TASK}
  - {id: no-fs, match: {mcp: {server: fs}}, action: deny, reason: NO-FS}
"""


@pytest.fixture(scope="module")
def policy() -> dict[str, Any]:
    compiled = compile_text(POLICY)
    assert not compiled["errors"], compiled["errors"]
    return compiled


def _decision(host: str, tool: str, tool_input: dict[str, Any], policy: dict[str, Any]) -> str:
    event = "BeforeTool" if host == "gemini" else "PreToolUse"
    payload = build_payload(host, event, tool=tool, tool_input=tool_input, cwd="/tmp")
    outcome = decide(payload, policy, host, {"HOME": "/tmp"}, now=0.0).decision
    assert outcome is not None
    return f"{outcome.decision}:{outcome.reason}"


@pytest.mark.parametrize(
    ("host", "tool", "tool_input", "expected"),
    [
        ("claude", "Monitor", {"command": "touch x; echo done", "description": "d"}, "NO-TOUCH"),
        ("qwen", "monitor", {"command": "touch x"}, "NO-TOUCH"),
        ("claude", "Workflow", {"script": "await agent('say hi')"}, "NO-TASK"),
        ("claude", "ReadMcpResourceTool", {"server": "fs", "uri": "file:///x"}, "NO-FS"),
        ("claude", "ListMcpResourcesTool", {"server": "fs"}, "NO-FS"),
        ("gemini", "list_mcp_resources", {"serverName": "fs"}, "NO-FS"),
        # red team s26 F6: Claude Code's shell tool on Windows (2.1.330)
        ("claude", "PowerShell", {"command": "touch x", "description": "d"}, "NO-TOUCH"),
        # F9: Gemini CLI 0.61's subagent tool
        ("gemini", "invoke_agent", {"agent_name": "generalist", "prompt": "p"}, "NO-TASK"),
        # Gemini 0.61.0 reads `uri` as SERVER:URI (tests/e2e/fixtures/gemini-mcp-resource.jsonl)
        ("gemini", "read_mcp_resource", {"uri": "fs:file:///secret/notes.txt"}, "NO-FS"),
        ("gemini", "read_mcp_resource", {"server": "docs", "uri": "fs:file:///x"}, "NO-FS"),
    ],
)
def test_a_host_tool_is_decided_as_what_it_does(
    host: str, tool: str, tool_input: dict[str, Any], expected: str, policy: dict[str, Any]
) -> None:
    assert _decision(host, tool, tool_input, policy) == f"deny:{expected}"


@pytest.mark.parametrize(
    ("host", "tool", "tool_input"),
    [
        ("claude", "Monitor", {"command": "tail -f log.txt"}),
        ("claude", "PowerShell", {"command": "Get-ChildItem"}),
        ("claude", "ReadMcpResourceTool", {"server": "docs", "uri": "file:///x"}),
        ("claude", "ListMcpResourcesTool", {}),
        ("gemini", "read_mcp_resource", {"uri": "docs:file:///x"}),
        ("gemini", "read_mcp_resource", {"uri": ":fs"}),  # no server: Gemini finds nothing
    ],
)
def test_what_no_rule_covers_still_passes(
    host: str, tool: str, tool_input: dict[str, Any], policy: dict[str, Any]
) -> None:
    assert _decision(host, tool, tool_input, policy).startswith("None:")


@given(st.text(max_size=8).filter(lambda s: ":" not in s and s), st.text(max_size=12))
def test_gemini_s_resource_identifier_names_the_server_before_its_first_colon(
    server: str, rest: str
) -> None:
    """``findResourceByUri``: the server is the text before the first colon, whatever else
    the call says; an identifier without one (or starting with it) names none."""
    from hookwise.policy.canonical import mcp_resource_call

    found = mcp_resource_call("read_mcp_resource", {"uri": f"{server}:{rest}", "server": "x"})
    assert found == (server, "resources/read")
    assert mcp_resource_call("read_mcp_resource", {"uri": f":{rest}"}) is None
    assert mcp_resource_call("read_mcp_resource", {"uri": server}) is None
