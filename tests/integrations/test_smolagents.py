"""The smolagents bridge with the real framework, real agent runs and the fake model.

Each test runs a real ``ToolCallingAgent`` or ``CodeAgent`` whose ``OpenAIServerModel``
talks to the fake model's Chat Completions on 127.0.0.1 (``api_base``). smolagents replays
tool calls and results as text ("Calling tools:", "Observation:"), which the fake model
reads; a CodeAgent's turns are code (``code(...)`` steps). The test checks which tool
functions ran, what the next model request carried and what the audit log recorded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("smolagents", reason='pip install "hookwise[smolagents]"')

from smolagents import CodeAgent, OpenAIServerModel, Tool, ToolCallingAgent, tool

from hookwise.integrations.errors import PromptBlockedError, RunStoppedError
from hookwise.integrations.gate import Gate
from hookwise.integrations.smolagents import (
    CODE_TOOL,
    GatedTool,
    ToolCallDeniedError,
    _named_arguments,
    gate_of,
    guard,
)
from tests.e2e.fake_model import FINAL_TEXT, FakeModel, Script, call, code, tool_results
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
EXAMPLE = ROOT / "examples" / "integrations" / "smolagents_agent.py"
AGENT = "coder"
FRAMEWORK = "smolagents"

CODE_TOKEN = "CODE-DENY"
EXTRA_RULES = (
    lifecycle_rules("all done")
    + f"""\
  - id: no-subprocess-in-code
    match: {{tool: {CODE_TOOL}, fields: [{{path: input.code, op: contains, value: subprocess}}]}}
    action: deny
    reason: "{CODE_TOKEN}: no subprocess in code"
"""
)


def make_tool(shell: ShellTool) -> Tool:
    @tool
    def run_shell(command: str) -> str:
        """Run a shell command in the project.

        Args:
            command: the command line
        """
        return shell(command)

    return run_shell  # type: ignore[no-any-return]


def make_agent(
    fake: FakeModel,
    shell: ShellTool,
    project: Project,
    *,
    kind: type = ToolCallingAgent,
    **options: Any,
) -> Any:
    model = OpenAIServerModel(model_id="gpt-fake", api_base=f"{fake.url}/v1", api_key="dummy")
    agent = kind(tools=[make_tool(shell)], model=model, name=AGENT, max_steps=4, verbosity_level=0)
    return guard(agent, cwd=project.root, **options)


def chat_bodies(fake: FakeModel) -> list[dict[str, Any]]:
    return [r["body"] for r in fake.requests if r["path"].endswith("/chat/completions")]


def last_results(fake: FakeModel) -> list[str]:
    return tool_results(chat_bodies(fake)[-1])


def records(project: Project, event: str = "tool.before") -> list[dict[str, Any]]:
    return [r for r in project.audit() if r.get("event") == event]


def answer(text: str = "done") -> Any:
    return call("final_answer", answer=text)


# ------------------------------------------------------------------ ToolCallingAgent
def test_denied_command_never_runs_and_the_model_reads_the_reason(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    (project.root / "build").mkdir()
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND), answer()])
    assert make_agent(fake_model, shell_tool, project).run("clean the build") == "done"
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()
    (seen,) = last_results(fake_model)
    assert DENY_REASON in seen
    (record,) = records(project)
    assert record["framework"] == FRAMEWORK and record["agent"] == AGENT
    assert record["decision"] == "deny" and record["host_tool"] == "run_shell"


def test_allowed_command_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND), answer()])
    make_agent(fake_model, shell_tool, project).run("say hello")
    assert shell_tool.calls == [ALLOWED_COMMAND]
    (seen,) = last_results(fake_model)
    assert ALLOWED_OUTPUT in seen
    assert len(records(project, "tool.after")) == 1


def test_rewrite_changes_what_the_tool_runs(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=REWRITE_COMMAND), answer()])
    make_agent(fake_model, shell_tool, project).run("touch the marker")
    assert shell_tool.calls == [REWRITTEN_COMMAND]
    assert (project.root / "marker-rewritten").exists()
    assert not (project.root / "marker-original").exists()


def test_context_joins_the_observations(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=CONTEXT_COMMAND), answer()])
    make_agent(fake_model, shell_tool, project).run("where am I")
    assert shell_tool.calls == [CONTEXT_COMMAND]
    (seen,) = last_results(fake_model)
    assert CONTEXT_TEXT in seen and str(project.root) in seen


def test_parallel_calls_are_decided_one_by_one(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script(
        [
            [call("run_shell", command=DENIED_COMMAND), call("run_shell", command=ALLOWED_COMMAND)],
            answer(),
        ]
    )
    make_agent(fake_model, shell_tool, project).run("both")
    assert shell_tool.calls == [ALLOWED_COMMAND]
    seen = "\n".join(last_results(fake_model))
    assert DENY_REASON in seen and ALLOWED_OUTPUT in seen


def test_ask_goes_to_the_relay_and_without_one_the_fallback_denies(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND), answer()])
    make_agent(fake_model, shell_tool, project).run("which kernel")
    assert shell_tool.calls == []
    (seen,) = last_results(fake_model)
    assert ASK_REASON in seen
    assert [r["decision"] for r in records(project)] == ["ask"]
    (resolved,) = [r for r in project.audit() if r.get("ask_resolved")]
    assert resolved["decision"] == "deny"


def test_ask_fallback_allow_runs_the_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(
        POLICY.replace("version: 1\n", "version: 1\nsettings: {ask_fallback: allow}\n")
    )
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND), answer()])
    make_agent(fake_model, shell_tool, project).run("which kernel")
    assert shell_tool.calls == [ASK_COMMAND]


def test_existing_claude_code_hook_blocks_the_framework_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=HOOK_BLOCKED_COMMAND), answer()])
    make_agent(fake_model, shell_tool, project, hooks_from="claude").run("go")
    assert shell_tool.calls == []
    (seen,) = last_results(fake_model)
    assert HOOK_REASON in seen
    (payload,) = [p for p in project.hook_calls() if p["hook_event_name"] == "PreToolUse"]
    assert payload["tool_name"] == "Bash"


def test_denied_prompt_never_reaches_the_model(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    agent = make_agent(fake_model, shell_tool, project)
    with pytest.raises(PromptBlockedError, match=PROMPT_TOKEN):
        agent.run("my api key is sk-123")
    assert fake_model.requests == []


def test_a_denied_final_answer_sends_the_model_back_to_work(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    fake_model.script = Script([answer("all done"), answer("all done")])
    assert make_agent(fake_model, shell_tool, project).run("finish") == "all done"
    bodies = chat_bodies(fake_model)
    assert len(bodies) == 2
    assert RETRY_TOKEN in json.dumps(bodies[1]["messages"])
    assert [r["decision"] for r in records(project, "agent.stop")] == ["deny", "none"]


def test_stop_rule_ends_the_run(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    fake_model.script = Script([call("run_shell", command="shutdown -h now"), answer()])
    with pytest.raises(RunStoppedError, match=STOP_TOKEN):
        make_agent(fake_model, shell_tool, project).run("power off")
    assert shell_tool.calls == []
    assert len(chat_bodies(fake_model)) == 1


def test_a_broken_policy_fails_closed(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy("version: 1\nrules: [{id: x, action: nope}]\n")
    fake_model.script = Script([call("run_shell", command=ALLOWED_COMMAND), answer()])
    make_agent(fake_model, shell_tool, project).run("say hello")
    assert shell_tool.calls == []
    assert "policy.yaml" in last_results(fake_model)[0]


# ------------------------------------------------------------------ CodeAgent
def run_code(
    fake: FakeModel, shell: ShellTool, project: Project, source: str, **options: Any
) -> Any:
    fake.script = Script([code(source), code("final_answer('finished')")])
    return make_agent(fake, shell, project, kind=CodeAgent, **options).run("go")


def test_code_agent_denied_call_stops_the_snippet(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    (project.root / "build").mkdir()
    source = f"out = run_shell({DENIED_COMMAND!r})\nrun_shell({ALLOWED_COMMAND!r})"
    assert run_code(fake_model, shell_tool, project, source) == "finished"
    assert shell_tool.calls == []  # the denial raised: the rest of the snippet did not run
    (seen,) = last_results(fake_model)
    assert DENY_REASON in seen and "ToolCallDeniedError" in seen
    assert (project.root / "build").is_dir()


def test_code_agent_allowed_and_rewritten_calls(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    source = f"print(run_shell({ALLOWED_COMMAND!r}))\nrun_shell(command={REWRITE_COMMAND!r})"
    run_code(fake_model, shell_tool, project, source)
    assert shell_tool.calls == [ALLOWED_COMMAND, REWRITTEN_COMMAND]
    (seen,) = last_results(fake_model)
    assert ALLOWED_OUTPUT in seen


@pytest.mark.parametrize(
    ("source", "gated"),
    [
        (f"run_shell({{'command': {DENIED_COMMAND!r}}})", True),  # one dict argument
        (f"f = run_shell\nf(command={DENIED_COMMAND!r})", True),  # through another name
        (f"[run_shell(c) for c in [{DENIED_COMMAND!r}]]", True),
        (f"run_shell(*[{DENIED_COMMAND!r}])", True),
        # the wrapper's forward directly: the executor itself refuses these (if it ever
        # let them through, forward is where the gate sits)
        (f"run_shell.forward({DENIED_COMMAND!r})", False),
        (f"getattr(run_shell, 'forward')({DENIED_COMMAND!r})", False),
    ],
)
def test_code_agent_every_way_of_calling_the_tool_is_gated(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool, source: str, gated: bool
) -> None:
    (project.root / "build").mkdir()
    run_code(fake_model, shell_tool, project, source)
    assert shell_tool.calls == []
    assert (project.root / "build").is_dir()
    seen = last_results(fake_model)[0]
    assert "Code execution failed" in seen
    if gated:
        assert DENY_REASON in seen


@pytest.mark.parametrize(
    "source",
    [
        # the gated tool exposes nothing that leads to the real tool or the gate
        "print(sorted(a for a in dir(run_shell) if 'hookwise' in a or 'real' in a or 'guard' in a))",
        "print(run_shell.__dict__)",
    ],
)
def test_code_agent_cannot_reach_the_real_tool(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool, source: str
) -> None:
    run_code(fake_model, shell_tool, project, source)
    (seen,) = last_results(fake_model)
    assert "[]" in seen or "Forbidden" in seen or "dunder" in seen
    assert shell_tool.calls == []


def test_code_agent_snippet_itself_is_gated(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    project.write_policy(POLICY + EXTRA_RULES)
    source = f"# subprocess\nrun_shell({ALLOWED_COMMAND!r})"
    run_code(fake_model, shell_tool, project, source)
    assert shell_tool.calls == []
    assert CODE_TOKEN in last_results(fake_model)[0]
    (record,) = [
        r for r in records(project) if r["host_tool"] == CODE_TOOL and r["decision"] == "deny"
    ]
    assert record["framework"] == FRAMEWORK


def test_code_agent_existing_hook_blocks(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    run_code(
        fake_model, shell_tool, project, f"run_shell({HOOK_BLOCKED_COMMAND!r})", hooks_from="claude"
    )
    assert shell_tool.calls == []
    assert HOOK_REASON in last_results(fake_model)[0]


# ------------------------------------------------------------------ guard() itself
def test_guard_refuses_what_it_cannot_gate(project: Project, shell_tool: ShellTool) -> None:
    model = OpenAIServerModel(model_id="m", api_base="http://127.0.0.1:9/v1", api_key="x")
    agent = ToolCallingAgent(tools=[make_tool(shell_tool)], model=model)
    guard(agent, cwd=project.root)
    with pytest.raises(ValueError, match="already guarded"):
        guard(agent)
    assert isinstance(agent.tools["run_shell"], GatedTool)
    assert not isinstance(agent.tools["final_answer"], GatedTool)
    assert gate_of(agent).framework == FRAMEWORK and gate_of(agent).agent == ""
    with pytest.raises(TypeError):
        guard(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        guard(ToolCallingAgent(tools=[], model=model), Gate(FRAMEWORK), cwd="/")
    with pytest.raises(ValueError, match="not guarded"):
        gate_of(ToolCallingAgent(tools=[], model=model))


def test_a_gated_tool_without_a_guard_never_runs(shell_tool: ShellTool) -> None:
    real = make_tool(shell_tool)
    orphan = GatedTool.__new__(GatedTool)
    orphan.name = real.name
    with pytest.raises(ToolCallDeniedError):
        orphan.forward(command=ALLOWED_COMMAND)
    assert shell_tool.calls == []


def test_named_arguments(shell_tool: ShellTool) -> None:
    real = make_tool(shell_tool)
    assert _named_arguments(real, ("ls",), {}) == {"command": "ls"}
    assert _named_arguments(real, ({"command": "ls"},), {}) == {"command": "ls"}
    assert _named_arguments(real, (), {"command": "ls"}) == {"command": "ls"}
    with pytest.raises(TypeError):
        _named_arguments(real, ("a", "b"), {})
    with pytest.raises(TypeError):
        _named_arguments(real, ("a",), {"command": "b"})


@settings(max_examples=200, deadline=None)
@given(
    args=st.lists(
        st.one_of(st.text(), st.integers(), st.dictionaries(st.text(), st.text())), max_size=3
    ),
    kwargs=st.dictionaries(st.text(min_size=1), st.text(), max_size=3),
)
def test_named_arguments_never_loses_or_invents_an_argument(
    args: list[Any], kwargs: dict[str, str]
) -> None:
    """Whatever a snippet passes, the gate sees every argument the real tool would get."""
    real = make_tool(ShellTool(Path("/")))
    try:
        named = _named_arguments(real, tuple(args), dict(kwargs))
    except TypeError:
        return
    if (
        len(args) == 1
        and not kwargs
        and isinstance(args[0], dict)
        and all(k in real.inputs for k in args[0])
    ):
        assert named == args[0]
    else:
        assert len(named) == len(args) + len(kwargs)
        for key, value in kwargs.items():
            assert named[key] == value


# ------------------------------------------------------------------ the example, the extra
@pytest.mark.parametrize("kind", ["tool", "code"])
def test_the_example_runs(project: Project, fake_model: FakeModel, kind: str) -> None:
    (project.root / "build").mkdir()
    if kind == "tool":
        steps: list[Any] = [
            call("run_shell", command=DENIED_COMMAND),
            call("run_shell", command=ALLOWED_COMMAND),
            answer(FINAL_TEXT),
        ]
    else:
        steps = [
            code(f"run_shell({DENIED_COMMAND!r})"),
            code(f"print(run_shell({ALLOWED_COMMAND!r}))"),
            code(f"final_answer({FINAL_TEXT!r})"),
        ]
    fake_model.script = Script(steps)
    env = {**os.environ, "OPENAI_BASE_URL": f"{fake_model.url}/v1", "OPENAI_API_KEY": "dummy"}
    argv = [sys.executable, str(EXAMPLE), "--cwd", str(project.root), "clean up"]
    done = subprocess.run(
        [*argv, "--code"] if kind == "code" else argv,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == FINAL_TEXT
    assert (project.root / "build").is_dir()
    seen = "\n".join(fake_model.tool_results())
    assert DENY_REASON in seen and ALLOWED_OUTPUT in seen


def test_missing_framework_names_the_extra() -> None:
    source = (
        "import sys; sys.modules['smolagents'] = None\n"
        "try:\n    import hookwise.integrations.smolagents\n"
        "except ImportError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", source], capture_output=True, text=True, check=True, timeout=60
    )
    assert 'pip install "hookwise[smolagents]"' in done.stdout


def test_forward_called_from_python_is_gated_too(project: Project, shell_tool: ShellTool) -> None:
    model = OpenAIServerModel(model_id="m", api_base="http://127.0.0.1:9/v1", api_key="x")
    agent = guard(ToolCallingAgent(tools=[make_tool(shell_tool)], model=model), cwd=project.root)
    gated = agent.tools["run_shell"]
    assert DENY_REASON in gated.forward(command=DENIED_COMMAND)
    assert DENY_REASON in gated(DENIED_COMMAND)
    assert shell_tool.calls == []
    code_agent = guard(CodeAgent(tools=[make_tool(shell_tool)], model=model), cwd=project.root)
    with pytest.raises(ToolCallDeniedError, match="POLICY-DENY"):
        code_agent.tools["run_shell"].forward(DENIED_COMMAND)
    assert shell_tool.calls == []


def test_hookwise_logs_filters_the_bridges_records(
    project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=DENIED_COMMAND), answer()])
    make_agent(fake_model, shell_tool, project).run("clean")
    cli = [sys.executable, "-m", "hookwise", "logs", "--json"]

    def logged(*filters: str) -> list[dict[str, Any]]:
        done = subprocess.run(
            [*cli, *filters], capture_output=True, text=True, check=True, timeout=60
        )
        return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]

    denied = logged("--framework", FRAMEWORK, "--agent", AGENT, "--decision", "deny")
    assert [r["command"] for r in denied] == [DENIED_COMMAND]
    assert logged("--framework", "pydantic-ai") == []
    assert logged("--framework", FRAMEWORK, "--agent", "someone-else") == []
