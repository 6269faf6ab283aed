"""The Claude Agent SDK bridge with real runs: the SDK drives the pinned Claude Code CLI
(tests/e2e, ``make e2e-install``) against the fake model on 127.0.0.1.

Each run is one CLI session whose model plays a script of Bash calls; what ran is read on
disk (the project's files), what the model saw in its requests, what hookwise decided in
the audit log.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel, Script, call
from tests.integrations.conftest import (
    ALLOWED_COMMAND,
    ALLOWED_OUTPUT,
    ASK_COMMAND,
    ASK_REASON,
    CONTEXT_COMMAND,
    CONTEXT_TEXT,
    DENIED_COMMAND,
    DENY_REASON,
    HOOK_BLOCKED_COMMAND,
    HOOK_REASON,
    REWRITE_COMMAND,
    Project,
)

sdk = pytest.importorskip("claude_agent_sdk")

from hookwise.integrations.claude_agent_sdk import (  # noqa: E402
    FRAMEWORK,
    ClaudeAgentGuard,
    guarded_options,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "integrations" / "claude_agent_sdk_agent.py"
FINAL = "SDK-RUN-FINAL"

pytestmark = pytest.mark.e2e


def claude_cli() -> str:
    missing = clis.node_missing()
    if missing:
        pytest.skip(missing)
    problem = clis.install_problem("claude")
    assert problem is None, problem
    return str(clis.binary("claude"))


def cli_env() -> dict[str, str]:
    """What Claude Code needs offline (tests/e2e/clis.py), on top of model_env."""
    return {
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "CLAUDE_CODE_MAX_RETRIES": "1",
        "TERM": "dumb",
    }


def bash(command: str) -> Any:
    return call("Bash", command=command, description="scripted")


def run_agent(options: Any, prompt: str = "do the work") -> list[Any]:
    async def go() -> list[Any]:
        messages: list[Any] = []
        async with sdk.ClaudeSDKClient(options=options) as client:
            await client.query(prompt)
            async for message in client.receive_response():
                messages.append(message)
        return messages

    return asyncio.run(asyncio.wait_for(go(), 120))


def result_of(messages: list[Any]) -> Any:
    results = [m for m in messages if isinstance(m, sdk.ResultMessage)]
    assert results, messages
    return results[-1]


def test_policy_and_approver_in_a_real_run(
    project: Project, fake_model: FakeModel, model_env: dict[str, str]
) -> None:
    (project.root / "build").mkdir()
    (project.root / "build" / "keep.txt").write_text("x", "utf-8")
    fake_model.script = Script(
        [
            bash(DENIED_COMMAND),
            bash(ALLOWED_COMMAND),
            bash(REWRITE_COMMAND),
            bash(ASK_COMMAND),
            bash(CONTEXT_COMMAND),
        ],
        final=FINAL,
    )
    approvals: list[tuple[str, dict[str, Any], str | None]] = []

    async def approver(tool: str, args: dict[str, Any], context: Any) -> Any:
        approvals.append((tool, args, context.decision_reason))
        return sdk.PermissionResultAllow()

    guard = ClaudeAgentGuard(agent="sdk-test", cwd=project.root, can_use_tool=approver)
    options = guard.options(sdk.ClaudeAgentOptions(cli_path=claude_cli(), env=cli_env()))
    messages = run_agent(options)
    assert result_of(messages).is_error is False

    # deny: rm never ran, the model got the rule's reason as the tool result
    assert (project.root / "build" / "keep.txt").exists()
    results = fake_model.tool_results()
    assert len(results) == 5, results
    assert DENY_REASON in results[0]
    # allow: the command ran
    assert ALLOWED_OUTPUT in results[1]
    # rewrite: the rewritten command ran, not the original
    assert (project.root / "marker-rewritten").exists()
    assert not (project.root / "marker-original").exists()
    # ask: through can_use_tool to the application's approver, with the rule's reason
    assert approvals == [("Bash", {"command": ASK_COMMAND, "description": "scripted"}, ASK_REASON)]
    assert results[3].strip() == os.uname().sysname
    # context: reached the model
    assert any(CONTEXT_TEXT in str(body) for body in fake_model.model_requests())

    records = [r for r in project.audit() if r.get("framework") == FRAMEWORK]
    before = [r for r in records if r["event"] == "PreToolUse"]
    assert [r["decision"] for r in before] == ["deny", "allow", "allow", "ask", "none"]
    assert {r["host"] for r in records} == {"claude"}
    assert {r["agent"] for r in records} == {"sdk-test"}
    approved = [r for r in records if r.get("ask_resolved")]
    assert [(r["decision"], r["ask_resolved"]) for r in approved] == [("allow", "can_use_tool")]
    assert any(r["event"] == "Stop" for r in records)


def test_without_an_approver_ask_falls_back_and_existing_claude_hooks_block(
    project: Project, fake_model: FakeModel, model_env: dict[str, str]
) -> None:
    fake_model.script = Script([bash(ASK_COMMAND), bash(HOOK_BLOCKED_COMMAND)], final=FINAL)
    isolated = sdk.ClaudeAgentOptions(
        cli_path=claude_cli(), env=cli_env(), cwd=str(project.root), setting_sources=[]
    )
    options = guarded_options(isolated, agent="sdk-hooks", hooks_from="claude")
    assert options.can_use_tool is None
    result_of(run_agent(options))
    results = fake_model.tool_results()
    assert len(results) == 2, results
    assert ASK_REASON in results[0]
    assert "confirmation" in results[0]
    # the team's Claude Code hook (exit 2 + stderr) blocked the call, as in Claude Code
    assert HOOK_REASON in results[1]
    calls = project.hook_calls()
    # through hookwise (the CLI loads no settings here), once per call
    assert [c["tool_input"]["command"] for c in calls] == [ASK_COMMAND, HOOK_BLOCKED_COMMAND]
    decisions = [
        (r["event"], r["decision"], r.get("hooks", {}).get("action"))
        for r in project.audit()
        if r["event"] in ("PreToolUse", "PermissionRequest")
    ]
    assert decisions == [
        ("PreToolUse", "ask", "allow"),
        ("PermissionRequest", "deny", None),
        ("PreToolUse", "deny", "deny"),
    ]


def test_sdk_mcp_tools_are_mapped_by_their_own_name_and_unmapped_commands_are_unverifiable(
    project: Project, fake_model: FakeModel, model_env: dict[str, str]
) -> None:
    """Custom tools of the SDK are SDK MCP tools (mcp__<server>__<tool>): run_shell is the
    shell tool for the rules, and an unmapped tool taking a command is not let through."""
    ran: list[tuple[str, str]] = []

    @sdk.tool("run_shell", "Run a shell command", {"command": str})
    async def run_shell(args: dict[str, Any]) -> dict[str, Any]:
        ran.append(("run_shell", args["command"]))
        return {"content": [{"type": "text", "text": f"ran {args['command']}"}]}

    @sdk.tool("deploy", "Deploy with a command", {"command": str})
    async def deploy(args: dict[str, Any]) -> dict[str, Any]:
        ran.append(("deploy", args["command"]))
        return {"content": [{"type": "text", "text": "deployed"}]}

    server = sdk.create_sdk_mcp_server("tools", tools=[run_shell, deploy])
    fake_model.script = Script(
        [
            call("mcp__tools__run_shell", command=DENIED_COMMAND),
            call("mcp__tools__run_shell", command=ALLOWED_COMMAND),
            call("mcp__tools__deploy", command="echo shipped"),
        ],
        final=FINAL,
    )
    options = guarded_options(
        sdk.ClaudeAgentOptions(
            cli_path=claude_cli(), env=cli_env(), cwd=str(project.root), setting_sources=[],
            mcp_servers={"tools": server},
        ),
        agent="sdk-mcp",
    )  # fmt: skip
    result_of(run_agent(options))
    results = fake_model.tool_results()
    assert len(results) == 3, results
    assert DENY_REASON in results[0]  # the shell rule saw it: the tool never ran
    assert ran == [("run_shell", ALLOWED_COMMAND)]  # the allowed call ran, deploy did not
    assert "not mapped" in results[2]
    before = [
        (r["host_tool"], r["tool"], r["decision"], r.get("rule"))
        for r in project.audit()
        if r["event"] == "PreToolUse"
    ]
    assert before == [
        ("mcp__tools__run_shell", "shell", "deny", "no-recursive-delete"),
        ("mcp__tools__run_shell", "shell", "allow", None),  # (an allow names no rule)
        ("mcp__tools__deploy", "mcp__tools__deploy", "ask", "hookwise:unverifiable"),
    ]


def test_the_cli_runs_the_project_hooks_when_it_loads_the_project_settings(
    project: Project,
) -> None:
    guard = ClaudeAgentGuard(cwd=project.root, hooks_from="claude")
    guard.options(sdk.ClaudeAgentOptions())  # setting_sources unset: the CLI loads them
    assert (guard.gate.hooks_from, guard.cli_runs_hooks) == (None, True)
    isolated = ClaudeAgentGuard(cwd=project.root, hooks_from="claude")
    isolated.options(sdk.ClaudeAgentOptions(setting_sources=["user"]))
    assert (isolated.gate.hooks_from, isolated.cli_runs_hooks) == ("claude", False)


def test_the_example_runs(
    project: Project, fake_model: FakeModel, model_env: dict[str, str]
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([bash(DENIED_COMMAND), bash(ASK_COMMAND)], final=FINAL)
    env = {**os.environ, **cli_env(), "CLAUDE_CLI_PATH": claude_cli(), "APPROVE": "no"}
    env["PYTHONPATH"] = str(ROOT / "src")
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "clean up the build directory"],
        cwd=project.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"claude: {FINAL}" in done.stdout
    assert "approval needed for Bash" in done.stdout
    assert "refused" in done.stdout
    assert (project.root / "build").exists()
    results = fake_model.tool_results()
    assert DENY_REASON in results[0]
    assert "the user refused this call" in results[1]
    agents = {r.get("agent") for r in project.audit() if r.get("framework") == FRAMEWORK}
    assert agents == {"repo-helper"}
