"""Scenario files: the format parses into typed specs, and every mistake is an error
naming the file, the line and the key."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from hookwise.protocol.claude import STOP_FAILURE_ERRORS
from hookwise.sim.scenario import (
    CHECKS,
    Scenario,
    ScenarioError,
    load_scenario,
    parse_scenario,
)
from tests.strategies import json_values

PATH = Path("/s/scenario.yaml")


def parse(text: str) -> Scenario:
    return parse_scenario(textwrap.dedent(text), PATH)


def error(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    return info.value


def test_a_full_scenario() -> None:
    scenario = parse(
        """\
        name: demo
        host: gemini
        profile: gemini-cli
        workspace: ws
        settings: none
        hooks:
          BeforeTool: [{hooks: [{type: command, command: "true"}]}]
        model_name: gemini-x
        tools:
          read_file: {result: body}
          fail: {result: {error: boom}}
        session: {start: resume, end: null}
        default_reply: {text: "?"}
        max_model_calls: 4
        steps:
          - user: hello
            model:
              - text: hi
              - chunks: [a, b]
                finish_reason: MAX_TOKENS
              - calls:
                  - name: run_shell_command
                    args: {command: ls}
                    result: "a b"
                    approve: false
                    confirm: exec
              - raw: [{candidates: []}]
            hook_turns:
              - model: [{text: follow}]
            compress: auto
          - compress: manual
        expect:
          - fired: BeforeTool
            turn: 1
            effect: {action: block}
          - turns: 2
        """
    )
    assert scenario.name == "demo" and scenario.host == "gemini"
    assert scenario.workspace == Path("/s/ws") and scenario.settings == "none"
    assert scenario.hooks == {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}
    assert scenario.hooks_line == 6
    assert scenario.tools == {"read_file": "body", "fail": {"error": "boom"}}
    assert (scenario.start, scenario.end) == ("resume", None)
    assert scenario.default_reply.chunks == ("?",)
    user, compress = scenario.steps
    assert user.kind == "user" and user.user == "hello" and user.line == 16
    text, chunks, calls, raw = user.model
    assert text.chunks == ("hi",)
    assert chunks.chunks == ("a", "b") and chunks.finish_reason == "MAX_TOKENS"
    (tool_call,) = calls.calls
    assert (tool_call.name, tool_call.args, tool_call.result) == (
        "run_shell_command",
        {"command": "ls"},
        "a b",
    )
    assert tool_call.approve is False and tool_call.confirm == "exec" and tool_call.line == 22
    assert raw.raw == ({"candidates": []},)
    assert user.hook_turns[0][0].chunks == ("follow",)
    assert user.compress == "auto"
    assert compress.kind == "compress" and compress.compress == "manual"
    first, second = scenario.expect
    assert (first.check, first.value, first.options, first.line) == (
        "fired",
        "BeforeTool",
        {"turn": 1, "effect": {"action": "block"}},
        33,
    )
    assert (second.check, second.value) == ("turns", 2)


def test_defaults() -> None:
    scenario = parse("steps: [{user: hi}]\n")
    assert scenario.name == "scenario" and scenario.host is None and scenario.settings == "project"
    assert scenario.workspace == Path("/s") and (scenario.start, scenario.end) == (
        "startup",
        "exit",
    )
    assert scenario.steps[0].model == () and scenario.max_model_calls == 10


@pytest.mark.parametrize(
    ("text", "line", "key", "message"),
    [
        ("", None, None, "empty scenario"),
        ("- a\n", 1, None, "must be a mapping (the scenario), got a list"),
        ("name: x\n", 1, "steps", "missing required key 'steps'"),
        ("steps: []\n", 1, "steps", "needs at least one step"),
        ("stpes: []\nsteps: [{user: a}]\n", 1, "stpes", "did you mean 'steps'?"),
        ("steps: [{user: a}]\nsteps: [{user: b}]\n", 2, "steps", "duplicate key"),
        ("steps:\n  - user: a\n    modle: []\n", 3, "steps[0].modle", "did you mean 'model'?"),
        ("steps:\n  - model: []\n", 2, "steps[0]", "missing required key 'user'"),
        ("steps:\n  - user: [a]\n", 2, "steps[0].user", "must be a string, got a list"),
        ("steps:\n  - user: 5\n", 2, "steps[0].user", "must be a string, got an integer"),
        ("steps:\n  - user: a\n    model: [{}]\n", 3, "steps[0].model[0]", "a reply needs"),
        (
            "steps:\n  - user: a\n    model:\n      - text: x\n        chunks: [y]\n",
            5,
            "steps[0].model[0].chunks",
            "give 'text' or 'chunks', not both",
        ),
        (
            "steps:\n  - user: a\n    model:\n      - calls:\n          - args: {}\n",
            5,
            "steps[0].model[0].calls[0]",
            "missing required key 'name'",
        ),
        (
            "steps:\n  - user: a\n    model:\n      - calls: [{name: x, confirm: maybe}]\n",
            4,
            "steps[0].model[0].calls[0].confirm",
            "must be one of exec, edit, mcp, info",
        ),
        (
            "steps:\n  - user: a\n    model:\n      - calls: [{name: x, args: {when: 2024-01-01}}]\n",
            4,
            "steps[0].model[0].calls[0].args",
            "reads as a date; quote it",
        ),
        (
            "steps:\n  - user: a\n    model:\n      - calls: [{name: x, args: {1: a}}]\n",
            4,
            "steps[0].model[0].calls[0].args",
            "mapping keys must be strings",
        ),
        (
            "steps:\n  - user: a\n    model:\n      - raw: [{a: 1}]\n        text: x\n",
            4,
            "steps[0].model[0].raw",
            "'raw' replaces 'text'",
        ),
        ("steps:\n  - compress: auto\n    model: []\n", 3, "steps[0].model", "unknown key"),
        ("host: vim\nsteps: [{user: a}]\n", 1, "host", "must be one of gemini, claude, codex"),
        ("settings: all\nsteps: [{user: a}]\n", 1, "settings", "must be one of project, none"),
        ("max_model_calls: 0\nsteps: [{user: a}]\n", 1, "max_model_calls", "at least 1"),
        ("tools: {x: {reslt: 1}}\nsteps: [{user: a}]\n", 1, "tools.x.reslt", "unknown key"),
        (
            "tools: {x: {result: {}}}\nsteps: [{user: a}]\n",
            1,
            "tools.x.result",
            "needs 'llmContent'",
        ),
        ("steps: [{user: a}]\nexpect: [turns: 1]\n", 2, None, None),
        (
            "steps: [{user: a}]\nexpect:\n  - {}\n",
            3,
            "expect[0]",
            "needs exactly one check (found none)",
        ),
        (
            "steps: [{user: a}]\nexpect:\n  - turns: 1\n    answer: x\n",
            3,
            "expect[0]",
            "needs exactly one check (found turns, answer)",
        ),
        (
            "steps: [{user: a}]\nexpect:\n  - turns: 1\n    turn: 2\n",
            4,
            "expect[0].turn",
            "unknown key (expected one of: turns)",
        ),
        (
            "steps: [{user: a}]\nexpect:\n  - turns: many\n",
            3,
            "expect[0].turns",
            "must be an integer",
        ),
        (
            "steps: [{user: a}]\nexpect:\n  - outcome: happy\n",
            3,
            "expect[0].outcome",
            "must be one of completed, blocked",
        ),
        (
            "steps: [{user: a}]\nexpect:\n  - answer: x\n    turn: 0\n",
            4,
            "expect[0].turn",
            "numbered from 1",
        ),
        ("steps: [{user: a}\n", 2, None, "invalid YAML"),
        ("steps:\n  - ? [user]\n    : a\n", 2, "steps[0]", "keys must be strings"),
        ("steps: [{user: a}]\nexpect:\n  - ? {turns: 1}\n    : 1\n", 3, "expect[0]", "found none"),
        ("? [a]\n: 1\nsteps: [{user: a}]\n", 1, None, "keys must be strings"),
        ("steps:\n\t- user: a\n", 2, None, "invalid YAML"),
        ("a: 1\n---\nb: 2\n", 2, None, "invalid YAML"),
        ("steps: [{user: !!python/object:os.system a}]\n", 1, None, "invalid YAML value"),
    ],
)
def test_errors_name_file_line_and_key(
    text: str, line: int | None, key: str | None, message: str | None
) -> None:
    if message is None:  # "expect: [turns: 1]" is valid YAML: a one-key mapping
        parse(text)
        return
    err = error(text)
    assert (err.line, err.key) == (line, key), str(err)
    assert message in err.message, str(err)
    assert str(err).startswith(f"{PATH}:{line}:" if line else f"{PATH}:")


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="no such file"):
        load_scenario(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"steps: [{user: \xff}]")
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(bad)


def test_every_check_is_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "simulator.md").read_text()
    for check in CHECKS:
        assert f"`{check}`" in doc, check


# --- fuzzing -----------------------------------------------------------------------------

_top_keys = st.sampled_from(
    ["name", "host", "profile", "steps", "expect", "tools", "session", "hooks", "bogus"]
)
_step = st.fixed_dictionaries(
    {"user": st.one_of(st.text(max_size=10), st.integers())},
    optional={
        "model": st.lists(
            st.dictionaries(
                st.sampled_from(["text", "chunks", "calls", "raw", "finish_reason", "x"]),
                json_values,
                max_size=3,
            ),
            max_size=3,
        ),
        "compress": st.sampled_from(["auto", "manual", 3]),
        "hook_turns": json_values,
        "interrupt": st.one_of(st.booleans(), st.integers(), st.text(max_size=3)),
    },
)
_expectation = st.dictionaries(
    st.sampled_from([*CHECKS, "turn", "times", "tool", "effect", "text"]), json_values, max_size=3
)
_scenario = st.dictionaries(
    _top_keys,
    st.one_of(json_values, st.lists(_step, max_size=3), st.lists(_expectation, max_size=3)),
    max_size=6,
)


@given(_scenario)
def test_fuzz_structured_scenarios(data: dict[str, Any]) -> None:
    """Any YAML document gives a Scenario or a ScenarioError with a line inside the file."""
    text = yaml.safe_dump(data, sort_keys=False)
    try:
        parse_scenario(text, PATH)
    except ScenarioError as exc:
        if exc.line is not None:
            assert 1 <= exc.line <= text.count("\n") + 1, (str(exc), text)
        assert str(exc).startswith(str(PATH))


@given(st.text(max_size=300))
def test_fuzz_any_text(text: str) -> None:
    try:
        parse_scenario(text, PATH)
    except ScenarioError as exc:
        assert str(exc).startswith(str(PATH))


def test_a_step_interrupt_is_a_boolean() -> None:
    assert parse("steps: [{user: hi, interrupt: true}]\n").steps[0].interrupt is True
    assert parse("steps: [{user: hi}]\n").steps[0].interrupt is False
    bad = error("steps:\n  - user: hi\n    interrupt: soon\n")
    assert bad.line == 3 and "steps[0].interrupt" in str(bad), str(bad)


def test_project_names_the_folder_and_workspace_is_its_former_name() -> None:
    steps = "steps: [{user: hi}]\n"
    assert parse(f"project: p\n{steps}").workspace == Path("/s/p")
    assert parse(f"workspace: w\n{steps}").workspace == Path("/s/w")
    assert parse(steps).workspace == Path("/s")
    both = error(f"project: p\nworkspace: w\n{steps}")
    assert both.line == 2
    assert "workspace: is the former name of 'project'; give only one of them" in str(both)


# --- Claude Code's Setup, slash commands and API errors ------------------------------------


def test_setup_commands_and_api_errors_parse() -> None:
    scenario = parse(
        """\
        session: {setup: maintenance}
        commands:
          deploy: {prompt: "Deploy $ARGUMENTS", source: userSettings}
          "ns:fix": {prompt: Fix}
        steps:
          - user: /deploy prod
            model: [{api_error: {error: rate_limit, message: "429 slow"}}]
        """
    )
    assert scenario.setup == "maintenance"
    assert scenario.commands["deploy"].prompt == "Deploy $ARGUMENTS"
    assert scenario.commands["deploy"].source == "userSettings"
    assert scenario.commands["ns:fix"].source == "projectSettings"
    failure = scenario.steps[0].model[0].api_error
    assert failure is not None and (failure.error, failure.message) == ("rate_limit", "429 slow")
    assert parse("steps: [{user: a}]\n").setup is None


@pytest.mark.parametrize(
    ("text", "line", "key", "message"),
    [
        ("session: {setup: always}\nsteps: [{user: a}]\n", 1, "session.setup", "init, maintenance"),
        ("commands: [a]\nsteps: [{user: a}]\n", 1, "commands", "mapping of command names"),
        ("commands:\n  /x: {prompt: p}\nsteps: [{user: a}]\n", 2, "commands./x", "without the '/'"),
        (
            "commands:\n  x: {}\nsteps: [{user: a}]\n",
            2,
            "commands.x",
            "missing required key 'prompt'",
        ),
        ("commands:\n  x: {prompt: ''}\nsteps: [{user: a}]\n", 2, "commands.x.prompt", "empty"),
        (
            "commands:\n  x: {prompt: p, src: a}\nsteps: [{user: a}]\n",
            2,
            "commands.x.src",
            "source",
        ),
        (
            "steps:\n  - user: a\n    model:\n      - api_error: {error: boom}\n",
            4,
            "steps[0].model[0].api_error.error",
            "rate_limit, authentication_failed",
        ),
        (
            "steps:\n  - user: a\n    model:\n      - api_error: {error: unknown}\n        text: hi\n",
            5,
            "steps[0].model[0].text",
            "nothing else",
        ),
        (
            "steps:\n  - user: a\n    model:\n      - api_error: unknown\n",
            4,
            "steps[0].model[0].api_error",
            "must be a mapping",
        ),
        (
            "steps:\n  - user: a\n    model:\n      - api_error: {error: unknown, message: 4}\n",
            4,
            "steps[0].model[0].api_error.message",
            "must be a string",
        ),
    ],
)
def test_setup_commands_and_api_error_mistakes(
    text: str, line: int, key: str, message: str
) -> None:
    err = error(text)
    assert (err.line, err.key) == (line, key), str(err)
    assert message in err.message, str(err)


_command = st.fixed_dictionaries(
    {}, optional={"prompt": json_values, "source": json_values, "extra": json_values}
)
_good_command = st.fixed_dictionaries(
    {"prompt": st.text(min_size=1, max_size=8).filter(str.strip)},
    optional={"source": st.sampled_from(["userSettings", "projectSettings", "plugin"])},
)
_api_error = st.one_of(
    st.fixed_dictionaries(
        {"error": st.sampled_from(STOP_FAILURE_ERRORS)}, optional={"message": st.text(max_size=8)}
    ),
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "error": st.one_of(st.sampled_from(["unknown", "rate_limit", "boom"]), json_values),
            "message": json_values,
            "status": json_values,
        },
    ),
)


@given(
    setup=st.one_of(st.sampled_from(["init", "maintenance", "init-only"]), json_values),
    commands=st.one_of(
        st.dictionaries(st.from_regex(r"[a-z][a-z0-9:-]{0,5}", fullmatch=True), _good_command),
        st.dictionaries(st.text(min_size=1, max_size=6), _command, max_size=3),
        json_values,
    ),
    api_error=_api_error,
    text=st.one_of(st.none(), json_values),
)
def test_fuzz_setup_commands_and_api_errors(
    setup: Any, commands: Any, api_error: Any, text: Any
) -> None:
    """Whatever the values, the parse gives exactly what was written or an error naming
    the file, a line inside it and the key of the new field."""
    reply: dict[str, Any] = {"api_error": api_error}
    if text is not None:
        reply["text"] = text
    data = {
        "session": {"setup": setup},
        "commands": commands,
        "steps": [{"user": "/x", "model": [reply]}],
    }
    source = yaml.safe_dump(data, sort_keys=False)
    try:
        scenario = parse_scenario(source, PATH)
    except ScenarioError as exc:
        assert str(exc).startswith(str(PATH))
        assert exc.line is not None and 1 <= exc.line <= source.count("\n") + 1, str(exc)
        assert exc.key is not None
        assert exc.key.split(".")[0].split("[")[0] in ("session", "commands", "steps"), str(exc)
        return
    assert scenario.setup == setup
    assert set(scenario.commands) == set(commands)
    for name, spec in scenario.commands.items():
        assert spec.prompt == commands[name]["prompt"]
        assert spec.source == commands[name].get("source", "projectSettings")
    failure = scenario.steps[0].model[0].api_error
    assert text is None and failure is not None
    assert failure.error == api_error["error"]
    assert failure.message == api_error.get("message", "")
