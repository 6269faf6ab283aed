"""The simulator plays Claude Code's and Codex's hook events at their places and applies
each outcome the dialect runtime decides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.sim.scenario import ScenarioError
from tests.sim.conftest import answer, emit, failures, fired, hooks_for, play_obj, records

DIALECTS = ["claude", "codex"]


def specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


def step(user: str, *replies: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"user": user, "model": list(replies), **extra}


def bash(command: str, **extra: Any) -> dict[str, Any]:
    return {"name": "Bash", "args": {"command": command}, **extra}


def play(tmp_path: Path, host: str, scenario: dict[str, Any]) -> Any:
    return play_obj(tmp_path, {"host": host, **scenario})


def outcome(result: Any, turn: int = 1) -> dict[str, Any]:
    (record,) = records(result, "turn_outcome", turn)
    return record


def statuses(result: Any) -> list[tuple[str, str]]:
    return [(c["name"], c["status"]) for c in records(result, "tool_call")]


def last_request(result: Any) -> str:
    return json.dumps(records(result, "model_call")[-1]["request"])


@pytest.mark.parametrize("host", DIALECTS)
def test_session_start_context_and_stdin(tmp_path: Path, host: str) -> None:
    hooks = hooks_for(
        "SessionStart",
        f"cat > start.json; {answer(specific('SessionStart', additionalContext='ctx!'))}",
    )
    result = play(tmp_path, host, {"hooks": hooks, "steps": [step("hi", {"text": "hello"})]})
    assert records(result, "model_call")[0]["request"]["contents"][0] == {
        "role": "user",
        "parts": [{"text": "ctx!"}],
    }
    stdin = json.loads((tmp_path / "start.json").read_text())
    assert stdin["hook_event_name"] == "SessionStart" and stdin["source"] == "startup"
    if host == "codex":
        assert stdin["model"] == "gpt-5-codex" and stdin["permission_mode"] == "default"
    else:
        # as Claude Code 2.1.330 sends it (claude-events/events.json): no permission mode
        # on SessionStart, and no prompt id before the first prompt
        assert "permission_mode" not in stdin and "prompt_id" not in stdin


def test_claude_names_each_prompt_and_later_events_carry_it(tmp_path: Path) -> None:
    hooks = {
        name: [{"hooks": [{"type": "command", "command": f"{{ cat; echo; }} >> {name}.jsonl"}]}]
        for name in ("UserPromptSubmit", "Stop", "SessionEnd")
    }
    result = play(
        tmp_path,
        "claude",
        {"hooks": hooks, "steps": [step("one", {"text": "a"}), step("two", {"text": "b"})]},
    )
    assert result.passed
    read = {
        name: [json.loads(line) for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()]
        for name in hooks
    }
    prompts = [r["prompt_id"] for r in read["UserPromptSubmit"]]
    assert len(set(prompts)) == 2  # one id per submitted prompt
    assert [r["prompt_id"] for r in read["Stop"]] == prompts  # each turn's Stop carries it
    assert read["SessionEnd"][0]["prompt_id"] == prompts[-1]
    assert "permission_mode" not in read["SessionEnd"][0]
    assert read["Stop"][0]["permission_mode"] == "default"


@pytest.mark.parametrize("host", DIALECTS)
def test_user_prompt_submit_block_and_context(tmp_path: Path, host: str) -> None:
    script = (
        "grep -q secret && { echo 'no secrets' >&2; exit 2; };"
        f" {answer(specific('UserPromptSubmit', additionalContext='be brief'))}"
    )
    result = play(
        tmp_path,
        host,
        {
            "hooks": hooks_for("UserPromptSubmit", script),
            "steps": [step("the secret is 42", {"text": "never"}), step("hello", {"text": "hi"})],
            "expect": [
                {"outcome": "blocked", "turn": 1},
                {"model_calls": 0, "turn": 1},
                {"history_not_contains": "secret"},
                {"request_contains": "be brief", "turn": 2},
                {"fired": "Stop", "turn": 2},
                {"not_fired": "Stop", "turn": 1},
            ],
        },
    )
    assert not failures(result), failures(result)
    if host == "codex":
        assert fired(result, "UserPromptSubmit", 2)[0]["input"]["turn_id"] == "turn-2"


def test_claude_prompt_continue_false_stops_the_turn(tmp_path: Path) -> None:
    result = play(
        tmp_path,
        "claude",
        {
            "hooks": hooks_for(
                "UserPromptSubmit", answer({"continue": False, "stopReason": "bye"})
            ),
            "steps": [step("go", {"text": "never"})],
        },
    )
    assert outcome(result)["outcome"] == "stopped" and not records(result, "model_call")


@pytest.mark.parametrize("host", DIALECTS)
def test_pre_tool_use_deny_and_rewrite(tmp_path: Path, host: str) -> None:
    rewrite = emit(
        specific("PreToolUse", permissionDecision="allow", updatedInput={"command": "ls -la"})
    )
    script = (
        "input=$(cat); case $input in"
        " *'rm -rf'*) echo 'no rm' >&2; exit 2;;"
        f" *'\"ls\"'*) {rewrite};; esac"
    )
    result = play(
        tmp_path,
        host,
        {
            "hooks": hooks_for("PreToolUse", script, "Bash"),
            "steps": [
                step("go", {"calls": [bash("rm -rf /"), bash("ls", result="a b")]}, {"text": "ok"})
            ],
            "expect": [
                {"tool_blocked": "Bash", "reason_contains": "no rm"},
                {"tool_ran": "Bash", "args": {"command": "ls -la"}},
                {"fired": "PreToolUse", "effect": "block"},
                {"fired": "PostToolUse", "times": 1},
            ],
        },
    )
    assert not failures(result), failures(result)
    responses = records(result, "model_call")[1]["request"]["contents"][-1]["parts"]
    assert responses[0]["functionResponse"]["response"] == {"error": "no rm"}
    assert responses[1]["functionResponse"]["response"] == {"output": "a b"}
    use_ids = [r["input"]["tool_use_id"] for r in fired(result, "PreToolUse")]
    assert len(set(use_ids)) == 2


def test_claude_ask_is_a_denial_and_defer_stops(tmp_path: Path) -> None:
    ask = answer(specific("PreToolUse", permissionDecision="ask", permissionDecisionReason="risky"))
    result = play(
        tmp_path,
        "claude",
        {
            "hooks": hooks_for("PreToolUse", ask, "Bash"),
            "steps": [step("go", {"calls": [bash("make")]}, {"text": "ok"})],
        },
    )
    assert statuses(result) == [("Bash", "blocked")]
    assert records(result, "tool_call")[0]["reason"] == "risky"
    defer = answer(specific("PreToolUse", permissionDecision="defer"))
    result = play(
        tmp_path,
        "claude",
        {
            "hooks": hooks_for("PreToolUse", defer, "Bash"),
            "steps": [step("go", {"calls": [bash("make"), bash("make test")]}, {"text": "never"})],
        },
    )
    assert statuses(result) == [("Bash", "stopped"), ("Bash", "cancelled")]
    assert outcome(result)["outcome"] == "stopped"


@pytest.mark.parametrize("host", DIALECTS)
def test_permission_request_decides_or_the_user_does(tmp_path: Path, host: str) -> None:
    deny = emit(specific("PermissionRequest", decision={"behavior": "deny", "message": "not .env"}))
    script = f"grep -qF '.env' && {deny}; true"
    result = play(
        tmp_path,
        host,
        {
            "hooks": {
                **hooks_for("PermissionRequest", script, "Write"),
                **(
                    hooks_for("Notification", "cat > notification.json") if host == "claude" else {}
                ),
            },
            "steps": [
                step(
                    "write",
                    {
                        "calls": [
                            {"name": "Write", "args": {"file_path": ".env"}, "confirm": "edit"},
                            {
                                "name": "Write",
                                "args": {"file_path": "a.py"},
                                "confirm": "edit",
                                "approve": False,
                            },
                            {"name": "Write", "args": {"file_path": "b.py"}, "confirm": "edit"},
                        ]
                    },
                    {"text": "ok"},
                )
            ],
        },
    )
    assert statuses(result) == [("Write", "denied"), ("Write", "denied"), ("Write", "ran")]
    reasons = [c.get("reason") for c in records(result, "tool_call")]
    assert reasons[0] == "not .env" and "User did not allow" in reasons[1]
    assert len(fired(result, "PermissionRequest")) == 3
    if host == "claude":
        assert len(fired(result, "Notification")) == 2  # the two dialogs no hook decided
        stdin = json.loads((tmp_path / "notification.json").read_text())
        assert stdin["notification_type"] == "permission_prompt"
        assert stdin["message"] == "Claude Code needs your permission to use Write"


@pytest.mark.parametrize("host", DIALECTS)
def test_post_tool_use_feedback_context_and_stop(tmp_path: Path, host: str) -> None:
    feedback = emit({"decision": "block", "reason": "lint failed"})
    context = emit(specific("PostToolUse", additionalContext="took 3 s"))
    stop = emit({"continue": False, "stopReason": "enough"})
    script = (
        "input=$(cat); case $input in"
        f" *lint*) {feedback};; *build*) {context};; *deploy*) {stop};; esac"
    )
    result = play(
        tmp_path,
        host,
        {
            "hooks": hooks_for("PostToolUse", script),
            "steps": [
                step(
                    "go",
                    {"calls": [bash("lint", result="1 error"), bash("build", result="ok")]},
                    {"calls": [bash("deploy"), bash("announce")]},
                    {"text": "never"},
                )
            ],
        },
    )
    responses = records(result, "model_call")[1]["request"]["contents"][-1]["parts"]
    assert responses[0]["functionResponse"]["response"] == {"output": "1 error\n\nlint failed"}
    assert responses[1]["functionResponse"]["response"] == {"output": "ok\n\ntook 3 s"}
    assert statuses(result)[2:] == [("Bash", "stopped"), ("Bash", "cancelled")]
    assert outcome(result)["outcome"] == "stopped"


def test_claude_post_tool_use_failure(tmp_path: Path) -> None:
    context = answer(specific("PostToolUseFailure", additionalContext="try --offline"))
    result = play(
        tmp_path,
        "claude",
        {
            "hooks": hooks_for("PostToolUseFailure", f"cat > failure.json; {context}"),
            "steps": [
                step(
                    "go",
                    {"calls": [bash("npm i", result={"error": "network down"})]},
                    {"text": "ok"},
                )
            ],
            "expect": [{"not_fired": "PostToolUse"}, {"fired": "PostToolUseFailure"}],
        },
    )
    assert not failures(result), failures(result)
    stdin = json.loads((tmp_path / "failure.json").read_text())
    assert stdin["error"] == "network down" and stdin["is_interrupt"] is False
    response = records(result, "model_call")[1]["request"]["contents"][-1]["parts"][0]
    assert response["functionResponse"]["response"] == {"error": "network down\n\ntry --offline"}


@pytest.mark.parametrize("host", DIALECTS)
def test_stop_block_continues_with_stop_hook_active(tmp_path: Path, host: str) -> None:
    deny = json.dumps({"decision": "block", "reason": "add tests"})
    script = f"grep -q '\"stop_hook_active\": *true' && echo '{{}}' || printf '%s' '{deny}'"
    result = play(
        tmp_path,
        host,
        {
            "hooks": hooks_for("Stop", script),
            "steps": [step("code", {"text": "written"}, {"text": "written with tests"})],
            "expect": [{"model_calls": 2}, {"answer": "written with tests"}],
        },
    )
    assert not failures(result), failures(result)
    first, second = fired(result, "Stop")
    assert first["input"]["stop_hook_active"] is False and first["effect"]["action"] == "retry"
    assert first["input"]["last_assistant_message"] == "written"
    assert second["input"]["stop_hook_active"] is True and second["effect"]["action"] == "proceed"
    assert records(result, "retry")[0]["prompt"] == "add tests"


@pytest.mark.parametrize("host", DIALECTS)
def test_a_stop_hook_that_always_blocks_runs_into_the_budget(tmp_path: Path, host: str) -> None:
    result = play(
        tmp_path,
        host,
        {
            "max_model_calls": 3,
            "hooks": hooks_for("Stop", answer({"decision": "block", "reason": "again"})),
            "steps": [step("loop")],
            "expect": [{"outcome": "budget"}, {"fired": "Stop", "times": 3}],
        },
    )
    assert not failures(result), failures(result)


def test_codex_stop_needs_json(tmp_path: Path) -> None:
    result = play(
        tmp_path,
        "codex",
        {
            "hooks": hooks_for("Stop", "cat >/dev/null; echo 'please continue'"),
            "steps": [step("go", {"text": "done"})],
        },
    )
    (stop,) = fired(result, "Stop")
    assert stop["effect"]["action"] == "proceed" and stop["effect"]["diagnostics"]


@pytest.mark.parametrize("host", DIALECTS)
def test_compaction(tmp_path: Path, host: str) -> None:
    block = (
        "cat >/dev/null; echo 'not now' >&2; exit 2"
        if host == "claude"
        else answer({"continue": False, "stopReason": "not now"})
    )
    result = play(
        tmp_path,
        host,
        {
            "hooks": {**hooks_for("PreCompact", block, "manual")},
            "steps": [step("one", {"text": "a"}), {"compress": "manual"}, {"compress": "auto"}],
        },
    )
    triggers = [r["input"]["trigger"] for r in fired(result, "PreCompact")]
    assert triggers == ["manual", "auto"]
    assert [r["input"]["trigger"] for r in fired(result, "PostCompact")] == ["auto"]
    assert "compaction skipped: PreCompact blocked it" in result.transcript


def test_session_end_and_codex_pre_model_request(tmp_path: Path) -> None:
    claude = play(tmp_path, "claude", {"steps": [step("x", {"text": "y"})]})
    assert [r["input"]["reason"] for r in fired(claude, "SessionEnd")] == ["exit"]
    # Codex 0.169 fires it too, its reason always "other" (tests/e2e/fixtures/codex-events)
    codex = play(tmp_path, "codex", {"steps": [step("x", {"text": "y"})]})
    assert [r["input"]["reason"] for r in fired(codex, "SessionEnd")] == ["other"]
    assert "model" not in fired(codex, "SessionEnd")[0]["input"]
    assert len(fired(codex, "PreModelRequest")) == 1


def test_turn_hooks_run_around_claude_turns(tmp_path: Path) -> None:
    (tmp_path / ".agent").mkdir()
    (tmp_path / ".agent" / "hook.toml").write_text(
        '[turn_start]\ncommand = "sh"\nargs = ["-c", "echo ctx >&2"]\n'
    )
    result = play(
        tmp_path,
        "claude",
        {
            "hooks": hooks_for("UserPromptSubmit", "cat > prompt.json"),
            "steps": [step("hi", {"text": "ok"})],
            "expect": [
                {"request_contains": "HookInput (TurnStart): ctx"},
                {"history_not_contains": "HookInput"},
            ],
        },
    )
    assert not failures(result), failures(result)
    prompt = json.loads((tmp_path / "prompt.json").read_text())["prompt"]
    assert prompt == "hi\n\nHookInput (TurnStart): ctx"


@pytest.mark.parametrize("host", DIALECTS)
def test_dialect_checks(tmp_path: Path, host: str) -> None:
    with pytest.raises(ScenarioError, match="profiles apply to the gemini host only"):
        play(tmp_path, host, {"profile": "documented", "steps": [step("x")]})
    with pytest.raises(
        ScenarioError, match=r"expect\[0\].fired: unknown .* hook event 'BeforeTool'"
    ):
        play(tmp_path, host, {"steps": [step("x")], "expect": [{"fired": "BeforeTool"}]})


@pytest.mark.parametrize("host", DIALECTS)
def test_an_interrupted_turn_fires_interrupt_where_the_host_has_it(
    tmp_path: Path, host: str
) -> None:
    """Issue 27, item 3: Codex's Interrupt (advisory) fires when the user interrupts a turn;
    the turn ends without a model call or Stop. Claude Code has no such event."""
    hooks = {
        **hooks_for("Interrupt", f"cat > interrupt.json; {emit({'systemMessage': 'noted'})}"),
        **hooks_for("Stop", answer({})),
    }
    result = play(
        tmp_path,
        host,
        {
            "hooks": hooks,
            "steps": [
                step("stop that", {"text": "never"}, interrupt=True),
                step("hi", {"text": "ok"}),
            ],
            "expect": [
                {"outcome": "interrupted", "turn": 1},
                {"model_calls": 0, "turn": 1},
                {"outcome": "completed", "turn": 2},
            ],
        },
    )
    assert not failures(result)
    assert not fired(result, "Stop", 1) and fired(result, "Stop", 2)
    if host == "codex":
        (record,) = fired(result, "Interrupt", 1)
        assert record["effect"]["outcome"]["message_for_user"] == "noted"
        stdin = json.loads((tmp_path / "interrupt.json").read_text())
        assert stdin["hook_event_name"] == "Interrupt" and stdin["turn_id"]
        assert outcome(result)["reason"] == "noted"
    else:
        assert not fired(result, "Interrupt") and not (tmp_path / "interrupt.json").exists()


def test_claude_events_of_issue_27_fire_in_their_places(tmp_path: Path) -> None:
    """As recorded on Claude Code 2.1.330 (tests/e2e/fixtures/claude-events/events.json):
    InstructionsLoaded for the project's CLAUDE.md before SessionStart, PostToolBatch after
    the reply's calls and before the next model request, MessageDisplay once per message."""
    (tmp_path / "CLAUDE.md").write_text("notes\n")
    hooks = {
        **hooks_for("InstructionsLoaded", "cat > loaded.json"),
        **hooks_for(
            "PostToolBatch",
            f"cat > batch.json; {answer(specific('PostToolBatch', additionalContext='run tests'))}",
        ),
        **hooks_for(
            "MessageDisplay",
            answer(specific("MessageDisplay", displayContent="[hidden]")),
        ),
        **hooks_for("SessionStart", "true"),
    }
    result = play(
        tmp_path,
        "claude",
        {
            "hooks": hooks,
            "steps": [step("go", {"calls": [bash("ls")]}, {"text": "done"})],
        },
    )
    order = [r["event"] for r in records(result, "hook_event")]
    assert order.index("InstructionsLoaded") < order.index("SessionStart")
    assert order.index("PreToolUse") < order.index("PostToolBatch") < order.index("MessageDisplay")
    loaded = json.loads((tmp_path / "loaded.json").read_text())
    assert loaded["file_path"].endswith("CLAUDE.md") and loaded["load_reason"] == "session_start"
    batch = json.loads((tmp_path / "batch.json").read_text())
    assert [c["tool_name"] for c in batch["tool_calls"]] == ["Bash"]
    assert "run tests" in last_request(result)  # the batch's context reaches the next request
    (shown,) = records(result, "display")
    assert (
        shown == {"turn": 1, "original": "done", "shown": "[hidden]"}
        or shown["shown"] == "[hidden]"
    )
    assert "[hidden]" not in last_request(result)  # display-only


def test_a_post_tool_batch_block_stops_the_loop(tmp_path: Path) -> None:
    hooks = hooks_for("PostToolBatch", "echo 'stop here' >&2; exit 2")
    result = play(
        tmp_path,
        "claude",
        {"hooks": hooks, "steps": [step("go", {"calls": [bash("ls")]}, {"text": "never"})]},
    )
    assert len(records(result, "model_call")) == 1
    assert outcome(result)["outcome"] == "blocked"


@pytest.mark.parametrize("host", DIALECTS)
def test_a_finished_async_hook_s_context_joins_the_next_request_on_claude_only(
    tmp_path: Path, host: str
) -> None:
    """Recorded (tests/e2e/fixtures/claude-async async-pre-quick): Claude Code adds a
    finished ``async: true`` hook's additionalContext to its next model request and obeys
    nothing else of it; Codex reads nothing of it (codex-handlers async-pre-quick). A
    waited-for PostToolUse hook holds the loop until the background one is done."""
    late = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "LATE-DENY",
            "additionalContext": "LATE-CONTEXT",
        }
    }
    background = f"cat >/dev/null; {emit(late)}; touch done"
    wait = "cat >/dev/null; while [ ! -f done ]; do sleep 0.05; done; sleep 0.5"
    hooks = {
        "PreToolUse": [{"hooks": [{"type": "command", "command": background, "async": True}]}],
        **hooks_for("PostToolUse", wait),
    }
    result = play(
        tmp_path,
        host,
        {"hooks": hooks, "steps": [step("go", {"calls": [bash("echo hi")]}, {"text": "ok"})]},
    )
    assert not failures(result), failures(result)
    assert statuses(result) == [("Bash", "ran")]  # the late deny is obeyed nowhere
    assert "LATE-DENY" not in last_request(result)
    assert ("LATE-CONTEXT" in last_request(result)) is (host == "claude")
