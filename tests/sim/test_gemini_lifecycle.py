"""The simulator plays each Gemini CLI event at its place and applies its effect."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.sim.conftest import answer, failures, fired, hooks_for, play_obj, records

SHELL = "run_shell_command"


def call(name: str, args: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"name": name, "args": args or {}, **extra}


def step(user: str, *replies: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"user": user, "model": list(replies), **extra}


def outcome(result: Any, turn: int) -> dict[str, Any]:
    (record,) = records(result, "turn_outcome", turn)
    return record


def requests(result: Any, turn: int | None = None) -> list[dict[str, Any]]:
    return [r["request"] for r in records(result, "model_call", turn)]


def tool_calls(result: Any, turn: int | None = None) -> list[dict[str, Any]]:
    return records(result, "tool_call", turn)


# --- session events ----------------------------------------------------------------------


def test_session_start_context_and_session_end(tmp_path: Path) -> None:
    hooks = {
        **hooks_for("SessionStart", answer({"hookSpecificOutput": {"additionalContext": "ctx!"}})),
        **hooks_for("SessionEnd", answer({"systemMessage": "bye"})),
    }
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks,
            "session": {"start": "resume", "end": "logout"},
            "steps": [step("hi", {"text": "hello"})],
        },
    )
    (start,) = fired(result, "SessionStart")
    assert start["input"]["source"] == "resume"
    assert start["effect"]["history_part"] == "<hook_context>ctx!</hook_context>"
    assert requests(result)[0]["contents"][0] == {
        "role": "user",
        "parts": [{"text": "<hook_context>ctx!</hook_context>"}],
    }
    (end,) = fired(result, "SessionEnd")
    assert end["input"]["reason"] == "logout" and end["system_message"] == "bye"
    assert "systemMessage: bye" in result.transcript
    # SessionEnd fires after the last turn
    kinds = [(e["type"], e.get("data", {}).get("event")) for e in result.events]
    assert kinds.index(("host", "SessionEnd")) > kinds.index(("turn_complete", None))


def test_no_session_events_when_the_scenario_says_null(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {"session": {"start": None, "end": None}, "steps": [step("hi", {"text": "x"})]},
    )
    assert not fired(result, "SessionStart") and not fired(result, "SessionEnd")


# --- BeforeAgent ---------------------------------------------------------------------------


def test_before_agent_block_drops_the_prompt(tmp_path: Path) -> None:
    hooks = hooks_for("BeforeAgent", answer({"decision": "deny", "reason": "not today"}))
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks,
            "steps": [step("secret plan", {"text": "never"})],
            "expect": [
                {"outcome": "blocked", "turn": 1},
                {"model_calls": 0},
                {"history_not_contains": "secret plan"},
                {"not_fired": "AfterAgent"},
            ],
        },
    )
    assert not failures(result), failures(result)
    assert outcome(result, 1)["reason"] == "not today"


def test_before_agent_stop_keeps_the_prompt(tmp_path: Path) -> None:
    hooks = hooks_for("BeforeAgent", answer({"continue": False, "stopReason": "halt"}))
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks,
            "steps": [step("keep me", {"text": "never"})],
            "expect": [
                {"outcome": "stopped"},
                {"history_contains": "keep me"},
                {"model_calls": 0},
            ],
        },
    )
    assert not failures(result), failures(result)


def test_before_agent_context_is_appended_to_the_request(tmp_path: Path) -> None:
    hooks = hooks_for("BeforeAgent", answer({"hookSpecificOutput": {"additionalContext": "C1"}}))
    result = play_obj(tmp_path, {"hooks": hooks, "steps": [step("do it", {"text": "done"})]})
    parts = requests(result)[0]["contents"][-1]["parts"]
    assert parts == [{"text": "do it"}, {"text": "<hook_context>C1</hook_context>"}]
    assert fired(result, "BeforeAgent")[0]["input"]["prompt"] == "do it"


# --- BeforeModel ---------------------------------------------------------------------------


SYNTHETIC = {
    "decision": "deny",
    "reason": "cached",
    "hookSpecificOutput": {
        "llm_response": {"candidates": [{"content": {"role": "model", "parts": ["canned"]}}]}
    },
}


@pytest.mark.parametrize("profile", ["documented", "gemini-cli"])
def test_before_model_synthetic_response_skips_the_model(tmp_path: Path, profile: str) -> None:
    result = play_obj(
        tmp_path,
        {
            "profile": profile,
            "hooks": hooks_for("BeforeModel", answer(SYNTHETIC)),
            "steps": [step("q", {"text": "scripted, never used"})],
            "expect": [
                {"model_calls": 0},
                {"answer": "canned"},
                {"not_fired": "AfterModel"},
                {"not_fired": "BeforeToolSelection"},
                {"fired": "AfterAgent"},
            ],
        },
    )
    assert not failures(result), failures(result)
    (reply,) = records(result, "model_reply")
    assert reply["synthetic"] is True
    assert reply["chunks"][0]["candidates"][0]["finishReason"] == "STOP"


def test_before_model_synthetic_without_deny_differs_by_profile(tmp_path: Path) -> None:
    only_response = {"hookSpecificOutput": SYNTHETIC["hookSpecificOutput"]}
    scenario = {
        "hooks": hooks_for("BeforeModel", answer(only_response)),
        "steps": [step("q", {"text": "from the model"})],
    }
    documented = play_obj(tmp_path, {**scenario, "profile": "documented"})
    assert [r["source"] for r in records(documented, "model_call")] == ["synthetic"]
    engine = play_obj(tmp_path, {**scenario, "profile": "gemini-cli"})
    assert [r["source"] for r in records(engine, "model_call")] == ["model"]
    assert records(engine, "model_reply")[0]["text"] == "from the model"


def test_before_model_block_without_response_and_stop(tmp_path: Path) -> None:
    block = play_obj(
        tmp_path,
        {
            "profile": "gemini-cli",
            "hooks": hooks_for("BeforeModel", answer({"decision": "block", "reason": "quota"})),
            "steps": [step("q", {"text": "never"})],
        },
    )
    assert outcome(block, 1)["outcome"] == "blocked" and outcome(block, 1)["reason"] == "quota"
    stop = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("BeforeModel", answer({"continue": False, "stopReason": "off"})),
            "steps": [step("q", {"text": "never"})],
        },
    )
    assert outcome(stop, 1)["outcome"] == "stopped" and not records(stop, "model_call")


def test_before_model_request_changes_reach_the_model(tmp_path: Path) -> None:
    change = {
        "hookSpecificOutput": {
            "llm_request": {"model": "gemini-tiny", "config": {"temperature": 0}}
        }
    }
    result = play_obj(
        tmp_path,
        {"hooks": hooks_for("BeforeModel", answer(change)), "steps": [step("q", {"text": "a"})]},
    )
    (request,) = requests(result)
    assert request["model"] == "gemini-tiny"
    assert request["config"]["temperature"] == 0
    (selection,) = fired(result, "BeforeToolSelection")
    assert selection["input"]["llm_request"]["model"] == "gemini-tiny"  # after BeforeModel


# --- BeforeToolSelection -------------------------------------------------------------------


def test_tool_selection_restricts_function_calls(tmp_path: Path) -> None:
    config = {
        "hookSpecificOutput": {"toolConfig": {"mode": "ANY", "allowedFunctionNames": ["read_file"]}}
    }
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("BeforeToolSelection", answer(config)),
            "steps": [
                step(
                    "go",
                    {
                        "calls": [
                            call("read_file", {"file_path": "a"}),
                            call(SHELL, {"command": "ls"}),
                        ]
                    },
                    {"text": "done"},
                )
            ],
            "expect": [
                {"tool_ran": "read_file"},
                {"tool_blocked": SHELL, "reason_contains": "BeforeToolSelection"},
                {"not_fired": "BeforeTool", "tool": SHELL},
            ],
        },
    )
    assert not failures(result), failures(result)
    assert requests(result)[0]["config"]["toolConfig"] == {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["read_file"]}
    }
    model_parts = requests(result)[1]["contents"][-2]["parts"]
    assert [p["functionCall"]["name"] for p in model_parts] == ["read_file"]


def test_tool_selection_mode_none_allows_no_call(tmp_path: Path) -> None:
    config = {"hookSpecificOutput": {"toolConfig": {"mode": "NONE"}}}
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("BeforeToolSelection", answer(config)),
            "steps": [
                step("go", {"text": "I would call", "calls": [call(SHELL, {"command": "ls"})]})
            ],
        },
    )
    assert [c["status"] for c in tool_calls(result)] == ["restricted"]
    assert len(records(result, "model_call")) == 1
    assert fired(result, "AfterAgent")[0]["input"]["prompt_response"] == "I would call"


# --- AfterModel ----------------------------------------------------------------------------


def test_after_model_fires_per_chunk_and_replaces(tmp_path: Path) -> None:
    script = (
        "python3 -c \"import json,sys; e=json.load(sys.stdin); r=e['llm_response'];"
        " p=r['candidates'][0]['content']['parts'];"
        " print(json.dumps({'hookSpecificOutput': {'llm_response': {'candidates': [{'content':"
        " {'role': 'model', 'parts': [x.replace('SECRET', '***') for x in p]}}]}}}"
        " if any('SECRET' in x for x in p) else {}))\""
    )
    result = play_obj(
        tmp_path,
        {
            "profile": "gemini-cli",
            "hooks": hooks_for("AfterModel", script),
            "steps": [step("q", {"chunks": ["a ", "SECRET ", "b"]}), step("again", {"text": "ok"})],
            "expect": [
                {"fired": "AfterModel", "turn": 1, "times": 3},
                {"answer": "a *** b", "turn": 1},
                # the engine keeps the original chunk in history
                {"request_contains": "SECRET", "turn": 2},
            ],
        },
    )
    assert not failures(result), failures(result)
    effects = [r["effect"].get("replaced", False) for r in fired(result, "AfterModel", 1)]
    assert effects == [False, True, False]


@pytest.mark.parametrize(("profile", "shown"), [("documented", ""), ("gemini-cli", "pii 123")])
def test_after_model_block_by_profile(tmp_path: Path, profile: str, shown: str) -> None:
    result = play_obj(
        tmp_path,
        {
            "profile": profile,
            "hooks": hooks_for("AfterModel", answer({"decision": "deny", "reason": "pii found"})),
            "steps": [step("q", {"chunks": ["pii 123", " more"]}), step("next", {"text": "x"})],
        },
    )
    assert outcome(result, 1)["outcome"] == "blocked"
    assert len(fired(result, "AfterModel", 1)) == 1  # the stream ends at the block
    assert records(result, "model_reply", 1)[0]["text"] == shown
    assert "pii 123" not in json.dumps(requests(result, 2))  # never in history
    assert not fired(result, "AfterAgent", 1)


def test_after_model_stop(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("AfterModel", answer({"continue": False, "stopReason": "enough"})),
            "steps": [step("q", {"text": "a", "calls": [call(SHELL, {"command": "ls"})]})],
        },
    )
    assert outcome(result, 1) == {
        "turn": 1,
        "outcome": "stopped",
        "reason": "enough",
        "model_calls": 1,
    }
    assert not tool_calls(result)


# --- BeforeTool ----------------------------------------------------------------------------


def test_before_tool_block_reaches_the_model_as_a_tool_error(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("BeforeTool", "cat >/dev/null; echo 'no rm' >&2; exit 2", SHELL),
            "steps": [
                step("clean", {"calls": [call(SHELL, {"command": "rm -rf /"})]}, {"text": "ok"})
            ],
            "expect": [
                {"tool_blocked": SHELL, "reason_contains": "no rm"},
                {"not_fired": "AfterTool"},
            ],
        },
    )
    assert not failures(result), failures(result)
    response = requests(result)[1]["contents"][-1]["parts"][0]["functionResponse"]
    assert response == {"name": SHELL, "response": {"error": "Tool execution blocked: no rm"}}


def test_before_tool_stop_ends_the_turn(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("BeforeTool", answer({"continue": False, "stopReason": "halt"})),
            "steps": [
                step(
                    "go",
                    {
                        "calls": [
                            call("read_file", {"file_path": "a"}),
                            call(SHELL, {"command": "ls"}),
                        ]
                    },
                    {"text": "never"},
                )
            ],
        },
    )
    assert [c["status"] for c in tool_calls(result)] == ["stopped", "cancelled"]
    assert outcome(result, 1)["outcome"] == "stopped"
    assert len(records(result, "model_call")) == 1


@pytest.mark.parametrize(
    ("profile", "args", "note"),
    [
        ("documented", {"command": "ls -la", "dir_path": "src"}, False),
        ("gemini-cli", {"command": "ls -la"}, True),
    ],
)
def test_before_tool_rewrites_the_input(
    tmp_path: Path, profile: str, args: dict[str, str], note: bool
) -> None:
    rewrite = {"hookSpecificOutput": {"tool_input": {"command": "ls -la"}}}
    result = play_obj(
        tmp_path,
        {
            "profile": profile,
            "hooks": {
                **hooks_for("BeforeTool", answer(rewrite), SHELL),
                **hooks_for("AfterTool", "cat > after-tool.json", SHELL),
            },
            "steps": [
                step(
                    "list",
                    {"calls": [call(SHELL, {"command": "ls", "dir_path": "src"}, result="a b")]},
                    {"text": "ok"},
                )
            ],
        },
    )
    (ran,) = tool_calls(result)
    assert ran["args"] == args and ran["original_args"] == {"command": "ls", "dir_path": "src"}
    assert json.loads((tmp_path / "after-tool.json").read_text())["tool_input"] == args
    llm_content = ran["result"]["llmContent"]
    assert (
        llm_content.endswith(
            "[System] Tool input parameters were modified by a hook before execution."
        )
        is note
    )


def test_before_tool_ask_fires_notification_and_takes_the_scripted_answer(tmp_path: Path) -> None:
    hooks = {
        **hooks_for("BeforeTool", answer({"decision": "ask"}), SHELL),
        **hooks_for("Notification", "cat > notification.json"),
    }
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks,
            "steps": [
                step(
                    "push",
                    {
                        "calls": [
                            call(SHELL, {"command": "git push"}, approve=False),
                            call(SHELL, {"command": "git status"}),
                        ]
                    },
                    {"text": "ok"},
                )
            ],
        },
    )
    assert [c["status"] for c in tool_calls(result)] == ["denied", "ran"]
    assert len(fired(result, "Notification")) == 2
    stdin = json.loads((tmp_path / "notification.json").read_text())
    assert stdin["notification_type"] == "ToolPermission"
    assert stdin["message"] == f"Tool {SHELL} requires execution"
    assert stdin["details"]["command"] == "git status"


def test_confirm_marks_a_call_that_needs_approval(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("Notification", answer({"systemMessage": "asked"})),
            "steps": [
                step(
                    "edit",
                    {"calls": [call("write_file", {"file_path": "src/a.py"}, confirm="edit")]},
                    {"text": "ok"},
                )
            ],
        },
    )
    (notification,) = fired(result, "Notification")
    assert notification["input"]["details"] == {
        "type": "edit",
        "title": "write_file",
        "fileName": "a.py",
        "filePath": "src/a.py",
    }
    assert [c["status"] for c in tool_calls(result)] == ["ran"]


# --- AfterTool -----------------------------------------------------------------------------


def test_after_tool_context_and_replacement(tmp_path: Path) -> None:
    context = answer({"hookSpecificOutput": {"additionalContext": "generated"}})
    deny = answer({"decision": "deny", "reason": "has a key"})
    hooks = {
        "AfterTool": [
            *hooks_for("AfterTool", context, "read_file")["AfterTool"],
            *hooks_for("AfterTool", deny, "read_key")["AfterTool"],
        ]
    }
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks,
            "tools": {"read_file": {"result": "body"}, "read_key": {"result": "AKIA..."}},
            "steps": [
                step("read", {"calls": [call("read_file"), call("read_key")]}, {"text": "ok"})
            ],
        },
    )
    first, second = tool_calls(result)
    assert first["result"]["llmContent"] == "body\n\n<hook_context>generated</hook_context>"
    assert second["status"] == "replaced"
    assert second["result"]["llmContent"] == "Tool result blocked: has a key"
    responses = requests(result)[1]["contents"][-1]["parts"]
    assert responses[1]["functionResponse"]["response"] == {"error": "has a key"}


def test_after_tool_tail_call(tmp_path: Path) -> None:
    tail = {
        "hookSpecificOutput": {
            "tailToolCallRequest": {"name": "read_file", "args": {"file_path": "log"}}
        }
    }
    result = play_obj(
        tmp_path,
        {
            "hooks": {
                **hooks_for("AfterTool", answer(tail), SHELL),
                **hooks_for("BeforeTool", "cat >/dev/null; true", "read_file"),
            },
            "tools": {"read_file": {"result": "log body"}},
            "steps": [step("go", {"calls": [call(SHELL, {"command": "make"})]}, {"text": "ok"})],
        },
    )
    assert [(c["name"], c["status"]) for c in tool_calls(result)] == [
        (SHELL, "ran"),
        ("read_file", "ran"),
    ]
    before_tail = fired(result, "BeforeTool")[-1]
    assert before_tail["input"]["original_request_name"] == SHELL
    response = requests(result)[1]["contents"][-1]["parts"][0]["functionResponse"]
    assert response == {"name": "read_file", "response": {"output": "log body"}}


def test_after_tool_stop(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("AfterTool", answer({"continue": False, "stopReason": "done"})),
            "steps": [step("go", {"calls": [call(SHELL, {"command": "make"})]}, {"text": "never"})],
        },
    )
    assert outcome(result, 1)["outcome"] == "stopped"
    assert len(records(result, "model_call")) == 1


# --- AfterAgent ----------------------------------------------------------------------------


def test_after_agent_retry_sets_stop_hook_active(tmp_path: Path) -> None:
    script = (
        'python3 -c "import json,sys; e=json.load(sys.stdin);'
        " print('{}' if e['stop_hook_active'] else json.dumps({'decision': 'deny', 'reason': 'add tests'}))\""
    )
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("AfterAgent", script),
            "steps": [step("code", {"text": "written"}, {"text": "written, with tests"})],
            "expect": [{"model_calls": 2}, {"answer": "written, with tests"}],
        },
    )
    assert not failures(result), failures(result)
    first, second = fired(result, "AfterAgent")
    assert first["input"]["stop_hook_active"] is False and first["effect"]["action"] == "retry"
    assert second["input"]["stop_hook_active"] is True and second["input"]["prompt"] == "add tests"
    assert requests(result)[1]["contents"][-1] == {"role": "user", "parts": [{"text": "add tests"}]}


def test_after_agent_clear_context(tmp_path: Path) -> None:
    deny = {
        "decision": "deny",
        "reason": "start over",
        "hookSpecificOutput": {"clearContext": True},
    }
    script = (
        f"grep -q '\"stop_hook_active\":true' && echo '{{}}' || printf '%s' '{json.dumps(deny)}'"
    )
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("AfterAgent", script),
            "steps": [step("first", {"text": "a"}, {"text": "b"})],
        },
    )
    retry_request = requests(result)[1]
    assert retry_request["contents"] == [{"role": "user", "parts": [{"text": "start over"}]}]


def test_after_agent_always_denying_hits_the_budget(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {
            "max_model_calls": 3,
            "default_reply": {"text": "again"},
            "hooks": hooks_for("AfterAgent", answer({"decision": "deny", "reason": "no"})),
            "steps": [step("loop")],
            "expect": [{"outcome": "budget"}, {"model_calls": 3}],
        },
    )
    assert not failures(result), failures(result)
    assert "no scripted model reply left (steps[0].model)" in result.transcript


# --- PreCompress ---------------------------------------------------------------------------


def test_pre_compress_standalone_and_in_a_turn(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {
            "hooks": hooks_for("PreCompress", answer({"systemMessage": "compressing"})),
            "steps": [
                step("one", {"text": "a"}, compress="auto"),
                {"compress": "manual"},
                step("two", {"text": "b"}),
            ],
        },
    )
    triggers = [(r["turn"], r["input"]["trigger"]) for r in fired(result, "PreCompress")]
    assert triggers == [(1, "auto"), (None, "manual")]
    events = [
        (e["type"], e.get("data", {}).get("event")) for e in result.events if e["type"] == "host"
    ]
    assert events.index(("host", "PreCompress")) < events.index(("host", "BeforeAgent"))


def test_bad_inline_hooks_are_reported_not_fatal(tmp_path: Path) -> None:
    result = play_obj(
        tmp_path,
        {"hooks": {"BeforeTools": [{"hooks": []}]}, "steps": [step("x", {"text": "y"})]},
    )
    assert any("BeforeTools" in w for w in result.warnings)
    assert "note: hooks: " in result.transcript
