"""The simulator's Setup, UserPromptExpansion and StopFailure steps against the records of
Claude Code 2.1.330 (tests/e2e/fixtures/claude-events/events.json, `claude -p --init
/hello`; claude-handlers/stop-failure.json, an HTTP 400 after a tool call): the events
fire in the recorded order with the recorded inputs, and their answers count as the CLI
counts them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.sim.scenario import ScenarioError
from tests.sim.conftest import answer, fired, hooks_for, play_obj, records

FIXTURES = Path(__file__).resolve().parents[1] / "e2e" / "fixtures"
EVENTS = json.loads((FIXTURES / "claude-events" / "events.json").read_text())
STOP_FAILURE = json.loads((FIXTURES / "claude-handlers" / "stop-failure.json").read_text())
# what differs from run to run: the session, its paths, the ids the CLI makes up
PER_RUN = {"session_id", "transcript_path", "cwd", "prompt_id", "tool_use_id", "turn_id"}
PER_RUN |= {"message_id", "effort"}


def recorded(record: dict[str, Any], event: str) -> list[dict[str, Any]]:
    return [f["input"] for f in record["fired"] if f["event"] == event]


def comparable(sent: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sent.items() if k not in PER_RUN}


def every_event_logged(events: list[str]) -> dict[str, Any]:
    hooks: dict[str, Any] = {}
    for event in events:
        hooks.update(hooks_for(event, "cat > /dev/null"))
    return hooks


def bash_call(record: dict[str, Any]) -> dict[str, Any]:
    (pre,) = recorded(record, "PreToolUse")
    return {"name": pre["tool_name"], "args": pre["tool_input"]}


def test_init_and_a_slash_command_fire_in_the_recorded_order(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("notes\n")
    (final,) = recorded(EVENTS, "Stop")
    (ended,) = recorded(EVENTS, "SessionEnd")
    (expansion,) = recorded(EVENTS, "UserPromptExpansion")
    result = play_obj(
        tmp_path,
        {
            "host": "claude",
            "hooks": every_event_logged(EVENTS["hooked"]),
            "session": {"setup": "init", "end": ended["reason"]},
            "commands": {
                expansion["command_name"]: {
                    "prompt": "Write the marker file",
                    "source": expansion["command_source"],
                }
            },
            "steps": [
                {
                    "user": expansion["prompt"],
                    "model": [
                        {"calls": [bash_call(EVENTS)]},
                        {"text": final["last_assistant_message"]},
                    ],
                }
            ],
        },
    )
    played = records(result, "hook_event")
    assert [r["event"] for r in played] == [f["event"] for f in EVENTS["fired"]]
    # SessionStart too: a startup input has no model (the CLI passes it on resume, fork and
    # compact only), and the simulator's is the CLI's
    for event in ("Setup", "SessionStart", "UserPromptSubmit", "UserPromptExpansion"):
        (got,) = (r["input"] for r in played if r["event"] == event)
        (sent,) = recorded(EVENTS, event)
        assert comparable(got) == comparable(sent), event
        assert list(comparable(got)) == list(comparable(sent)), event  # and in its order
    # the expansion names the prompt the submit named; the model reads the expansion
    submit, expand = (
        fired(result, e)[0]["input"] for e in ("UserPromptSubmit", "UserPromptExpansion")
    )
    assert expand["prompt_id"] == submit["prompt_id"]
    first = json.dumps(records(result, "model_call")[0]["request"])
    assert "Write the marker file" in first and '"/hello"' not in first


def test_an_api_error_fires_stop_failure_instead_of_stop(tmp_path: Path) -> None:
    (sent,) = recorded(STOP_FAILURE, "StopFailure")
    message = sent["last_assistant_message"].removeprefix("API Error: ")
    result = play_obj(
        tmp_path,
        {
            "host": "claude",
            "hooks": every_event_logged(list(STOP_FAILURE["hooks"])),
            "steps": [
                {
                    "user": "go",
                    "model": [
                        {"calls": [{"name": "Bash", "args": {"command": "echo hi > marker"}}]},
                        {"api_error": {"error": sent["error"], "message": message}},
                    ],
                }
            ],
        },
    )
    played = [r for r in records(result, "hook_event") if r["event"] in STOP_FAILURE["hooks"]]
    assert [r["event"] for r in played] == [f["event"] for f in STOP_FAILURE["fired"]]
    (got,) = (r["input"] for r in played)
    assert comparable(got) == comparable(sent)
    assert list(comparable(got)) == list(comparable(sent))
    assert STOP_FAILURE["tool_ran"] is True
    assert [c["status"] for c in records(result, "tool_call")] == ["ran"]
    (outcome,) = records(result, "turn_outcome")
    assert outcome["outcome"] == "failed" and outcome["reason"] == sent["last_assistant_message"]


def test_stop_failure_answers_are_discarded(tmp_path: Path) -> None:
    """json_honoured=False, exit 2 ignored: no retry, no stop, the next turn plays."""
    hooks = hooks_for("StopFailure", "echo 'try again' >&2; exit 2")
    hooks.update(hooks_for("UserPromptSubmit", answer({"continue": True})))
    result = play_obj(
        tmp_path,
        {
            "host": "claude",
            "hooks": hooks,
            "steps": [
                {"user": "one", "model": [{"api_error": {"error": "rate_limit"}}]},
                {"user": "two", "model": [{"text": "fine"}]},
            ],
        },
    )
    outcomes = [r["outcome"] for r in records(result, "turn_outcome")]
    assert outcomes == ["failed", "completed"]
    (stop_failure,) = fired(result, "StopFailure")
    assert stop_failure["input"]["last_assistant_message"] == "API Error: "
    assert len(records(result, "model_call", 1)) == 1  # no retry after the failure


def test_setup_context_joins_the_session(tmp_path: Path) -> None:
    context = {"hookSpecificOutput": {"hookEventName": "Setup", "additionalContext": "set up!"}}
    result = play_obj(
        tmp_path,
        {
            "host": "claude",
            "hooks": hooks_for("Setup", answer(context), matcher="maintenance"),
            "session": {"setup": "maintenance"},
            "steps": [{"user": "hi", "model": [{"text": "ok"}]}],
        },
    )
    assert fired(result, "Setup")[0]["input"]["trigger"] == "maintenance"
    contents = records(result, "model_call")[0]["request"]["contents"]
    assert contents[0] == {"role": "user", "parts": [{"text": "set up!"}]}


def test_without_setup_in_the_scenario_setup_does_not_fire(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {"host": "claude", "hooks": hooks_for("Setup", "true"), "steps": [{"user": "hi"}]},
    )
    assert not fired(result, "Setup")


def test_an_expansion_block_ends_the_turn_and_context_is_added(tmp_path: Path) -> None:
    commands = {"deploy": {"prompt": "Deploy $ARGUMENTS now"}, "fix": {"prompt": "Fix it"}}
    block = (
        'grep -q \'"command_name":"deploy"\' && { echo "no deploys today" >&2; exit 2; };'
        + answer(
            {
                "hookSpecificOutput": {
                    "hookEventName": "UserPromptExpansion",
                    "additionalContext": "run the tests first",
                }
            }
        ).removeprefix("cat >/dev/null;")
    )
    result = play_obj(
        tmp_path,
        {
            "host": "claude",
            "hooks": hooks_for("UserPromptExpansion", block),
            "commands": commands,
            "steps": [
                {"user": "/deploy prod", "model": [{"text": "never"}]},
                {"user": "/fix  the bug ", "model": [{"text": "fixed"}]},
                {"user": "/unknown thing", "model": [{"text": "as typed"}]},
            ],
        },
    )
    first, second, third = (records(result, "turn_outcome", n)[0] for n in (1, 2, 3))
    assert first["outcome"] == "blocked" and "no deploys today" in first["reason"]
    assert not records(result, "model_call", 1)
    assert second["outcome"] == third["outcome"] == "completed"
    (fix,) = (r["input"] for r in fired(result, "UserPromptExpansion", 2))
    assert (fix["command_name"], fix["command_args"]) == ("fix", "the bug")
    assert fix["command_source"] == "projectSettings" and fix["expansion_type"] == "slash_command"
    request = json.dumps(records(result, "model_call", 2)[0]["request"])
    assert "Fix it" in request and "run the tests first" in request
    # a /name the scenario does not define is sent as typed, with no expansion
    assert not fired(result, "UserPromptExpansion", 3)
    assert "/unknown thing" in json.dumps(records(result, "model_call", 3)[0]["request"])


@pytest.mark.parametrize(
    ("host", "scenario", "key"),
    [
        ("codex", {"session": {"setup": "init"}}, "session.setup"),
        ("gemini", {"session": {"setup": "init"}}, "session.setup"),
        ("codex", {"commands": {"hello": {"prompt": "hi"}}}, "commands"),
        ("gemini", {"default_reply": {"api_error": {"error": "unknown"}}}, "default_reply"),
        (
            "codex",
            {"steps": [{"user": "a", "model": [{"api_error": {"error": "unknown"}}]}]},
            "steps[0].model[0].api_error",
        ),
    ],
)
def test_a_host_without_the_event_refuses_its_step(
    tmp_path: Path, host: str, scenario: dict[str, Any], key: str
) -> None:
    scenario = {"host": host, "steps": [{"user": "a"}], **scenario}
    with pytest.raises(ScenarioError) as info:
        play_obj(tmp_path, scenario)
    assert info.value.key is not None and info.value.key.startswith(key), str(info.value)
    assert "has no" in info.value.message and info.value.line is not None
