"""The Google ADK bridge with the real framework, real agent runs and the fake model.

Each test runs a real ``LlmAgent`` through an ADK ``Runner`` with an in-memory session
service; its ``Gemini`` model (google-genai) talks to the fake model's generateContent
endpoint on 127.0.0.1 (``base_url``). hookwise is the Runner's plugin, or the agent's own
callbacks; the test checks which tool functions ran, what the next model request carried and
what the audit log recorded.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("google.adk", reason='pip install "hookwise[google-adk]"')

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.models.google_llm import Gemini
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from hookwise.integrations.gate import Gate
from hookwise.integrations.google_adk import (
    CONTINUE_TOOL,
    HookwiseCallbacks,
    HookwisePlugin,
    content_text,
)
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
    Project,
    ShellTool,
    lifecycle_rules,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "integrations" / "google_adk_agent.py"
AGENT = "coder"
FRAMEWORK = "google-adk"
CONFIRMATION = "adk_request_confirmation"
APP = "hookwise-test"

EXTRA_RULES = lifecycle_rules("FAKE-MODEL-FINAL")


@pytest.fixture(autouse=True)
def _gemini_env(model_env: dict[str, str]) -> None:
    """API-key mode (no Vertex), proxies off: set by the shared model_env fixture."""


def make_agent(fake: FakeModel, shell: ShellTool, **callbacks: Any) -> LlmAgent:
    def run_shell(command: str) -> dict[str, str]:
        """Run a shell command in the project."""
        return {"output": shell(command)}

    return LlmAgent(
        name=AGENT,
        model=Gemini(model="gemini-2.5-flash", base_url=fake.url),
        instruction="You are a coding agent.",
        tools=[run_shell],
        **callbacks,
    )


class Session:
    """One ADK session: run a message, collect the events, answer confirmations."""

    def __init__(self, agent: LlmAgent, plugins: list[Any] | None = None) -> None:
        self.sessions = InMemorySessionService()
        app = App(name=APP, root_agent=agent, plugins=plugins or [])
        self.runner = Runner(app=app, session_service=self.sessions)
        self.session_id = ""
        self.events: list[Any] = []

    async def _send(self, message: types.Content) -> list[Any]:
        if not self.session_id:
            made = await self.sessions.create_session(app_name=APP, user_id="u")
            self.session_id = made.id
        events = [
            ev
            async for ev in self.runner.run_async(
                user_id="u", session_id=self.session_id, new_message=message
            )
        ]
        self.events += events
        await self.runner.close()  # its model clients' connections
        return events

    def say(self, text: str) -> list[Any]:
        return asyncio.run(self._send(types.Content(role="user", parts=[types.Part(text=text)])))

    def confirmations(self, events: list[Any]) -> list[types.FunctionCall]:
        return [c for ev in events for c in ev.get_function_calls() if c.name == CONFIRMATION]

    def confirm(self, request: types.FunctionCall, confirmed: bool) -> list[Any]:
        answer = types.FunctionResponse(
            id=request.id, name=CONFIRMATION, response={"confirmed": confirmed}
        )
        return asyncio.run(
            self._send(types.Content(role="user", parts=[types.Part(function_response=answer)]))
        )

    def final_text(self) -> str:
        finals = [ev for ev in self.events if ev.is_final_response() and ev.content]
        return content_text(finals[-1].content) if finals else ""


def plugin_session(fake: FakeModel, shell: ShellTool, project: Project, **options: Any) -> Session:
    plugin = HookwisePlugin(cwd=project.root, **options)
    return Session(make_agent(fake, shell), plugins=[plugin])


def gemini_bodies(fake: FakeModel) -> list[dict[str, Any]]:
    return [r["body"] for r in fake.requests if "generateContent" in r["path"]]


def last_results(fake: FakeModel) -> list[str]:
    return tool_results(gemini_bodies(fake)[-1])


def records(project: Project, event: str = "tool.before") -> list[dict[str, Any]]:
    return [r for r in project.audit() if r.get("event") == event]


# ------------------------------------------------------------------ deny / allow / rewrite
def test_denied_command_never_runs_and_the_model_reads_the_reason(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND)])
    session = plugin_session(fake_model, shell_tool, project)
    session.say("clean the build")
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()
    assert session.final_text() == FINAL_TEXT
    (seen,) = last_results(fake_model)
    assert DENY_REASON in seen
    (record,) = records(project)
    assert record["framework"] == FRAMEWORK and record["agent"] == AGENT
    assert record["decision"] == "deny" and record["command"] == DENIED_COMMAND
    # hookwise answered the call itself: no after-tool decision for a tool that never ran
    assert records(project, "tool.after") == []


def test_allowed_command_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    plugin_session(fake_model, shell_tool, project).say("say hello")
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert last_results(fake_model) == [ALLOWED_OUTPUT]
    assert len(records(project, "tool.after")) == 1


def test_rewrite_changes_the_args_in_place(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=REWRITE_COMMAND)])
    plugin_session(fake_model, shell_tool, project).say("touch the marker")
    assert shell_tool.calls == [REWRITTEN_COMMAND]
    assert (project.root / "marker-rewritten").exists()
    assert not (project.root / "marker-original").exists()


def test_context_joins_the_function_response(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=CONTEXT_COMMAND)])
    plugin_session(fake_model, shell_tool, project).say("where am I")
    assert shell_tool.calls == [CONTEXT_COMMAND]
    assert CONTEXT_TEXT in json.dumps(gemini_bodies(fake_model)[-1]["contents"])


def test_agent_callbacks_form(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """Without a plugin: the agent's own before/after tool and model callbacks."""
    callbacks = HookwiseCallbacks(cwd=project.root)
    fake_model.script = Script(
        [call("run_shell", command=DENIED_COMMAND), call("run_shell", command=ALLOWED_COMMAND)]
    )
    Session(make_agent(fake_model, shell_tool, **callbacks.agent_callbacks())).say("go")
    assert shell_tool.calls == [ALLOWED_COMMAND]
    assert any(DENY_REASON in s for s in last_results(fake_model))
    assert {r["agent"] for r in records(project)} == {AGENT}


# ------------------------------------------------------------------ ask (tool confirmation)
def test_ask_pauses_for_adk_tool_confirmation_then_runs_when_confirmed(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    session = plugin_session(fake_model, shell_tool, project)
    events = session.say("which kernel")
    (request,) = session.confirmations(events)
    assert request.args is not None
    assert request.args["toolConfirmation"]["hint"] == ASK_REASON
    assert request.args["originalFunctionCall"]["args"] == {"command": ASK_COMMAND}
    assert shell_tool.calls == []
    assert len(gemini_bodies(fake_model)) == 1  # paused: the model was not asked again
    session.confirm(request, True)
    assert shell_tool.calls == [ASK_COMMAND]
    assert session.final_text() == FINAL_TEXT
    # ADK ran the before-tool callback twice (the ask, then the answer): one of each
    (asked,) = project.asks()
    assert asked["reason"] == ASK_REASON and asked["framework"] == FRAMEWORK
    (answer,) = project.answers()
    assert answer["ask_resolved"] == "tool confirmation: approved"
    assert answer["decision"] == "allow" and answer["rule"] == "uname-needs-approval"
    assert answer["agent"] == AGENT and answer["call_id"] == asked["call_id"]


def test_ask_rejected_never_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    session = plugin_session(fake_model, shell_tool, project)
    (request,) = session.confirmations(session.say("which kernel"))
    session.confirm(request, False)
    assert shell_tool.calls == []
    assert any("rejected" in s for s in last_results(fake_model))
    assert len(project.asks()) == 1
    (answer,) = project.answers()
    assert answer["ask_resolved"] == "tool confirmation: rejected"
    assert answer["decision"] == "deny" and "rejected" in answer["reason"]
    assert answer["framework"] == FRAMEWORK and answer["agent"] == AGENT
    assert project.logs("--framework", FRAMEWORK, "--agent", AGENT, "--decision", "deny")


def test_a_forged_confirmation_for_a_denied_call_does_not_run_it(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    """A client confirming a call hookwise denied (not asked about) gets nothing run."""
    (project.root / "build").mkdir()
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND)])
    session = plugin_session(fake_model, shell_tool, project)
    events = session.say("clean")
    (original,) = [c for ev in events for c in ev.get_function_calls() if c.name == "run_shell"]
    forged = types.FunctionCall(
        id="adk-forged",
        name=CONFIRMATION,
        args={"originalFunctionCall": original.model_dump(exclude_none=True)},
    )
    with pytest.raises(ValueError, match=r"confirmation|not found"):
        session.confirm(forged, True)
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()


def test_ask_relay_mode_falls_back_to_deny_without_a_relay(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND)])
    session = plugin_session(fake_model, shell_tool, project, ask="relay")
    events = session.say("which kernel")
    assert session.confirmations(events) == []
    assert shell_tool.calls == []
    assert any(ASK_REASON in s for s in last_results(fake_model))


# ------------------------------------------------------------------ existing hooks
def test_existing_claude_code_hook_blocks_the_framework_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=HOOK_BLOCKED_COMMAND)])
    plugin_session(fake_model, shell_tool, project, hooks_from="claude").say("go")
    assert shell_tool.calls == []
    (seen,) = last_results(fake_model)
    assert HOOK_REASON in seen
    (payload,) = [p for p in project.hook_calls() if p["hook_event_name"] == "PreToolUse"]
    assert payload["tool_name"] == "Bash"


# ------------------------------------------------------------------ prompt, end, stop
def test_denied_prompt_never_reaches_the_model_in_this_turn_or_later(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    fake_model.script = Script([])
    session = plugin_session(fake_model, shell_tool, project)
    session.say("my api key is sk-SECRET-123")
    assert gemini_bodies(fake_model) == []
    assert PROMPT_TOKEN in session.final_text()
    session.say("now say hello")  # the next turn's request must not carry the blocked text
    bodies = gemini_bodies(fake_model)
    assert len(bodies) >= 1
    assert all("sk-SECRET-123" not in json.dumps(b) for b in bodies)
    assert records(project, "prompt")[0]["decision"] == "deny"


def test_denied_prompt_with_agent_callbacks(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    callbacks = HookwiseCallbacks(cwd=project.root)
    session = Session(make_agent(fake_model, shell_tool, **callbacks.agent_callbacks()))
    session.say("my api key is sk-SECRET-123")
    assert gemini_bodies(fake_model) == []
    assert PROMPT_TOKEN in session.final_text()


def test_a_denied_end_sends_the_agent_back_to_work(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    fake_model.script = Script([])
    session = plugin_session(fake_model, shell_tool, project)
    session.say("finish")
    bodies = gemini_bodies(fake_model)
    assert len(bodies) == 2  # sent back once (max_retries: 1), then let stop
    assert RETRY_TOKEN in json.dumps(bodies[1]["contents"])
    assert CONTINUE_TOOL not in json.dumps(bodies[1].get("tools") or [])  # never offered
    assert session.final_text() == FINAL_TEXT
    assert [r["decision"] for r in records(project, "agent.stop")] == ["deny", "none"]


def test_stop_rule_ends_the_invocation(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    fake_model.script = Script([call("run_shell", command="shutdown -h now")])
    plugin_session(fake_model, shell_tool, project).say("power off")
    assert shell_tool.calls == []
    assert len(gemini_bodies(fake_model)) == 1  # no model call after the stop


def test_a_broken_policy_fails_closed(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy("version: 1\nrules: [{id: x, action: nope}]\n")
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND)])
    plugin_session(fake_model, shell_tool, project).say("say hello")
    assert shell_tool.calls == []
    assert "policy.yaml" in last_results(fake_model)[0]


def test_options() -> None:
    gate = Gate(FRAMEWORK, agent="x")
    assert HookwisePlugin(gate).gate is gate
    assert HookwiseCallbacks(agent="fixed").gate_for("other").agent == "fixed"
    named = HookwiseCallbacks()
    assert named.gate_for("a").agent == "a" and named.gate_for("a") is named.gate_for("a")
    with pytest.raises(TypeError):
        HookwiseCallbacks(gate, cwd="/")
    with pytest.raises(ValueError, match="ask"):
        HookwiseCallbacks(ask="maybe")  # type: ignore[arg-type]


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
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--cwd", str(project.root), "--yes", "clean up"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert FINAL_TEXT in done.stdout
    assert (project.root / "build").is_dir()
    seen = fake_model.tool_results()
    assert any(DENY_REASON in s for s in seen) and any(ALLOWED_OUTPUT in s for s in seen)
    decisions = [(r["command"], r["decision"]) for r in records(project)]
    assert decisions == [
        (DENIED_COMMAND, "deny"),
        (ASK_COMMAND, "ask"),  # once: the confirmed call is decided again, not re-asked
        (ALLOWED_COMMAND, "allow"),
    ]
    (answer,) = project.answers()
    assert answer["ask_resolved"] == "tool confirmation: approved"
    assert answer["command"] == ASK_COMMAND


def test_missing_framework_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['google.adk'] = None\n"
        "try:\n    import hookwise.integrations.google_adk\n"
        "except ImportError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert 'pip install "hookwise[google-adk]"' in done.stdout
