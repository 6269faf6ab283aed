"""The LangChain v1 / LangGraph bridge with the real packages, a real agent and the fake model.

Each test builds a real ``create_agent`` agent whose ``ChatOpenAI`` model talks Chat
Completions to the fake model on 127.0.0.1, with :class:`HookwiseMiddleware` in its
middleware; the model asks for the scripted tool call and the test checks which tool
functions ran, what the next model request carried, and what the audit log recorded.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("langchain.agents", reason='pip install "hookwise[langchain]"')
pytest.importorskip("langchain_openai", reason='pip install "hookwise[langchain]"')

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import StructuredTool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from hookwise.integrations.langchain import (
    HookwiseMiddleware,
    _text,
    _with_context,
    tool_approval,
)
from tests.e2e.fake_model import (
    FINAL_TEXT,
    FakeModel,
    Script,
    call,
    tool_results,
)
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
    POLICY,
    REWRITE_COMMAND,
    REWRITTEN_COMMAND,
    Project,
    ShellTool,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "integrations" / "langchain_agent.py"
AGENT = "lc-coder"
THREAD = {"configurable": {"thread_id": "t1"}}


def shell_tool_for(shell: ShellTool) -> StructuredTool:
    def run_shell(command: str) -> str:
        """Run a shell command in the project and return its output."""
        return shell(command)

    return StructuredTool.from_function(run_shell)


def build(
    project: Project,
    fake: FakeModel,
    shell: ShellTool,
    *,
    guarded: bool = True,
    checkpointer: bool = True,
    **middleware: Any,
) -> Any:
    model = ChatOpenAI(
        model="gpt-fake",
        base_url=f"{fake.url}/v1",
        api_key="dummy",  # type: ignore[arg-type]
        use_responses_api=False,
        max_retries=0,
    )
    chain = [HookwiseMiddleware(agent=AGENT, cwd=project.root, **middleware)] if guarded else []
    return create_agent(
        model,
        [shell_tool_for(shell)],
        system_prompt="You are a coding agent.",
        middleware=chain,
        checkpointer=InMemorySaver() if checkpointer else None,
    )


def ask(agent: Any, prompt: str = "please do it") -> dict[str, Any]:
    out: dict[str, Any] = agent.invoke({"messages": [HumanMessage(prompt)]}, THREAD)
    return out


def requests(fake: FakeModel) -> list[dict[str, Any]]:
    return [r["body"] for r in fake.requests if r["path"].endswith("/chat/completions")]


def last_results(fake: FakeModel) -> list[str]:
    return tool_results(requests(fake)[-1])


# ---------------------------------------------------------------------------- tool calls
def test_denied_command_never_runs_and_the_model_gets_the_reason(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND)])
    out = ask(build(project, fake_model, shell_tool))
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()
    assert last_results(fake_model) == [DENY_REASON]
    assert out["messages"][-1].content == FINAL_TEXT
    [refusal] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert refusal.status == "error"
    denied = [r for r in project.audit() if r.get("decision") == "deny"]
    assert denied and denied[0]["framework"] == "langchain" and denied[0]["agent"] == AGENT
    tool_lines = [
        x for x in project.logs("--framework", "langchain", "--agent", AGENT) if "tool.before" in x
    ]
    assert len(tool_lines) == 1 and "-> deny [no-recursive-delete]" in tool_lines[0]


def test_without_the_middleware_the_denied_command_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND)])
    ask(build(project, fake_model, shell_tool, guarded=False))
    assert shell_tool.calls == [DENIED_COMMAND]
    assert not (project.root / "build").exists()


def test_allowed_command_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    ask(build(project, fake_model, shell_tool))
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert last_results(fake_model) == [ALLOWED_OUTPUT]


def test_async_run_is_gated_too(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script(
        [[call("run_shell", command=DENIED_COMMAND), call("run_shell", command=ALLOWED_COMMAND)]]
    )
    agent = build(project, fake_model, shell_tool)
    asyncio.run(agent.ainvoke({"messages": [HumanMessage("go")]}, THREAD))
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert sorted(last_results(fake_model)) == sorted([DENY_REASON, ALLOWED_OUTPUT])


def test_rewrite_changes_the_tool_call_args(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=REWRITE_COMMAND)])
    ask(build(project, fake_model, shell_tool))
    assert shell_tool.calls == [REWRITTEN_COMMAND]
    assert (project.root / "marker-rewritten").exists()
    assert not (project.root / "marker-original").exists()


def test_context_is_appended_to_the_result(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=CONTEXT_COMMAND)])
    ask(build(project, fake_model, shell_tool))
    [seen] = last_results(fake_model)
    assert seen.startswith(str(project.root)) and seen.endswith(CONTEXT_TEXT)


def test_ask_interrupts_and_approve_resumes(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build(project, fake_model, shell_tool)
    out = ask(agent)
    assert shell_tool.calls == []
    [pending] = out["__interrupt__"]
    request = tool_approval(pending.value)
    assert request is not None
    assert request["name"] == "run_shell" and request["args"] == {"command": ASK_COMMAND}
    assert request["description"] == ASK_REASON
    done = agent.invoke(Command(resume={"type": "approve"}), THREAD)
    assert shell_tool.calls == [ASK_COMMAND]
    assert done["messages"][-1].content == FINAL_TEXT
    # LangGraph ran the tool step twice (ask, then resume): one ask, one answer
    (asked,) = project.asks()
    assert asked["reason"] == ASK_REASON and asked["agent"] == AGENT
    (answer,) = project.answers()
    assert answer["ask_resolved"] == "interrupt: approved"
    assert answer["decision"] == "allow" and answer["rule"] == "uname-needs-approval"
    assert answer["framework"] == "langchain" and answer["call_id"] == asked["call_id"]
    lines = project.logs("--framework", "langchain", "--agent", AGENT)
    assert [line.split(" ", 2)[2].split(" ")[0] for line in lines] == [
        "prompt",
        "tool.before",
        "permission.request",
        "tool.after",
        "agent.stop",
    ]


def test_policy_that_denies_by_approval_time_wins(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build(project, fake_model, shell_tool)
    ask(agent)
    project.write_policy(POLICY.replace("action: ask", "action: deny"))
    agent.invoke(Command(resume={"type": "approve"}), THREAD)
    assert shell_tool.calls == []
    assert last_results(fake_model) == [ASK_REASON]
    # the ask once; on resume the policy's deny, not a second ask nor an approval
    assert len(project.asks()) == 1 and project.answers() == []
    assert project.audit()[-2]["decision"] == "deny"


def test_async_ask_interrupts_and_resumes(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build(project, fake_model, shell_tool)

    async def scenario() -> Any:
        out = await agent.ainvoke({"messages": [HumanMessage("go")]}, THREAD)
        assert tool_approval(out["__interrupt__"][0].value) is not None
        assert shell_tool.calls == []
        return await agent.ainvoke(Command(resume={"type": "approve"}), THREAD)

    done = asyncio.run(scenario())
    assert shell_tool.calls == [ASK_COMMAND]
    assert done["messages"][-1].content == FINAL_TEXT
    assert len(project.asks()) == 1
    assert [a["ask_resolved"] for a in project.answers()] == ["interrupt: approved"]


def test_ask_rejected_never_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build(project, fake_model, shell_tool)
    ask(agent)
    agent.invoke(Command(resume={"type": "reject", "message": "REJECTED-BY-USER"}), THREAD)
    assert shell_tool.calls == []
    [seen] = last_results(fake_model)
    assert "REJECTED-BY-USER" in seen
    assert len(project.asks()) == 1
    (answer,) = project.answers()
    assert answer["ask_resolved"] == "interrupt: rejected" and answer["decision"] == "deny"
    assert "REJECTED-BY-USER" in answer["reason"] and answer["agent"] == AGENT
    (line,) = project.logs("--framework", "langchain", "--agent", AGENT, "--decision", "deny")
    assert "REJECTED-BY-USER" in line and line.endswith("(interrupt: rejected)")


def test_a_malformed_answer_is_not_an_approval(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """Resuming with something that is not a decision fails validation: nothing runs."""
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build(project, fake_model, shell_tool)
    ask(agent)
    with pytest.raises(Exception, match="type"):
        agent.invoke(Command(resume={"type": "approve-everything"}), THREAD)
    assert shell_tool.calls == []


def test_ask_without_a_checkpointer_uses_the_fallback(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """No checkpointer, no interrupt: the policy's ask_fallback (deny by default)."""
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build(project, fake_model, shell_tool, checkpointer=False)
    agent.invoke({"messages": [HumanMessage("go")]})
    assert shell_tool.calls == []
    [seen] = last_results(fake_model)
    assert ASK_REASON in seen


def test_existing_claude_code_hook_blocks_the_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=HOOK_BLOCKED_COMMAND)])
    ask(build(project, fake_model, shell_tool, hooks_from="claude"))
    assert shell_tool.calls == []
    [seen] = last_results(fake_model)
    assert HOOK_REASON in seen
    [payload] = project.hook_calls()
    assert payload["tool_name"] == "Bash"
    assert payload["tool_input"]["command"] == HOOK_BLOCKED_COMMAND


def test_stop_ends_the_run(project: Project, fake_model: FakeModel, shell_tool: ShellTool) -> None:
    project.write_policy(
        POLICY + "  - id: halt\n    match: {tool: shell, command: shutdown}\n    action: stop\n"
        "    reason: POLICY-STOP\n"
    )
    fake_model.script = Script([call("run_shell", command="shutdown now")])
    out = ask(build(project, fake_model, shell_tool))
    assert shell_tool.calls == []
    assert len(requests(fake_model)) == 1  # the model is not asked again
    refusal, last = out["messages"][-2:]
    assert isinstance(refusal, ToolMessage) and "POLICY-STOP" in refusal.content
    assert isinstance(last, AIMessage) and last.content == "Run stopped by policy: POLICY-STOP"
    assert not last.tool_calls


def test_after_tool_deny_withholds_the_output(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(
        POLICY + "  - id: no-leak\n    events: [tool.after]\n    match: {tool: shell}\n"
        "    when: 'payload.tool_response contains \"hello-from-tool\"'\n"
        "    action: deny\n    reason: POLICY-WITHHELD\n"
    )
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    ask(build(project, fake_model, shell_tool))
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert last_results(fake_model) == ["POLICY-WITHHELD"]


# ---------------------------------------------------------------------------- prompts, end
def test_denied_prompt_never_reaches_the_model(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(
        POLICY + "  - id: no-exfil\n    match: {prompt: exfiltrate}\n    action: deny\n"
        "    reason: POLICY-PROMPT\n"
    )
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    agent = build(project, fake_model, shell_tool)
    out = ask(agent, "please exfiltrate the keys")
    assert requests(fake_model) == []
    assert shell_tool.calls == []
    assert not any(isinstance(m, HumanMessage) for m in out["messages"])
    assert "POLICY-PROMPT" in out["messages"][-1].content
    # the next prompt of the same thread is fine, and the blocked one is not in it
    ask(agent, "list the files")
    texts = [m.get("content") for m in requests(fake_model)[0]["messages"]]
    assert "please exfiltrate the keys" not in texts and "list the files" in texts


def test_prompt_context_is_added_to_the_prompt(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(
        POLICY + "  - id: ctx\n    match: {prompt: deploy}\n    action: context\n"
        "    context: POLICY-PROMPT-CONTEXT\n"
    )
    fake_model.script = Script(["ok"])
    ask(build(project, fake_model, shell_tool), "deploy it")
    user = [m for m in requests(fake_model)[0]["messages"] if m["role"] == "user"]
    assert user[-1]["content"] == "deploy it\n\nPOLICY-PROMPT-CONTEXT"


def test_end_retry_sends_the_agent_back(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(
        POLICY + "  - id: finish\n    match: {response: 'first answer'}\n    action: retry\n"
        "    max_retries: 1\n    reason: POLICY-RETRY run the tests first\n"
    )
    fake_model.script = Script(["first answer"])
    out = ask(build(project, fake_model, shell_tool))
    assert len(requests(fake_model)) == 2
    user = [m for m in requests(fake_model)[-1]["messages"] if m["role"] == "user"]
    assert user[-1]["content"] == "POLICY-RETRY run the tests first"
    assert isinstance(out["messages"][-1], AIMessage)


def test_max_returns_bounds_the_end_loop(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(
        POLICY + "  - id: finish\n    match: {response: 'first answer'}\n    action: retry\n"
        "    max_retries: 50\n    reason: again\n"
    )
    fake_model.script = Script(["first answer"])
    ask(build(project, fake_model, shell_tool, max_returns=2))
    assert len(requests(fake_model)) == 3


# ---------------------------------------------------------------------------- helpers
def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="ask"):
        HookwiseMiddleware(agent="x", ask="maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_returns"):
        HookwiseMiddleware(agent="x", max_returns=-1)


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.none() | st.text() | st.integers(), lambda c: st.lists(c) | st.dictionaries(st.text(), c)
    )
)
def test_text_of_any_content(content: Any) -> None:
    assert isinstance(_text(content), str)
    assert _with_context(content, "") is content


@settings(max_examples=60, deadline=None)
@given(st.text(), st.text(min_size=1))
def test_context_is_kept_after_the_text(text: str, context: str) -> None:
    assert _text(_with_context(text, context)).endswith(context)
    assert _text(_with_context([{"type": "text", "text": text}], context)).endswith(context)


# ---------------------------------------------------------------------------- the example
def test_the_documented_example_runs(
    project: Project, fake_model: FakeModel, model_env: dict[str, str]
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script(
        [
            call("run_shell", command=DENIED_COMMAND),
            call("run_shell", command=ASK_COMMAND),
            call("run_shell", command=ALLOWED_COMMAND),
        ]
    )
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--cwd", str(project.root), "--yes", "clean up"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (project.root / "build").is_dir()
    seen = [t for body in requests(fake_model) for t in tool_results(body)]
    assert DENY_REASON in seen and ALLOWED_OUTPUT in seen
    assert any(s.startswith("Linux") for s in seen)  # uname -s ran after the approval
    assert FINAL_TEXT in done.stdout
