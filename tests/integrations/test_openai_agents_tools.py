"""The OpenAI Agents SDK bridge beyond function tools: the local ShellTool, MCP server tools,
and the tools it still refuses, with the real SDK, a real run and the fake model.

The ShellTool is a Responses API tool (the model answers with a ``shell_call`` item), so
these agents talk Responses to the fake model; the MCP server is a real one (the ``mcp``
package's ``MCPServer`` over stdio, in a subprocess) whose tools record every call.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("agents", reason='pip install "hookwise[openai-agents]"')

from agents import (
    Agent,
    ComputerTool,
    OpenAIResponsesModel,
    Runner,
    ShellCommandRequest,
    ShellTool,
    set_tracing_disabled,
)
from agents.mcp import MCPServerStdio
from openai import AsyncOpenAI

from hookwise.integrations.openai_agents import (
    UnguardedToolError,
    guard_agent,
    parse_arguments,
    shell_arguments,
)
from tests.e2e.fake_model import FakeModel, Script, call, shell_call, tool_results
from tests.integrations.conftest import (
    ALLOWED_COMMAND,
    ALLOWED_OUTPUT,
    ASK_COMMAND,
    ASK_REASON,
    DENIED_COMMAND,
    DENY_REASON,
    POLICY,
    REWRITE_COMMAND,
    REWRITTEN_COMMAND,
    Project,
)
from tests.integrations.conftest import (
    ShellTool as RecordingShell,
)

set_tracing_disabled(True)

AGENT = "shell-coder"
FRAMEWORK = "openai-agents"


def responses_model(fake: FakeModel) -> OpenAIResponsesModel:
    client = AsyncOpenAI(base_url=f"{fake.url}/v1", api_key="dummy", max_retries=0)
    return OpenAIResponsesModel("gpt-fake", openai_client=client)


def shell_agent(fake: FakeModel, shell: RecordingShell, name: str = "shell") -> Agent[Any]:
    """A real agent with the SDK's local ShellTool, its executor running real commands."""

    def executor(request: ShellCommandRequest) -> str:
        return "\n".join(shell(command) for command in request.data.action.commands)

    return Agent(
        name=AGENT,
        instructions="You are a coding agent.",
        tools=[ShellTool(executor=executor, name=name)],
        model=responses_model(fake),
    )


def responses(fake: FakeModel) -> list[dict[str, Any]]:
    return [r["body"] for r in fake.requests if r["path"].endswith("/responses")]


def last_results(fake: FakeModel) -> list[str]:
    return tool_results(responses(fake)[-1])


def tool_records(project: Project) -> list[dict[str, Any]]:
    return [r for r in project.audit() if "tool.before" in r.get("canonical", [])]


# ---------------------------------------------------------------------------- ShellTool
def test_shell_tool_denied_command_never_runs(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([shell_call(DENIED_COMMAND)])
    result = asyncio.run(
        Runner.run(guard_agent(shell_agent(fake_model, shell_tool), cwd=project.root), "clean")
    )
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()
    assert any(DENY_REASON in seen for seen in last_results(fake_model))
    assert result.final_output
    (record,) = tool_records(project)
    assert record["decision"] == "deny" and record["tool"] == "shell"
    assert record["framework"] == FRAMEWORK and record["agent"] == AGENT


def test_without_the_bridge_the_shell_tool_runs_it(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([shell_call(DENIED_COMMAND)])
    asyncio.run(Runner.run(shell_agent(fake_model, shell_tool), "clean"))
    assert shell_tool.calls == [DENIED_COMMAND]
    assert not (project.root / "build").exists()


def test_shell_tool_allowed_command_runs_and_its_output_is_decided(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    fake_model.script = Script([shell_call(ALLOWED_COMMAND)])
    asyncio.run(
        Runner.run(guard_agent(shell_agent(fake_model, shell_tool), cwd=project.root), "say hello")
    )
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert any(ALLOWED_OUTPUT in seen for seen in last_results(fake_model))
    after = [r for r in project.audit() if "tool.after" in r.get("canonical", [])]
    assert len(after) == 1 and after[0]["command"] == ALLOWED_COMMAND


def test_a_shell_tool_under_another_name_is_still_the_shell(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    """Rules say ``tool: shell``: a ShellTool the app named "runner" is decided as one."""
    (project.root / "build").mkdir()
    fake_model.script = Script([shell_call(DENIED_COMMAND)])
    agent = guard_agent(shell_agent(fake_model, shell_tool, name="runner"), cwd=project.root)
    asyncio.run(Runner.run(agent, "clean"))
    assert shell_tool.calls == []
    (record,) = tool_records(project)
    assert record["decision"] == "deny" and record["rule"] == "no-recursive-delete"


def test_one_denied_command_of_several_keeps_them_all_from_running(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([shell_call(ALLOWED_COMMAND, DENIED_COMMAND)])
    asyncio.run(
        Runner.run(guard_agent(shell_agent(fake_model, shell_tool), cwd=project.root), "clean")
    )
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()


def test_shell_tool_rewrite_changes_what_runs(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    fake_model.script = Script([shell_call(REWRITE_COMMAND)])
    asyncio.run(
        Runner.run(guard_agent(shell_agent(fake_model, shell_tool), cwd=project.root), "touch it")
    )
    assert shell_tool.calls == [REWRITTEN_COMMAND]
    assert (project.root / "marker-rewritten").exists()
    assert not (project.root / "marker-original").exists()


def test_shell_tool_ask_interrupts_then_approval_runs_it(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    fake_model.script = Script([shell_call(ASK_COMMAND)])
    agent = guard_agent(shell_agent(fake_model, shell_tool), cwd=project.root)

    async def scenario() -> None:
        result = await Runner.run(agent, "which kernel")
        assert shell_tool.calls == []
        (item,) = result.interruptions
        state = result.to_state()
        state.approve(item)
        await Runner.run(agent, state)

    asyncio.run(scenario())
    assert shell_tool.calls == [ASK_COMMAND]
    (asked,) = project.asks()
    assert asked["reason"] == ASK_REASON
    (answer,) = project.answers()
    assert answer["ask_resolved"] == "needs_approval: approved"
    assert answer["decision"] == "allow" and answer["call_id"] == asked["call_id"]


def test_shell_tool_rejection_never_runs_and_is_audited(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    fake_model.script = Script([shell_call(ASK_COMMAND)])
    agent = guard_agent(shell_agent(fake_model, shell_tool), cwd=project.root)

    async def scenario() -> None:
        result = await Runner.run(agent, "which kernel")
        state = result.to_state()
        state.reject(result.interruptions[0], rejection_message="NOT-ON-MY-MACHINE")
        await Runner.run(agent, state)

    asyncio.run(scenario())
    assert shell_tool.calls == []
    assert any("NOT-ON-MY-MACHINE" in seen for seen in last_results(fake_model))
    (answer,) = project.answers()
    assert answer["ask_resolved"] == "needs_approval: rejected"
    assert answer["decision"] == "deny" and answer["reason"] == "NOT-ON-MY-MACHINE"
    assert answer["rule"] == "uname-needs-approval" and answer["agent"] == AGENT


def test_a_policy_that_denies_by_approval_time_wins_for_the_shell_tool(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    fake_model.script = Script([shell_call(ASK_COMMAND)])
    agent = guard_agent(shell_agent(fake_model, shell_tool), cwd=project.root)

    async def scenario() -> None:
        result = await Runner.run(agent, "which kernel")
        project.write_policy(POLICY.replace("action: ask", "action: deny"))
        state = result.to_state()
        state.approve(result.interruptions[0])
        await Runner.run(agent, state)

    asyncio.run(scenario())
    assert shell_tool.calls == []
    assert any(ASK_REASON in seen for seen in last_results(fake_model))


def test_a_stop_from_the_shell_tool_ends_the_run(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    from hookwise.integrations.errors import RunStoppedError

    project.write_policy(
        POLICY + "  - id: halt\n    match: {tool: shell, command: shutdown}\n"
        "    action: stop\n    reason: STOP-NOW\n"
    )
    fake_model.script = Script([shell_call("shutdown -h now")])
    with pytest.raises(RunStoppedError, match="STOP-NOW"):
        asyncio.run(
            Runner.run(guard_agent(shell_agent(fake_model, shell_tool), cwd=project.root), "halt")
        )
    assert shell_tool.calls == []
    assert len(responses(fake_model)) == 1  # the model was not asked again


# ---------------------------------------------------------------------------- refused tools
def test_tools_that_cannot_be_gated_are_still_refused(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    hosted = ShellTool(environment={"type": "container_auto"})
    computer = ComputerTool(computer=object())  # type: ignore[arg-type]
    for tool in (hosted, computer):
        agent = Agent(name=AGENT, tools=[tool], model=responses_model(fake_model))
        with pytest.raises(UnguardedToolError, match=type(tool).__name__):
            guard_agent(agent, cwd=project.root)
        assert guard_agent(agent, cwd=project.root, strict=False).tools == [tool]


# ---------------------------------------------------------------------------- MCP servers
MCP_SERVER = """\
import sys
from pathlib import Path
from mcp.server.mcpserver import MCPServer

log = Path(sys.argv[1])
server = MCPServer("files")


@server.tool()
def delete_everything(path: str) -> str:
    \"\"\"Delete a directory tree.\"\"\"
    with log.open("a") as out:
        out.write("delete_everything " + path + "\\n")
    return "deleted " + path


@server.tool()
def list_notes(path: str) -> str:
    \"\"\"List the notes in a directory.\"\"\"
    with log.open("a") as out:
        out.write("list_notes " + path + "\\n")
    return "MCP-NOTES: a.txt b.txt"


server.run("stdio")
"""

MCP_RULES = """\
  - id: no-mcp-deletes
    match: {mcp: {server: files, tool: "delete_*"}}
    action: deny
    reason: "MCP-DENY: deleting through MCP is not allowed"
"""


def mcp_agent(fake: FakeModel, tmp_path: Path) -> tuple[Agent[Any], MCPServerStdio, Path]:
    script = tmp_path / "mcp_server.py"
    script.write_text(MCP_SERVER, encoding="utf-8")
    log = tmp_path / "mcp-calls.log"
    server = MCPServerStdio(
        name="files",
        params={"command": sys.executable, "args": [str(script), str(log)]},
        client_session_timeout_seconds=30,
    )
    agent = Agent(
        name=AGENT,
        instructions="You are a coding agent.",
        mcp_servers=[server],
        model=responses_model(fake),
    )
    return agent, server, log


def test_mcp_server_tools_are_gated(
    project: Project, fake_model: FakeModel, tmp_path: Path
) -> None:
    """A deny rule naming the MCP server and tool keeps the server's tool from running;
    another tool of the same server runs; both decisions are audited as MCP tools."""
    project.write_policy(POLICY + MCP_RULES)
    fake_model.script = Script(
        [call("delete_everything", path="/"), call("list_notes", path="docs")]
    )
    agent, server, log = mcp_agent(fake_model, tmp_path)
    guarded = guard_agent(agent, cwd=project.root)
    assert isinstance(guarded, type(agent))

    async def scenario() -> None:
        async with server:
            await Runner.run(guarded, "tidy up")

    asyncio.run(scenario())
    calls = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    assert calls == ["list_notes docs"]
    seen = [t for body in responses(fake_model) for t in tool_results(body)]
    assert any("MCP-DENY" in t for t in seen) and any("MCP-NOTES" in t for t in seen)
    records = tool_records(project)
    assert [(r["host_tool"], r["decision"]) for r in records] == [
        ("mcp__files__delete_everything", "deny"),
        ("mcp__files__list_notes", "none"),
    ]
    assert records[0]["rule"] == "no-mcp-deletes"


def test_without_the_bridge_the_mcp_tool_runs(
    project: Project, fake_model: FakeModel, tmp_path: Path
) -> None:
    fake_model.script = Script([call("delete_everything", path="/")])
    agent, server, log = mcp_agent(fake_model, tmp_path)

    async def scenario() -> None:
        async with server:
            await Runner.run(agent, "tidy up")

    asyncio.run(scenario())
    assert log.read_text(encoding="utf-8").splitlines() == ["delete_everything /"]


def test_guarding_twice_keeps_one_gate(project: Project, fake_model: FakeModel) -> None:
    """guard_agent on a guarded agent does not stack a second gate (or audit twice)."""

    def executor(request: ShellCommandRequest) -> str:
        return json.dumps(request.data.action.commands)

    agent = Agent(name=AGENT, tools=[ShellTool(executor=executor)])
    from hookwise.integrations.gate import Gate
    from hookwise.integrations.openai_agents import AgentsGuard

    guard = AgentsGuard(Gate(FRAMEWORK, agent=AGENT, cwd=project.root))
    once = guard.guard_agent(agent)
    twice = guard.guard_agent(once)
    assert twice.tools[0].executor is once.tools[0].executor  # type: ignore[union-attr]
    assert twice.hooks is once.hooks


def test_an_mcp_tool_without_its_server_fails_closed(project: Project) -> None:
    """A tool claimed to come from an MCP server but without the SDK's server binding
    cannot be matched by MCP rules: refused rather than run unguarded."""
    from agents import function_tool

    from hookwise.integrations.gate import Gate
    from hookwise.integrations.openai_agents import AgentsGuard

    @function_tool
    def delete_everything(path: str) -> str:
        """Delete a tree."""
        return path

    guard = AgentsGuard(Gate(FRAMEWORK, agent=AGENT, cwd=project.root))
    with pytest.raises(UnguardedToolError, match="MCP server"):
        guard.guard_mcp_tool(delete_everything)
    with pytest.raises(UnguardedToolError, match="only function tools"):
        guard.guard_mcp_tool(object())


# ---------------------------------------------------------------------------- properties
@given(st.lists(st.text(max_size=40), max_size=6))
def test_shell_arguments_round_trip(commands: list[str]) -> None:
    """A ShellTool call's commands always reach the Gate as one JSON object holding them
    all, one per line."""
    assert parse_arguments(shell_arguments(commands)) == {"command": "\n".join(commands)}


_ITEM_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12))
_ITEMS = st.lists(
    st.one_of(
        _ITEM_VALUES,
        st.dictionaries(st.sampled_from(["type", "call_id", "name", "arguments"]), _ITEM_VALUES),
        st.fixed_dictionaries(
            {
                "type": st.just("function_call"),
                "call_id": st.text(max_size=8),
                "name": st.sampled_from(["run_shell", "other"]),
                "arguments": st.one_of(st.text(max_size=20), st.none()),
            }
        ),
    ),
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(_ITEMS)
def test_reading_answers_from_any_model_input_never_fails(items: list[Any]) -> None:
    """The rejection check reads the model's input items (attacker-shaped JSON): any shape
    is skipped or read, never an exception, and nothing unanswered is recorded."""
    import tempfile

    from agents import RunContextWrapper

    from hookwise.integrations.gate import Gate
    from hookwise.integrations.openai_agents import AgentsGuard

    with tempfile.TemporaryDirectory() as tmp:
        guard = AgentsGuard(Gate(FRAMEWORK, agent=AGENT, cwd=tmp))
        guard._guarded.add("run_shell")
        written: list[Any] = []
        guard.gate.record_approval = lambda *a, **k: written.append(a)  # type: ignore[method-assign]
        guard.check_answers(RunContextWrapper(context=None), items)
        assert written == []


def test_a_stop_in_one_run_leaves_a_concurrent_run_of_the_same_agent_alone(
    project: Project, fake_model: FakeModel, shell_tool: RecordingShell
) -> None:
    """The stop is kept on the run's context, not on the guard: a second run of the same
    guarded agent, at the same time, goes on."""
    from agents import RunConfig

    from hookwise.integrations.errors import RunStoppedError

    project.write_policy(
        POLICY + "  - id: halt\n    match: {tool: shell, command: shutdown}\n"
        "    action: stop\n    reason: STOP-NOW\n"
    )
    fake_model.script = Script([shell_call("shutdown -h now")])
    agent = guard_agent(shell_agent(fake_model, shell_tool), cwd=project.root)
    with FakeModel(Script([shell_call(ALLOWED_COMMAND)])) as other:

        async def both() -> list[Any]:
            return await asyncio.gather(
                Runner.run(agent, "halt"),
                Runner.run(agent, "hello", run_config=RunConfig(model=responses_model(other))),
                return_exceptions=True,
            )

        stopped, finished = asyncio.run(both())
    assert isinstance(stopped, RunStoppedError)
    assert not isinstance(finished, BaseException) and finished.final_output
    assert shell_tool.calls == [ALLOWED_COMMAND]
