"""The Gate against real policies, real hook scripts and the real audit log (no framework)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.integrations import Gate, Verdict
from hookwise.integrations.tools import DEFAULT_TOOL_NAMES, ToolNames
from hookwise.policy.tool_input import canonical_input
from tests.integrations.conftest import (
    ALLOWED_COMMAND,
    ASK_COMMAND,
    ASK_REASON,
    CONTEXT_COMMAND,
    CONTEXT_TEXT,
    DENIED_COMMAND,
    DENY_REASON,
    HOOK_BLOCKED_COMMAND,
    HOOK_REASON,
    POLICY,
    REWRITE_COMMAND,
    REWRITTEN_COMMAND,
    Project,
)


def gate(project: Project, **kwargs: Any) -> Gate:
    return Gate("test-framework", agent="tester", cwd=project.root, **kwargs)


# ------------------------------------------------------------------------ the policy's actions
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("bash", {"command": DENIED_COMMAND}),
        ("run_shell", {"cmd": DENIED_COMMAND}),
        ("Terminal", {"command": DENIED_COMMAND.split()}),
        ("execute-command", {"script": DENIED_COMMAND}),
        ("shell", {"line": DENIED_COMMAND}),  # the only string argument is the command
    ],
)
def test_a_denied_command_is_denied_under_every_shell_spelling(
    project: Project, tool: str, args: dict[str, Any]
) -> None:
    verdict = gate(project).before_tool(tool, args, call_id="c1")
    assert verdict == Verdict("deny", DENY_REASON, rule_id="no-recursive-delete")
    record = project.audit()[-1]
    assert record["framework"] == "test-framework"
    assert record["agent"] == "tester"
    assert record["decision"] == "deny"
    assert record["rule"] == "no-recursive-delete"
    assert record["tool"] == "shell"
    assert record["host_tool"] == tool
    assert record["command"] == DENIED_COMMAND
    assert record["call_id"] == "c1"
    assert record["source"] == "integration"


def test_allow_rewrite_ask_and_context(project: Project) -> None:
    g = gate(project)
    allowed = g.before_tool("bash", {"command": ALLOWED_COMMAND})
    assert (allowed.action, allowed.rule_id, allowed.args) == ("allow", "echo-is-fine", None)

    rewritten = g.before_tool("run_shell", {"cmd": REWRITE_COMMAND, "timeout": 5})
    assert rewritten.action == "allow"
    assert rewritten.args == {"cmd": REWRITTEN_COMMAND, "timeout": 5}  # the framework's keys
    assert rewritten.rule_id == "touch-rewrite"
    as_list = g.before_tool("bash", {"command": REWRITE_COMMAND.split()})
    assert as_list.args == {"command": REWRITTEN_COMMAND.split()}

    asked = g.before_tool("bash", {"command": ASK_COMMAND})
    assert (asked.action, asked.reason, asked.rule_id) == (
        "ask",
        ASK_REASON,
        "uname-needs-approval",
    )

    context = g.before_tool("bash", {"command": CONTEXT_COMMAND})
    assert (context.action, context.context) == ("allow", CONTEXT_TEXT)

    records = project.audit()
    assert [r["decision"] for r in records] == ["allow", "allow", "allow", "ask", "none"]
    assert records[1]["updated_input"] == {"cmd": REWRITTEN_COMMAND, "timeout": 5}


def test_a_rewrite_cannot_produce_a_denied_command(project: Project) -> None:
    project.write_policy(
        POLICY
        + """\
  - id: sneaky
    match: {tool: shell, command: ls}
    action: rewrite
    rewrite: {set: {command: "rm -rf /"}}
"""
    )
    verdict = gate(project).before_tool("bash", {"command": "ls"})
    assert verdict.action == "deny"
    assert verdict.args is None


def test_resolve_ask_uses_the_fallback_never_a_silent_allow(project: Project) -> None:
    g = gate(project)
    asked = g.before_tool("bash", {"command": ASK_COMMAND})
    resolved = g.resolve_ask(asked, "bash", {"command": ASK_COMMAND})
    assert resolved.action == "deny"
    assert resolved.reason.startswith(ASK_REASON)
    assert "confirmation" in resolved.reason
    assert project.audit()[-1]["ask_resolved"] == "ask_fallback: deny"
    assert g.resolve_ask(Verdict("allow"), "bash", {}) == Verdict("allow")

    project.write_policy(POLICY.replace("action: ask\n", "action: ask\n    ask_fallback: allow\n"))
    assert gate(project).resolve_ask(asked, "bash", {"command": ASK_COMMAND}).action == "allow"


def test_files_and_mapped_names(project: Project) -> None:
    g = gate(project)
    for tool, args in [
        ("write_file", {"path": ".env", "content": "x"}),
        ("edit_file", {"file_path": "sub/.env", "old_string": "a", "new_string": "b"}),
        ("read", {"filename": ".env"}),
        ("save_file", {"filePath": ".env"}),
    ]:
        assert g.before_tool(tool, args).action == "deny", tool
    assert g.before_tool("write_file", {"path": "notes.txt", "content": "x"}).action == "allow"


def test_unmapped_tools_keep_their_name_and_stay_matchable(project: Project) -> None:
    project.write_policy(
        POLICY
        + """\
  - id: no-deploys
    match: {tool: deploy_service}
    action: deny
    reason: no deploys from agents
"""
    )
    g = gate(project)
    assert g.canonical_tool("deploy_service") == "deploy_service"
    assert g.before_tool("deploy_service", {"env": "prod"}).reason == "no deploys from agents"
    assert g.before_tool("other_tool", {"x": 1}).action == "allow"


@pytest.mark.parametrize(
    "tool", ["mcp__tools__run_shell", "mcp__my-server__bash", "mcp__x__Terminal"]
)
def test_an_mcp_tool_is_mapped_by_its_own_name(project: Project, tool: str) -> None:
    """SDK MCP tools (mcp__<server>__<tool>) go through the same table as any tool name."""
    g = gate(project)
    assert g.canonical_tool(tool) == "shell"
    assert g.before_tool(tool, {"command": DENIED_COMMAND}).rule_id == "no-recursive-delete"
    assert (
        gate(project, tool_names={tool: "read"}).canonical_tool(tool) == "read"
    )  # full name first


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("mcp__ops__deploy", {"command": "rm -rf /srv"}),
        ("do_stuff", {"cmd": ["rm", "-rf", "build"]}),
        ("python_exec", {"code": "import shutil; shutil.rmtree('build')"}),
        ("runner", {"Command_Line": "make clean"}),
    ],
)
def test_an_unmapped_tool_taking_a_command_is_unverifiable(
    project: Project, tool: str, args: dict[str, Any]
) -> None:
    verdict = gate(project).before_tool(tool, args)
    assert verdict.action == "ask", verdict
    assert verdict.rule_id == "hookwise:unverifiable"
    assert "not mapped" in verdict.reason
    assert project.audit()[-1]["decision"] == "ask"
    project.write_policy(POLICY.replace("rules:", "settings: {unverifiable: deny}\nrules:", 1))
    assert gate(project).before_tool(tool, args).action == "deny"
    project.write_policy(POLICY.replace("rules:", "settings: {unverifiable: allow}\nrules:", 1))
    assert gate(project).before_tool(tool, args).action == "allow"


def test_an_unmapped_tool_a_rule_names_or_without_a_command_is_not_unverifiable(
    project: Project,
) -> None:
    project.write_policy(
        POLICY
        + """\
  - id: our-runner
    match: {tool: runner}
    action: allow
"""
    )
    g = gate(project)
    assert g.before_tool("runner", {"command": "make"}).action == "allow"
    assert g.before_tool("get_weather", {"city": "Paris"}).action == "allow"
    assert g.before_tool("search_docs", {"query": "rm -rf"}).action == "allow"


def test_tool_names_override_the_defaults(project: Project) -> None:
    g = gate(project, tool_names={"do_it": "shell", "bash": "read"})
    assert g.canonical_tool("do_it") == "shell"
    assert g.before_tool("do_it", {"command": DENIED_COMMAND}).action == "deny"
    assert g.canonical_tool("bash") == "read"
    with pytest.raises(ValueError, match="tool_names"):
        ToolNames({"x": ""})


def test_a_shell_tool_whose_command_is_not_found_fails_closed(project: Project) -> None:
    verdict = gate(project).before_tool("bash", {"a": DENIED_COMMAND, "b": "x"})
    assert verdict.action == "deny"
    assert "cannot find the command" in verdict.reason
    assert project.audit()[-1]["decision"] == "deny"


# ------------------------------------------------------------------------ trust and failures
def test_an_untrusted_project_policy_only_tightens(project: Project) -> None:
    project.write_policy(POLICY + "# not trusted yet\n", trust=False)
    g = gate(project)
    assert g.before_tool("bash", {"command": DENIED_COMMAND}).action == "deny"
    rewritten = g.before_tool("bash", {"command": REWRITE_COMMAND})
    assert rewritten.args is None  # the rewrite (and the allows) wait for trust
    assert g.before_tool("bash", {"command": ALLOWED_COMMAND}).rule_id == ""
    assert project.audit()[-1]["untrusted"]


def test_a_broken_policy_denies_tool_calls_and_lets_prompts_through(project: Project) -> None:
    project.policy.write_text("version: 1\nrules:\n  - id: x\n    actoin: deny\n", "utf-8")
    g = gate(project)
    verdict = g.before_tool("bash", {"command": ALLOWED_COMMAND})
    assert verdict.action == "deny"
    assert "policy.yaml" in verdict.reason
    assert "fails closed" in verdict.reason
    prompt = g.prompt("hello")
    assert prompt.action == "allow"
    assert "policy not applied" in prompt.message
    assert project.audit()[-2]["error"]


def test_on_error_allow_is_honoured(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    project.policy.write_text("version: 1\nrules: [", "utf-8")
    monkeypatch.setenv("HOOKWISE_ON_ERROR", "allow")
    assert gate(project).before_tool("bash", {"command": DENIED_COMMAND}).action == "allow"


def test_the_policy_is_reloaded_when_it_changes(project: Project) -> None:
    g = gate(project)
    assert g.before_tool("bash", {"command": "ls"}).action == "allow"
    project.write_policy(POLICY.replace("command: rm -r}", "command: ls}"))
    assert g.before_tool("bash", {"command": "ls"}).action == "deny"


def test_an_explicit_policy_file(project: Project, tmp_path: Path) -> None:
    other = tmp_path / "other.yaml"
    other.write_text(
        "version: 1\nrules:\n  - id: no-ls\n    match: {tool: shell, command: ls}\n"
        "    action: deny\n    reason: no ls\n",
        "utf-8",
    )
    g = gate(project, policy=other)
    assert g.before_tool("bash", {"command": "ls"}).reason == "no ls"
    missing = gate(project, policy=tmp_path / "missing.yaml")
    assert missing.before_tool("bash", {"command": "ls"}).action == "deny"


def test_the_agent_cannot_edit_its_own_guardrails(project: Project) -> None:
    g = gate(project)
    for tool, args in [
        ("write_file", {"path": ".hookwise/policy.yaml", "content": "version: 1\nrules: []\n"}),
        ("bash", {"command": "rm .hookwise/policy.yaml"}),
        ("bash", {"command": "echo x > .hookwise/policy.yaml"}),
    ]:
        assert g.before_tool(tool, args).action == "deny", args


# ------------------------------------------------------------------------ prompts, ends, after
def test_prompt_end_and_after_tool(project: Project) -> None:
    project.write_policy(
        POLICY
        + """\
  - id: no-secrets-in-prompts
    match: {prompt: {contains: [password]}}
    action: deny
    reason: keep passwords out of prompts
  - id: tests-first
    match: {response: {contains: [done]}}
    action: retry
    reason: run the tests before you finish
    max_retries: 1
  - id: hide-keys
    events: [tool.after]
    when: 'payload.tool_response contains "SECRET-KEY"'
    action: deny
    reason: the output held a key; it was withheld
"""
    )
    g = gate(project)
    assert g.prompt("my password is x").reason == "keep passwords out of prompts"
    assert g.prompt("hello").action == "allow"
    first = g.end("I am done")
    assert (first.action, first.reason) == ("deny", "run the tests before you finish")
    assert g.end("I am done").action == "allow"  # the retry budget is spent
    assert g.after_tool("bash", {"command": "cat k"}, "SECRET-KEY=1").action == "deny"
    assert g.after_tool("bash", {"command": "cat k"}, {"out": "fine"}).action == "allow"
    events = [r["event"] for r in project.audit()]
    assert events == ["prompt", "prompt", "agent.stop", "agent.stop", "tool.after", "tool.after"]


def test_abefore_tool(project: Project) -> None:
    g = gate(project)
    verdict = asyncio.run(g.abefore_tool("bash", {"command": DENIED_COMMAND}))
    assert verdict.action == "deny"


# ------------------------------------------------------------------------ existing hooks
def test_hooks_from_claude_blocks_like_claude_code(project: Project) -> None:
    g = gate(project, hooks_from="claude")
    blocked = g.before_tool("run_shell", {"cmd": HOOK_BLOCKED_COMMAND})
    assert blocked.action == "deny"
    assert HOOK_REASON in blocked.reason
    assert blocked.rule_id == "hooks:claude"
    call = project.hook_calls()[-1]
    assert call["hook_event_name"] == "PreToolUse"
    assert call["tool_name"] == "Bash"
    assert call["tool_input"]["command"] == HOOK_BLOCKED_COMMAND
    record = project.audit()[-1]
    assert record["decision"] == "deny"
    assert record["policy_decision"] == "allow"
    assert record["hooks"]["action"] == "deny"

    assert g.before_tool("bash", {"command": ALLOWED_COMMAND}).action == "allow"
    # the policy decides first: a denied command never reaches the hook
    calls = len(project.hook_calls())
    assert g.before_tool("bash", {"command": DENIED_COMMAND}).reason == DENY_REASON
    assert len(project.hook_calls()) == calls
    # the hook matches Bash only: a write tool is not its business
    assert g.before_tool("write_file", {"path": "a.txt", "content": "x"}).action == "allow"
    assert len(project.hook_calls()) == calls


def test_hooks_from_claude_async(project: Project) -> None:
    g = gate(project, hooks_from="claude")
    verdict = asyncio.run(g.abefore_tool("bash", {"command": HOOK_BLOCKED_COMMAND}))
    assert verdict.action == "deny"
    assert HOOK_REASON in verdict.reason


def test_hooks_of_an_untrusted_workspace_do_not_run(project: Project) -> None:
    (project.home / ".claude.json").write_text(json.dumps({"projects": {}}), "utf-8")
    g = gate(project, hooks_from="claude")
    assert g.before_tool("bash", {"command": HOOK_BLOCKED_COMMAND}).action == "allow"
    assert project.hook_calls() == []


def test_a_hook_rewrite_is_checked_by_the_policy_again(project: Project) -> None:
    script = project.root / ".claude" / "hooks" / "rewrite.sh"
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {"command": DENIED_COMMAND},
        }
    }
    script.write_text(f"#!/bin/sh\ncat >/dev/null\necho '{json.dumps(answer)}'\n", "utf-8")
    settings = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": f"sh {script}"}]}
            ]
        }
    }
    (project.root / ".claude" / "settings.json").write_text(json.dumps(settings), "utf-8")
    verdict = gate(project, hooks_from="claude").before_tool("bash", {"command": "ls"})
    assert verdict.action == "deny"
    assert verdict.reason == DENY_REASON


def test_hooks_from_gemini(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    script = project.root / ".claude" / "hooks" / "block.sh"
    settings = {
        "hooks": {
            "BeforeTool": [
                {
                    "matcher": "run_shell_command",
                    "hooks": [{"type": "command", "command": f"sh {script}", "name": "team"}],
                }
            ]
        }
    }
    (project.root / ".gemini").mkdir()
    (project.root / ".gemini" / "settings.json").write_text(json.dumps(settings), "utf-8")
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    g = gate(project, hooks_from="gemini")
    verdict = g.before_tool("terminal", {"command": HOOK_BLOCKED_COMMAND})
    assert verdict.action == "deny"
    assert HOOK_REASON in verdict.reason
    assert project.hook_calls()[-1]["tool_name"] == "run_shell_command"


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="hooks_from"):
        Gate("x", hooks_from="cursor")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="framework"):
        Gate(" ")


# ------------------------------------------------------------------------ properties
names = st.one_of(st.sampled_from(sorted(DEFAULT_TOOL_NAMES)), st.text(max_size=20))
values: st.SearchStrategy[Any] = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=30)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tool=names, args=st.dictionaries(st.text(max_size=10), values, max_size=4))
def test_any_call_gets_a_verdict_never_an_exception(
    project: Project, tool: str, args: dict[str, Any]
) -> None:
    verdict = gate(project).before_tool(tool, args)
    assert verdict.action in ("allow", "deny", "ask")
    if verdict.args is not None:
        assert isinstance(verdict.args, dict)


@given(command=st.text(max_size=40), key=st.sampled_from(["command", "cmd", "script"]))
def test_mapped_shell_input_round_trips(command: str, key: str) -> None:
    mapped = canonical_input("shell", {key: command, "other": 1})
    assert mapped.args["command"] == command
    assert mapped.back({key: command, "other": 1}, mapped.args) == {key: command, "other": 1}


def test_no_framework_is_imported_with_the_core() -> None:
    import subprocess
    import sys

    code = (
        "import sys, hookwise.integrations.gate, hookwise.integrations.hooks\n"
        "bad = [m for m in ('claude_agent_sdk', 'agents', 'langchain', 'pydantic_ai', "
        "'google.adk', 'smolagents', 'hookwise.api', 'hookwise.cli') if m in sys.modules]\n"
        "print(bad)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    )
    assert out.stdout.strip() == "[]"


def test_hookwise_logs_filters_by_framework_and_agent(project: Project) -> None:
    from click.testing import CliRunner

    from hookwise.cli.app import cli

    Gate("fw-one", agent="alpha", cwd=project.root).before_tool("bash", {"command": DENIED_COMMAND})
    Gate("fw-one", agent="beta", cwd=project.root).before_tool("bash", {"command": ALLOWED_COMMAND})
    Gate("fw-two", agent="alpha", cwd=project.root).before_tool("bash", {"command": "ls"})
    runner = CliRunner()

    def lines(*args: str) -> list[str]:
        result = runner.invoke(cli, ["logs", "--path", str(project.audit_log), *args])
        assert result.exit_code == 0, result.output
        return [line for line in result.output.splitlines() if line.startswith("20")]

    one = lines("--framework", "fw-one")
    assert len(one) == 2
    assert " fw-one/alpha tool.before bash $ rm -rf build -> deny [no-recursive-delete]" in one[0]
    assert [line.split()[1] for line in lines("--agent", "alpha")] == [
        "fw-one/alpha",
        "fw-two/alpha",
    ]
    assert len(lines("--framework", "fw-one", "--agent", "beta")) == 1
    assert lines("--framework", "nobody") == []
    as_json = runner.invoke(
        cli, ["logs", "--path", str(project.audit_log), "--json", "--framework", "fw-two"]
    )
    assert [json.loads(x)["agent"] for x in as_json.output.splitlines() if x.startswith("{")] == [
        "alpha"
    ]


def test_the_documented_tool_mapping_is_the_table() -> None:
    """docs/integrations/README.md lists exactly the defaults of tools.py."""
    from hookwise.integrations.tools import HOOK_TOOL_NAMES

    text = (Path(__file__).resolve().parents[2] / "docs" / "integrations" / "README.md").read_text(
        "utf-8"
    )
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`") and cells[1].startswith("`"):
            rows[cells[0].strip("`")] = (
                [n.strip().strip("`") for n in cells[1].split(",")],
                cells[2:],
            )
    expected: dict[str, list[str]] = {}
    for name, tool in DEFAULT_TOOL_NAMES.items():
        expected.setdefault(tool, []).append(name)
    assert {tool: names for tool, (names, _) in rows.items()} == expected
    for tool, (_, hosts) in rows.items():
        for host, shown in zip(("claude", "gemini", "codex"), hosts, strict=True):
            assert shown == HOOK_TOOL_NAMES[host].get(tool, ""), (tool, host)
