"""The OpenAI Agents SDK bridge with the real SDK, a real agent run and the fake model.

Each test runs a real ``agents.Agent`` whose model (Chat Completions, or Responses in the
example) talks to the fake model on 127.0.0.1; the model asks for a tool call from the
script, the bridge decides, and the test checks which tool functions ran, what the next
model request carried, and what the audit log recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

agents = pytest.importorskip("agents", reason='pip install "hookwise[openai-agents]"')

from agents import (  # noqa: E402
    Agent,
    FunctionTool,
    InputGuardrailTripwireTriggered,
    OpenAIChatCompletionsModel,
    Runner,
    RunState,
    ToolInputGuardrailTripwireTriggered,
    WebSearchTool,
    function_tool,
    set_tracing_disabled,
)
from agents.exceptions import ModelBehaviorError  # noqa: E402
from openai import AsyncOpenAI  # noqa: E402

from hookwise.integrations.gate import Gate  # noqa: E402
from hookwise.integrations.openai_agents import (  # noqa: E402
    AgentsGuard,
    UnguardedToolError,
    guard_agent,
    parse_arguments,
    prompt_text,
    run_guarded,
)
from tests.e2e.fake_model import (  # noqa: E402
    FINAL_TEXT,
    FakeModel,
    Script,
    ToolCall,
    call,
    tool_results,
)
from tests.integrations.conftest import (  # noqa: E402
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
    POLICY,
    REWRITE_COMMAND,
    REWRITTEN_COMMAND,
    Project,
    ShellTool,
)

set_tracing_disabled(True)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "integrations" / "openai_agents_agent.py"
AGENT = "coder"


def build_agent(fake: FakeModel, shell: ShellTool, **kwargs: Any) -> Agent[Any]:
    """A real agent with a real shell tool, its model pointed at the fake model."""

    @function_tool
    def run_shell(command: str) -> str:
        """Run a shell command in the project and return its output."""
        return shell(command)

    client = AsyncOpenAI(base_url=f"{fake.url}/v1", api_key="dummy", max_retries=0)
    model = OpenAIChatCompletionsModel("gpt-fake", openai_client=client)
    return Agent(
        name=AGENT, instructions="You are a coding agent.", tools=[run_shell], model=model, **kwargs
    )


def run(agent: Agent[Any], prompt: str | Any = "please do it") -> Any:
    return asyncio.run(Runner.run(agent, prompt))


def model_requests(fake: FakeModel) -> list[dict[str, Any]]:
    return [r["body"] for r in fake.requests if r["path"].endswith("/chat/completions")]


def last_results(fake: FakeModel) -> list[str]:
    """The tool results in the last model request (what the model saw last)."""
    return tool_results(model_requests(fake)[-1])


def guarded(project: Project, fake: FakeModel, shell: ShellTool, **gate: Any) -> Agent[Any]:
    return guard_agent(build_agent(fake, shell), cwd=project.root, **gate)


# ---------------------------------------------------------------------------- tool calls
def test_denied_command_never_runs_and_the_model_gets_the_reason(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND)])
    result = run(guarded(project, fake_model, shell_tool))
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()
    assert last_results(fake_model) == [DENY_REASON]
    assert result.final_output == FINAL_TEXT
    # the SDK's own record of the guardrail, and hookwise's audit record
    [gr] = result.tool_input_guardrail_results
    assert gr.output.behavior["type"] == "reject_content"
    records = [r for r in project.audit() if r.get("framework") == "openai-agents"]
    denied = [r for r in records if r.get("decision") == "deny"]
    assert denied and denied[0]["agent"] == AGENT and denied[0]["rule"] == "no-recursive-delete"
    [line] = [
        x
        for x in project.logs("--framework", "openai-agents", "--agent", AGENT)
        if "tool.before" in x
    ]
    assert f"openai-agents/{AGENT}" in line and "-> deny [no-recursive-delete]" in line
    assert project.logs("--framework", "langchain") == []


def test_streamed_run_is_gated_too(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND)])
    agent = guarded(project, fake_model, shell_tool)

    async def streamed() -> Any:
        result = Runner.run_streamed(agent, "please")
        async for _ in result.stream_events():
            pass
        return result

    result = asyncio.run(streamed())
    assert shell_tool.calls == []
    assert DENY_REASON in last_results(fake_model)
    assert result.final_output == FINAL_TEXT


def test_allowed_command_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    result = run(guarded(project, fake_model, shell_tool))
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert last_results(fake_model) == [ALLOWED_OUTPUT]
    assert result.final_output == FINAL_TEXT


def test_without_the_bridge_the_denied_command_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """The baseline: the same agent, unguarded, deletes the directory."""
    (project.root / "build").mkdir()
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND)])
    run(build_agent(fake_model, shell_tool))
    assert shell_tool.calls == [DENIED_COMMAND]
    assert not (project.root / "build").exists()


def test_rewrite_changes_what_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """A guardrail cannot change arguments; the guarded tool's invoker does."""
    fake_model.script = Script([call("run_shell", command=REWRITE_COMMAND)])
    run(guarded(project, fake_model, shell_tool))
    assert shell_tool.calls == [REWRITTEN_COMMAND]
    assert (project.root / "marker-rewritten").exists()
    assert not (project.root / "marker-original").exists()


def test_context_reaches_the_model_with_the_result(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=CONTEXT_COMMAND)])
    run(guarded(project, fake_model, shell_tool))
    assert shell_tool.calls == [CONTEXT_COMMAND]
    [seen] = last_results(fake_model)
    assert str(project.root) in seen and CONTEXT_TEXT in seen


def test_ask_interrupts_and_approval_runs_the_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = guarded(project, fake_model, shell_tool)

    async def scenario() -> Any:
        result = await Runner.run(agent, "please")
        assert shell_tool.calls == []
        [item] = result.interruptions
        assert item.tool_name == "run_shell"
        assert json.loads(item.arguments) == {"command": ASK_COMMAND}
        state = result.to_state()
        state.approve(item)
        return await Runner.run(agent, state)

    resumed = asyncio.run(scenario())
    assert shell_tool.calls == [ASK_COMMAND]
    assert resumed.final_output == FINAL_TEXT
    (asked,) = project.asks()  # decided again at approval time, but asked once
    assert asked["framework"] == "openai-agents" and asked["reason"] == ASK_REASON
    (approved,) = project.answers()
    assert approved["ask_resolved"] == "needs_approval: approved"
    assert approved["decision"] == "allow" and approved["framework"] == "openai-agents"
    assert approved["call_id"] == asked["call_id"] and approved["agent"] == AGENT


def test_policy_that_denies_by_approval_time_wins(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = guarded(project, fake_model, shell_tool)

    async def scenario() -> None:
        result = await Runner.run(agent, "please")
        project.write_policy(POLICY.replace("action: ask", "action: deny"))
        state = result.to_state()
        state.approve(result.interruptions[0])
        await Runner.run(agent, state)

    asyncio.run(scenario())
    assert shell_tool.calls == []
    assert last_results(fake_model) == [ASK_REASON]


def test_ask_rejected_never_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = guarded(project, fake_model, shell_tool)

    async def scenario() -> Any:
        result = await Runner.run(agent, "please")
        state = result.to_state()
        state.reject(result.interruptions[0], rejection_message="REJECTED-BY-USER")
        return await Runner.run(agent, state)

    resumed = asyncio.run(scenario())
    assert shell_tool.calls == []
    assert last_results(fake_model) == ["REJECTED-BY-USER"]
    assert resumed.final_output == FINAL_TEXT
    # the SDK never calls a tool, guardrail or approval check for a rejected call: the
    # guard's agent hooks read the rejection from the run's approval record
    (asked,) = project.asks()
    (rejected,) = project.answers()
    assert rejected["ask_resolved"] == "needs_approval: rejected"
    assert rejected["decision"] == "deny" and rejected["reason"] == "REJECTED-BY-USER"
    assert rejected["rule"] == "uname-needs-approval" and rejected["call_id"] == asked["call_id"]
    (line,) = project.logs("--framework", "openai-agents", "--agent", AGENT, "--decision", "deny")
    assert "REJECTED-BY-USER" in line


def test_rejection_resumed_in_a_new_process_is_audited(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """A RunState saved after the ask, rejected and resumed with a fresh guard (another
    process, which never asked): the rejection is still written, once."""
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    saved = run(guarded(project, fake_model, shell_tool)).to_state().to_json()
    second = guarded(project, fake_model, shell_tool)

    async def resume() -> None:
        state = await RunState.from_json(second, saved)
        state.reject(state.get_interruptions()[0])
        await Runner.run(second, state)

    asyncio.run(resume())
    assert shell_tool.calls == []
    (rejected,) = project.answers()
    assert rejected["ask_resolved"] == "needs_approval: rejected"
    assert rejected["decision"] == "deny" and rejected["framework"] == "openai-agents"
    assert rejected["command"] == ASK_COMMAND


def test_the_apps_own_agent_hooks_still_run(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    from agents import AgentHooks

    seen: list[str] = []

    class Hooks(AgentHooks[Any]):
        async def on_llm_start(self, *args: Any) -> None:
            seen.append("llm")

        async def on_end(self, *args: Any) -> None:
            seen.append("end")

    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    agent = guard_agent(build_agent(fake_model, shell_tool, hooks=Hooks()), cwd=project.root)
    run(agent)
    assert seen == ["llm", "llm", "end"]


def test_ask_resumed_in_a_new_process_state_is_decided_again(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """A RunState serialised and resumed with a fresh guard (another process): the
    approved call runs; the gate is not skipped (the policy is asked again)."""
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    saved = run(guarded(project, fake_model, shell_tool)).to_state().to_json()
    second = guarded(project, fake_model, shell_tool)

    async def resume() -> None:
        state = await RunState.from_json(second, saved)
        state.approve(state.get_interruptions()[0])
        await Runner.run(second, state)

    asyncio.run(resume())
    assert shell_tool.calls == [ASK_COMMAND]


def test_existing_claude_code_hook_blocks_the_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """hooks_from="claude": the team's PreToolUse hook (exit 2 + stderr) sees the call as
    Bash and blocks it; its stderr is what the model receives."""
    fake_model.script = Script([call("run_shell", command=HOOK_BLOCKED_COMMAND)])
    run(guarded(project, fake_model, shell_tool, hooks_from="claude"))
    assert shell_tool.calls == []
    [seen] = last_results(fake_model)
    assert HOOK_REASON in seen
    [payload] = project.hook_calls()
    assert payload["tool_name"] == "Bash"
    assert payload["tool_input"]["command"] == HOOK_BLOCKED_COMMAND


def test_existing_hook_lets_other_commands_through(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    run(guarded(project, fake_model, shell_tool, hooks_from="claude"))
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert len(project.hook_calls()) == 1


def test_reused_call_id_is_decided_per_call(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """A hostile model reuses one call id: an allowed call must not lend its verdict to a
    denied one that follows under the same id."""
    (project.root / "build").mkdir()
    fake_model.script = Script(
        [
            ToolCall("run_shell", {"command": ALLOWED_COMMAND}, id="call_same"),
            ToolCall("run_shell", {"command": DENIED_COMMAND}, id="call_same"),
        ]
    )
    # the SDK itself refuses a reused id (0.24); the gate must hold either way
    with contextlib.suppress(ModelBehaviorError):
        run(guarded(project, fake_model, shell_tool))
    assert DENIED_COMMAND not in shell_tool.calls
    assert (project.root / "build").is_dir()


def test_kept_verdicts_belong_to_one_call(project: Project) -> None:
    """The verdict kept between approval check, guardrail and invoker is keyed by id,
    tool and arguments: the same id with other arguments is decided afresh."""
    guard = AgentsGuard(Gate("openai-agents", agent=AGENT, cwd=project.root))

    async def decide() -> tuple[str, str]:
        first = await guard.decide("run_shell", json.dumps({"command": ALLOWED_COMMAND}), "c1")
        second = await guard.decide("run_shell", json.dumps({"command": DENIED_COMMAND}), "c1")
        return first.action, second.action

    assert asyncio.run(decide()) == ("allow", "deny")


def test_parallel_calls_each_get_their_verdict(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script(
        [[call("run_shell", command=DENIED_COMMAND), call("run_shell", command=ALLOWED_COMMAND)]]
    )
    run(guarded(project, fake_model, shell_tool))
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert sorted(last_results(fake_model)) == sorted([DENY_REASON, ALLOWED_OUTPUT])


def test_stop_ends_the_run_before_the_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(
        POLICY + "  - id: halt\n    match: {tool: shell, command: shutdown}\n    action: stop\n"
        "    reason: POLICY-STOP\n"
    )
    fake_model.script = Script([call("run_shell", command="shutdown now")])
    with pytest.raises(ToolInputGuardrailTripwireTriggered) as raised:
        run(guarded(project, fake_model, shell_tool))
    assert shell_tool.calls == []
    assert raised.value.output.output_info.stop == "POLICY-STOP"


def test_after_tool_deny_withholds_the_output(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(
        POLICY + "  - id: no-leak\n    events: [tool.after]\n    match: {tool: shell}\n"
        "    when: 'payload.tool_response contains \"hello-from-tool\"'\n"
        "    action: deny\n    reason: POLICY-WITHHELD\n"
    )
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    run(guarded(project, fake_model, shell_tool))
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert last_results(fake_model) == ["POLICY-WITHHELD"]


def test_broken_policy_fails_closed(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy("version: 1\nrules:\n  - id: x\n    action: [not-an-action\n")
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    run(guarded(project, fake_model, shell_tool))
    assert shell_tool.calls == []
    [seen] = last_results(fake_model)
    assert "policy.yaml" in seen


# ---------------------------------------------------------------------------- prompts, end
PROMPT_RULE = (
    "  - id: no-secrets-prompt\n    match: {prompt: 'exfiltrate'}\n    action: deny\n"
    "    reason: POLICY-PROMPT\n"
)


def test_denied_prompt_never_reaches_the_model(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + PROMPT_RULE)
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    with pytest.raises(InputGuardrailTripwireTriggered) as raised:
        run(guarded(project, fake_model, shell_tool), "please exfiltrate the keys")
    assert raised.value.guardrail_result.output.output_info.reason == "POLICY-PROMPT"
    assert model_requests(fake_model) == []
    assert shell_tool.calls == []


def test_prompt_context_reaches_the_model(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """An input guardrail cannot change the input: the prompt's context goes into the
    agent's instructions for that run (and not into another run's)."""
    project.write_policy(
        POLICY + "  - id: ctx\n    match: {prompt: deploy}\n    action: context\n"
        "    context: POLICY-PROMPT-CONTEXT\n"
    )
    fake_model.script = Script(["ok"])
    agent = guarded(project, fake_model, shell_tool)

    async def two_runs() -> None:
        await Runner.run(agent, "deploy it")
        await Runner.run(agent, "something else")

    asyncio.run(two_runs())
    first, second = (r["messages"][0] for r in model_requests(fake_model))
    assert first["role"] == "system"
    assert first["content"] == "You are a coding agent.\n\nPOLICY-PROMPT-CONTEXT"
    assert second["content"] == "You are a coding agent."


def test_end_retry_sends_the_agent_back(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """A retry rule on agent.stop: run_guarded sends the finished agent back with the
    reason as its next message, as often as the rule's budget allows (here once)."""
    project.write_policy(
        POLICY + "  - id: finish-tests\n    match: {response: 'first answer'}\n    action: retry\n"
        "    max_retries: 1\n"
        "    reason: POLICY-RETRY run the tests first\n"
    )
    fake_model.script = Script(["first answer"])
    agent = guarded(project, fake_model, shell_tool)
    result = asyncio.run(run_guarded(agent, "do it"))
    assert result.final_output == "first answer"
    assert len(model_requests(fake_model)) == 2
    last = model_requests(fake_model)[-1]
    texts = [m.get("content") for m in last["messages"] if m.get("role") == "user"]
    assert texts[-1] == "POLICY-RETRY run the tests first"


# ---------------------------------------------------------------------------- wrapping
def test_guard_agent_refuses_tools_it_cannot_gate(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    agent = build_agent(fake_model, shell_tool).clone(
        tools=[*build_agent(fake_model, shell_tool).tools, WebSearchTool()]
    )
    with pytest.raises(UnguardedToolError, match="WebSearchTool"):
        guard_agent(agent, cwd=project.root)
    loose = guard_agent(agent, cwd=project.root, strict=False)
    assert isinstance(loose.tools[1], WebSearchTool)


def test_guard_agent_guards_handoffs_and_leaves_the_original(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    helper = build_agent(fake_model, shell_tool).clone(name="helper")
    main = build_agent(fake_model, shell_tool).clone(handoffs=[helper])
    guard = AgentsGuard(Gate("openai-agents", agent="coder", cwd=project.root))
    out = guard.guard_agent(main)
    inner = out.handoffs[0]
    assert isinstance(inner, Agent) and inner is not helper
    for agent in (out, inner):
        tool = agent.tools[0]
        assert isinstance(tool, FunctionTool)
        assert guard.tool_input_guardrail in (tool.tool_input_guardrails or [])
    assert not main.tools[0].tool_input_guardrails  # type: ignore[union-attr]
    assert guard.guard_agent(out).tools[0] is out.tools[0]  # guarding twice changes nothing


def test_handoff_target_is_guarded_in_a_real_run(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    (project.root / "build").mkdir()
    helper = build_agent(fake_model, shell_tool).clone(name="helper")
    main = build_agent(fake_model, shell_tool).clone(tools=[], handoffs=[helper])
    fake_model.script = Script(
        [call("transfer_to_helper"), call("run_shell", command=DENIED_COMMAND)]
    )
    run(guard_agent(main, cwd=project.root))
    assert shell_tool.calls == []
    assert DENY_REASON in last_results(fake_model)


# ---------------------------------------------------------------------------- parsers
@settings(max_examples=60, deadline=None)
@given(st.text())
def test_parse_arguments_never_raises(raw: str) -> None:
    parsed = parse_arguments(raw)
    assert parsed is None or isinstance(parsed, dict)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(), st.recursive(st.none() | st.integers() | st.text(), st.lists)))
def test_parse_arguments_round_trips_objects(value: dict[str, Any]) -> None:
    assert parse_arguments(json.dumps(value)) == value


@pytest.mark.parametrize("raw", ["[1, 2]", '"rm -rf /"', "nul", "{", "1"])
def test_arguments_that_are_not_an_object_are_not_read(raw: str) -> None:
    assert parse_arguments(raw) is None


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.none() | st.text() | st.integers(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
    )
)
def test_prompt_text_reads_any_input(value: Any) -> None:
    assert isinstance(prompt_text(value), str)


def test_prompt_text_takes_the_last_user_message() -> None:
    items = [
        {"role": "user", "content": "old"},
        {"role": "assistant", "content": "x"},
        {"role": "user", "content": [{"type": "input_text", "text": "new"}]},
    ]
    assert prompt_text(items) == "new"


@pytest.mark.parametrize(
    ("module", "framework", "extra"),
    [("openai_agents", "agents", "openai-agents"), ("langchain", "langchain.agents", "langchain")],
)
def test_a_missing_framework_names_the_extra(module: str, framework: str, extra: str) -> None:
    code = (
        "import sys\n"
        f"sys.modules[{framework!r}] = None\n"
        "try:\n"
        f"    import hookwise.integrations.{module}\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert f'pip install "hookwise[{extra}]"' in done.stdout, done.stderr


# ---------------------------------------------------------------------------- the example
def test_the_documented_example_runs(
    project: Project, fake_model: FakeModel, model_env: dict[str, str]
) -> None:
    """examples/integrations/openai_agents_agent.py, as a user runs it (Responses API)."""
    (project.root / "build").mkdir()
    fake_model.script = Script(
        [call("run_shell", command=DENIED_COMMAND), call("run_shell", command=ALLOWED_COMMAND)]
    )
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--cwd", str(project.root), "clean the build directory"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (project.root / "build").is_dir()
    responses = [r["body"] for r in fake_model.requests if r["path"].endswith("/responses")]
    seen = [t for body in responses for t in tool_results(body)]
    assert DENY_REASON in seen and ALLOWED_OUTPUT in seen
    assert FINAL_TEXT in done.stdout
