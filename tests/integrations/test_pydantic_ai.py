"""The pydantic-ai bridge with the real framework, real agent runs and the fake model.

Each test runs a real ``pydantic_ai.Agent`` whose OpenAI Chat Completions model talks to the
fake model on 127.0.0.1 (``OpenAIProvider(base_url=...)``); the model asks for the script's
tool calls, the capability decides, and the test checks which tool functions ran, what the
next model request carried and what the audit log recorded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason='pip install "hookwise[pydantic-ai]"')

from pydantic_ai import Agent
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.tools import (
    DeferredToolRequests,
    DeferredToolResults,
    RunContext,
    ToolApproved,
    ToolDenied,
)

from hookwise.integrations.errors import PromptBlockedError, RunStoppedError
from hookwise.integrations.gate import Gate
from hookwise.integrations.pydantic_ai import HookwiseCapability, prompt_text
from tests.e2e.fake_model import FINAL_TEXT, FakeModel, Script, call, tool_results
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
    PROMPT_TOKEN,
    RETRY_TOKEN,
    REWRITE_COMMAND,
    REWRITTEN_COMMAND,
    STOP_TOKEN,
    Project,
    ShellTool,
    lifecycle_rules,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "integrations" / "pydantic_ai_agent.py"
AGENT = "coder"
FRAMEWORK = "pydantic-ai"

EXTRA_RULES = lifecycle_rules("FAKE-MODEL-FINAL")

Output = str | DeferredToolRequests


def build_agent(
    fake: FakeModel, shell: ShellTool, project: Project, **options: Any
) -> Agent[None, Output]:
    """A real agent with a real shell tool and the hookwise capability."""
    provider = OpenAIProvider(base_url=f"{fake.url}/v1", api_key="dummy")
    extra = options.pop("extra_capabilities", [])
    capability = HookwiseCapability(cwd=project.root, **options)
    agent: Agent[None, Output] = Agent(
        OpenAIChatModel("gpt-fake", provider=provider),
        name=AGENT,
        output_type=[str, DeferredToolRequests],
        capabilities=[capability, *extra],
    )

    @agent.tool_plain
    def run_shell(command: str) -> str:
        """Run a shell command in the project."""
        return shell(command)

    return agent


def chat_bodies(fake: FakeModel) -> list[dict[str, Any]]:
    return [r["body"] for r in fake.requests if r["path"].endswith("/chat/completions")]


def last_results(fake: FakeModel) -> list[str]:
    return tool_results(chat_bodies(fake)[-1])


def records(project: Project, event: str = "tool.before") -> list[dict[str, Any]]:
    return [r for r in project.audit() if r.get("event") == event]


# ------------------------------------------------------------------ deny / allow / rewrite
def test_denied_command_never_runs_and_the_model_reads_the_reason(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND)])
    result = build_agent(fake_model, shell_tool, project).run_sync("clean the build")
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()
    assert result.output == FINAL_TEXT
    # the next model request carries the reason as the tool's (failed) result
    (seen,) = last_results(fake_model)
    assert DENY_REASON in seen
    (record,) = records(project)
    assert record["framework"] == FRAMEWORK and record["agent"] == AGENT
    assert record["decision"] == "deny" and record["rule"] == "no-recursive-delete"
    assert record["host_tool"] == "run_shell" and record["tool"] == "shell"
    assert record["command"] == DENIED_COMMAND


def test_allowed_command_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    build_agent(fake_model, shell_tool, project).run_sync("say hello")
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert last_results(fake_model) == [ALLOWED_OUTPUT]
    after = records(project, "tool.after")
    assert len(after) == 1 and after[0]["framework"] == FRAMEWORK


def test_rewrite_changes_what_the_tool_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=REWRITE_COMMAND)])
    build_agent(fake_model, shell_tool, project).run_sync("touch the marker")
    assert shell_tool.calls == [REWRITTEN_COMMAND]
    assert (project.root / "marker-rewritten").exists()
    assert not (project.root / "marker-original").exists()
    (record,) = records(project)
    assert record["updated_input"]["command"] == REWRITTEN_COMMAND


def test_context_reaches_the_next_model_request(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=CONTEXT_COMMAND)])
    build_agent(fake_model, shell_tool, project).run_sync("where am I")
    assert shell_tool.calls == [CONTEXT_COMMAND]
    last = json.dumps(chat_bodies(fake_model)[-1]["messages"])
    assert CONTEXT_TEXT in last


def test_parallel_calls_are_decided_one_by_one(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script(
        [[call("run_shell", command=DENIED_COMMAND), call("run_shell", command=ALLOWED_COMMAND)]]
    )
    build_agent(fake_model, shell_tool, project).run_sync("both")
    assert shell_tool.calls == [ALLOWED_COMMAND]
    seen = last_results(fake_model)
    assert any(DENY_REASON in s for s in seen) and ALLOWED_OUTPUT in seen


# ------------------------------------------------------------------ ask
def test_ask_pauses_the_run_with_deferred_tool_requests_then_an_approval_runs_it(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build_agent(fake_model, shell_tool, project)
    paused = agent.run_sync("which kernel")
    assert isinstance(paused.output, DeferredToolRequests)
    (pending,) = paused.output.approvals
    assert pending.args_as_dict() == {"command": ASK_COMMAND}
    meta = paused.output.metadata[pending.tool_call_id]["hookwise"]
    assert meta == {"reason": ASK_REASON, "rule": "uname-needs-approval"}
    assert shell_tool.calls == []
    resumed = agent.run_sync(
        message_history=paused.all_messages(),
        deferred_tool_results=DeferredToolResults(approvals={pending.tool_call_id: True}),
    )
    assert shell_tool.calls == [ASK_COMMAND]
    assert resumed.output == FINAL_TEXT
    # the approved call was decided again when it came back, but asked about once
    assert [r["decision"] for r in records(project)] == ["ask"]
    (approved,) = project.answers()
    assert approved["ask_resolved"] == "deferred tool: approved"
    assert approved["decision"] == "allow" and approved["framework"] == "pydantic-ai"
    assert approved["call_id"] == pending.tool_call_id and approved["agent"] == AGENT


def test_ask_rejected_never_runs_and_the_model_reads_the_rejection(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build_agent(fake_model, shell_tool, project)
    paused = agent.run_sync("which kernel")
    assert isinstance(paused.output, DeferredToolRequests)
    (pending,) = paused.output.approvals
    agent.run_sync(
        message_history=paused.all_messages(),
        deferred_tool_results=DeferredToolResults(
            approvals={pending.tool_call_id: ToolDenied("REJECTED-BY-USER")}
        ),
    )
    assert shell_tool.calls == []
    assert any("REJECTED-BY-USER" in s for s in last_results(fake_model))
    # no tool hook sees a rejected call: the resumed run's tool-call node does
    assert len(project.asks()) == 1
    (rejected,) = project.answers()
    assert rejected["ask_resolved"] == "deferred tool: rejected"
    assert rejected["decision"] == "deny" and rejected["reason"] == "REJECTED-BY-USER"
    assert rejected["rule"] == "uname-needs-approval" and rejected["agent"] == AGENT
    assert rejected["call_id"] == pending.tool_call_id
    (line,) = project.logs("--framework", FRAMEWORK, "--agent", AGENT, "--decision", "deny")
    assert "REJECTED-BY-USER" in line


def test_a_rejection_resumed_by_a_fresh_agent_is_audited(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """Resumed by another agent object (another process: its capability never asked):
    the rejection in DeferredToolResults is still written."""
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    paused = build_agent(fake_model, shell_tool, project).run_sync("which kernel")
    assert isinstance(paused.output, DeferredToolRequests)
    (pending,) = paused.output.approvals
    build_agent(fake_model, shell_tool, project).run_sync(
        message_history=paused.all_messages(),
        deferred_tool_results=DeferredToolResults(approvals={pending.tool_call_id: False}),
    )
    assert shell_tool.calls == []
    (rejected,) = project.answers()
    assert rejected["ask_resolved"] == "deferred tool: rejected"
    assert rejected["decision"] == "deny" and rejected["command"] == ASK_COMMAND


def test_an_inline_rejection_is_audited(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """HandleDeferredToolCalls says no without ending the run: audited from the denial
    the next model request carries."""

    def handler(ctx: RunContext[None], requests: DeferredToolRequests) -> DeferredToolResults:
        return DeferredToolResults(
            approvals={c.tool_call_id: ToolDenied("INLINE-NO") for c in requests.approvals}
        )

    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build_agent(
        fake_model,
        shell_tool,
        project,
        extra_capabilities=[HandleDeferredToolCalls(handler=handler)],
    )
    assert agent.run_sync("which kernel").output == FINAL_TEXT
    assert shell_tool.calls == []
    assert any("INLINE-NO" in s for s in last_results(fake_model))
    (rejected,) = project.answers()
    assert rejected["ask_resolved"] == "deferred tool: rejected"
    assert rejected["reason"] == "INLINE-NO" and rejected["framework"] == FRAMEWORK


def test_an_approval_that_overrides_the_arguments_is_decided_again(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """An approver (or a forged approval) cannot swap in a denied command."""
    (project.root / "build").mkdir()
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build_agent(fake_model, shell_tool, project)
    paused = agent.run_sync("which kernel")
    assert isinstance(paused.output, DeferredToolRequests)
    (pending,) = paused.output.approvals
    swapped = ToolApproved(override_args={"command": DENIED_COMMAND})
    agent.run_sync(
        message_history=paused.all_messages(),
        deferred_tool_results=DeferredToolResults(approvals={pending.tool_call_id: swapped}),
    )
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()
    assert any(DENY_REASON in s for s in last_results(fake_model))


def test_ask_through_an_inline_handler(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """pydantic-ai's HandleDeferredToolCalls answers the ask without ending the run."""
    seen: list[str] = []

    def handler(ctx: RunContext[None], requests: DeferredToolRequests) -> DeferredToolResults:
        seen.extend(c.tool_call_id for c in requests.approvals)
        return requests.build_results(approve_all=True)

    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build_agent(
        fake_model,
        shell_tool,
        project,
        extra_capabilities=[HandleDeferredToolCalls(handler=handler)],
    )
    result = agent.run_sync("which kernel")
    assert result.output == FINAL_TEXT and len(seen) == 1
    assert shell_tool.calls == [ASK_COMMAND]
    assert len(project.asks()) == 1
    assert [a["ask_resolved"] for a in project.answers()] == ["deferred tool: approved"]


def test_ask_relay_mode_falls_back_to_deny_without_a_relay(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    agent = build_agent(fake_model, shell_tool, project, ask="relay")
    result = agent.run_sync("which kernel")
    assert result.output == FINAL_TEXT
    assert shell_tool.calls == []
    (seen,) = last_results(fake_model)
    assert ASK_REASON in seen


# ------------------------------------------------------------------ existing hooks
def test_existing_claude_code_hook_blocks_the_framework_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=HOOK_BLOCKED_COMMAND)])
    build_agent(fake_model, shell_tool, project, hooks_from="claude").run_sync("go")
    assert shell_tool.calls == []
    (seen,) = last_results(fake_model)
    assert HOOK_REASON in seen
    (payload,) = [p for p in project.hook_calls() if p["hook_event_name"] == "PreToolUse"]
    assert payload["tool_name"] == "Bash"
    assert payload["tool_input"]["command"] == HOOK_BLOCKED_COMMAND


def test_without_hooks_from_the_hook_does_not_run(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=HOOK_BLOCKED_COMMAND)])
    build_agent(fake_model, shell_tool, project).run_sync("go")
    assert shell_tool.calls == [HOOK_BLOCKED_COMMAND]
    assert project.hook_calls() == []


# ------------------------------------------------------------------ prompt, end, stop
def test_denied_prompt_never_reaches_the_model(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    agent = build_agent(fake_model, shell_tool, project)
    with pytest.raises(PromptBlockedError, match=PROMPT_TOKEN):
        agent.run_sync("here is my api key: sk-123")
    assert fake_model.requests == []
    assert shell_tool.calls == []
    (record,) = records(project, "prompt")
    assert record["decision"] == "deny" and record["framework"] == FRAMEWORK


def test_a_denied_end_sends_the_model_back_to_work(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    fake_model.script = Script([])
    result = build_agent(fake_model, shell_tool, project).run_sync("finish")
    assert result.output == FINAL_TEXT
    bodies = chat_bodies(fake_model)
    assert len(bodies) == 2  # the model was sent back once (max_retries: 1), then let stop
    assert RETRY_TOKEN in json.dumps(bodies[1]["messages"])
    assert [r["decision"] for r in records(project, "agent.stop")] == ["deny", "none"]


def test_stop_rule_ends_the_run_before_the_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    fake_model.script = Script([call("run_shell", command="shutdown -h now")])
    with pytest.raises(RunStoppedError, match=STOP_TOKEN):
        build_agent(fake_model, shell_tool, project).run_sync("power off")
    assert shell_tool.calls == []
    assert len(chat_bodies(fake_model)) == 1


# ------------------------------------------------------------------ failure, attacks
def test_a_broken_policy_fails_closed(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy("version: 1\nrules: [{id: x, action: nope}]\n")
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    build_agent(fake_model, shell_tool, project).run_sync("say hello")
    assert shell_tool.calls == []
    (seen,) = last_results(fake_model)
    assert "policy.yaml" in seen


def test_a_shell_tool_whose_command_cannot_be_found_is_denied(
    project: Project, fake_model: FakeModel
) -> None:
    """``bash(a, b)``: no command the rules could read, so no run (fail closed)."""
    ran: list[str] = []
    provider = OpenAIProvider(base_url=f"{fake_model.url}/v1", api_key="dummy")
    agent: Agent[None, str] = Agent(
        OpenAIChatModel("gpt-fake", provider=provider),
        capabilities=[HookwiseCapability(cwd=project.root, agent=AGENT)],
    )

    @agent.tool_plain
    def bash(program: str, flags: str) -> str:
        """Run a program."""
        ran.append(f"{program} {flags}")
        return "ran"

    fake_model.script = Script([call("bash", program="rm", flags="-rf build")])
    agent.run_sync("go")
    assert ran == []
    (seen,) = last_results(fake_model)
    assert "cannot find the command" in seen


def test_an_untrusted_policy_still_denies_but_cannot_allow(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """A repository's own policy the user has not trusted only tightens."""
    project.write_policy(
        POLICY + "  - {id: everything, match: {tool: '*'}, action: allow}\n", trust=False
    )
    fake_model.script = Script(
        [call("run_shell", command=DENIED_COMMAND), call("run_shell", command=REWRITE_COMMAND)]
    )
    build_agent(fake_model, shell_tool, project).run_sync("go")
    # the deny holds; the (untrusted) rewrite does not apply: the command runs as asked
    assert shell_tool.calls == [REWRITE_COMMAND]


def test_a_given_gate_and_the_agent_name() -> None:
    gate = Gate(FRAMEWORK, agent="x")
    assert HookwiseCapability(gate).gate is gate
    with pytest.raises(TypeError):
        HookwiseCapability(gate, cwd="/")
    with pytest.raises(ValueError, match="ask"):
        HookwiseCapability(ask="maybe")  # type: ignore[arg-type]
    bound = Agent("test", name="named", capabilities=[HookwiseCapability()])
    gates = [
        c.gate for c in bound.root_capability.capabilities if isinstance(c, HookwiseCapability)
    ]  # type: ignore[attr-defined]
    assert [g.agent for g in gates] == ["named"]


def test_prompt_text_keeps_only_text() -> None:
    assert prompt_text(None) == ""
    assert prompt_text("x") == "x"
    assert prompt_text(["a", object(), "b"]) == "a\nb"


# ------------------------------------------------------------------ the example, the extra
def test_the_example_runs(project: Project, fake_model: FakeModel) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script(
        [
            call("run_shell", command=DENIED_COMMAND),
            call("run_shell", command=ASK_COMMAND),
            call("run_shell", command=ALLOWED_COMMAND),
        ]
    )
    env = {**os.environ, "OPENAI_BASE_URL": f"{fake_model.url}/v1", "OPENAI_API_KEY": "dummy"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--cwd", str(project.root), "--yes", "clean up"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert FINAL_TEXT in done.stdout
    assert (project.root / "build").is_dir()
    seen = fake_model.tool_results()
    assert any(DENY_REASON in s for s in seen) and ALLOWED_OUTPUT in seen
    assert [r["agent"] for r in records(project)] == [AGENT] * 3  # deny, ask, allow
    assert [a["ask_resolved"] for a in project.answers()] == ["deferred tool: approved"]


def test_missing_framework_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['pydantic_ai'] = None\n"
        "try:\n    import hookwise.integrations.pydantic_ai\n"
        "except ImportError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert 'pip install "hookwise[pydantic-ai]"' in done.stdout
