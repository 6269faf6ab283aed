"""parse_output: the semantics table, Gemini events, and agreement with the host runtime."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.api.processing.hook_events import (
    ACCEPTED_EVENTS,
    CONTRACT_EVENTS,
    HOOK_EVENTS,
    HookEvent,
    UnknownHookEventError,
    dialect_event,
    is_blocking,
)
from hookwise.api.processing.hook_output import (
    DEFAULT_STOP_REASON,
    DEFERRED,
    ParsedOutput,
    parse_output,
)
from hookwise.api.processing.json_validation import check_answer
from hookwise.api.processing.output_config import OutputConfig, OutputConfigUpdate, apply_update
from hookwise.api.schemas import ParsedHookOutput, ParseOutputResponse
from hookwise.host import claude_dialect
from hookwise.protocol.claude import CLAUDE
from hookwise.protocol.codex import CODEX
from hookwise.protocol.dialect import DialectEvent
from hookwise.protocol.gemini import EVENTS as GEMINI_EVENTS
from tests.strategies import answers, json_values

DEFAULT = OutputConfig()
LENIENT = DEFAULT.model_copy(update={"validationLevel": "lenient"})
BLOCKING = [name for name, e in HOOK_EVENTS.items() if e.blocking]


def config(**update: Any) -> OutputConfig:
    return apply_update(DEFAULT, OutputConfigUpdate.model_validate(update))


def parse(
    code: int,
    stdout: str = "",
    stderr: str = "",
    event: str = "PreToolUse",
    cfg: OutputConfig = DEFAULT,
) -> ParsedOutput:
    return parse_output(code, stdout, stderr, event, 12.5, cfg)


def answer(**fields: Any) -> str:
    return json.dumps(fields)


def pre(decision: str, reason: str | None = None, **extra: Any) -> str:
    specific: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": decision}
    if reason is not None:
        specific["permissionDecisionReason"] = reason
    specific.update(extra)
    return answer(hookSpecificOutput=specific)


def blocks(result: ParsedOutput, kind: str) -> list[dict[str, Any]]:
    return [b for b in result.message_blocks if b["type"] == kind]


def contract_answer(result: ParsedOutput) -> dict[str, Any]:
    """The response, checked against the response model, as the client receives it."""
    body = result.response()
    model = ParseOutputResponse.model_validate(body)
    dumped = model.model_dump(mode="json")
    assert dumped == json.loads(json.dumps(body))
    ParsedHookOutput.model_validate(result.parsed_hook_output())
    return dumped


# --------------------------------------------------------------------------- hook_events


def test_accepted_events_start_with_the_contracts_four_and_cover_every_table() -> None:
    assert ACCEPTED_EVENTS[:4] == CONTRACT_EVENTS
    assert set(ACCEPTED_EVENTS) == set(CLAUDE.events) | set(CODEX.events) | set(GEMINI_EVENTS)
    assert len(set(ACCEPTED_EVENTS)) == len(ACCEPTED_EVENTS)


def test_each_name_is_read_by_the_right_dialect() -> None:
    for name in CLAUDE.events:
        assert dialect_event(name) == ("claude", CLAUDE.events[name])
    for name in set(CODEX.events) - set(CLAUDE.events):
        assert dialect_event(name) == ("codex", CODEX.events[name])
    for name in set(GEMINI_EVENTS) - set(CLAUDE.events) - set(CODEX.events):
        assert dialect_event(name) == ("gemini", GEMINI_EVENTS[name])
    assert dialect_event("BeforeTool")[0] == "gemini"
    assert dialect_event("SessionStart")[0] == "claude"  # shared names read the Claude way


def test_blocking_events_follow_the_tables() -> None:
    assert is_blocking("PreToolUse") and is_blocking("UserPromptSubmit") and is_blocking("Stop")
    assert not is_blocking("PostToolUse")  # the tool already ran: exit 2 is feedback
    assert not is_blocking("Notification") and not is_blocking("SessionStart")
    assert is_blocking("BeforeTool") and not is_blocking("SessionEnd")


@pytest.mark.parametrize("name", ["pretooluse", "", "Nope", None, 3])
def test_unknown_event_names_the_accepted_ones(name: object) -> None:
    with pytest.raises(UnknownHookEventError) as raised:
        dialect_event(name)
    assert isinstance(raised.value, ValueError)
    assert "PreToolUse" in str(raised.value) and "BeforeTool" in str(raised.value)
    with pytest.raises(ValueError):
        parse_output(0, "", "", name, 1.0, DEFAULT)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- exit codes


def test_exit_0_without_output_changes_nothing() -> None:
    result = parse(0)
    assert contract_answer(result) == {
        "source": "exitcode",
        "continue": True,
        "messageBlocks": [],
        "requiresUserInteraction": False,
        "errors": [],
    }
    assert result.proceed and result.decision == "none"


@pytest.mark.parametrize("event", BLOCKING)
def test_exit_2_on_a_blocking_event_blocks_with_the_stderr_text(event: str) -> None:
    result = parse(2, "", "dangerous command refused", event)
    body = contract_answer(result)
    data = body.get("hookSpecificData", {})
    assert (
        body["continue"] is False
        or data.get("permissionDecision") == "deny"
        or data.get("decision") in ("block", "deny")
    )
    assert "dangerous command refused" in json.dumps(body)
    assert not result.proceed
    assert body["source"] == "exitcode"


def test_exit_2_cannot_be_overridden_by_json() -> None:
    result = parse(2, pre("allow", "fine"), "nope")
    assert result.decision == "deny" and not result.proceed
    assert result.hook_specific_data is not None
    assert result.hook_specific_data["permissionDecision"] == "deny"
    hook = blocks(result, "hook")[0]
    assert hook["metadata"]["stderr"] == "nope" and hook["metadata"]["exitCode"] == 2


def test_exit_2_reason_is_the_json_blocking_reason_else_stderr() -> None:
    with_reason = parse(2, answer(decision="block", reason="from json"), "from stderr", "Stop")
    assert with_reason.hook_specific_data == {
        "hookEventName": "Stop",
        "decision": "block",
        "reason": "from json",
    }
    bare = parse(2, "", "", "Stop")
    assert bare.hook_specific_data is not None
    assert bare.hook_specific_data["reason"] == claude_dialect.NO_STDERR


def test_exit_2_on_prompt_and_stop_events_reads_as_a_block() -> None:
    prompt = parse(2, "", "secret in prompt", "UserPromptSubmit")
    assert prompt.decision == "block" and blocks(prompt, "hook")[0]["content"] == (
        "Blocked prompt: secret in prompt"
    )
    stop = parse(2, "", "tests fail", "Stop")
    assert stop.continue_ and stop.decision == "block"
    assert blocks(stop, "hook")[0]["content"] == "Blocked stop: tests fail"


def test_exit_2_after_the_tool_ran_is_feedback_shown_as_a_block_decision() -> None:
    result = parse(2, "", "lint errors", "PostToolUse")
    assert result.decision == "block" and result.proceed and result.continue_
    assert result.hook_specific_data == {
        "hookEventName": "PostToolUse",
        "decision": "block",
        "reason": "lint errors",
    }
    failure = parse(2, "", "try again", "PostToolUseFailure")
    assert failure.hook_specific_data is None
    assert blocks(failure, "hook")[0]["content"] == "Feedback to the model: try again"


def test_exit_2_on_a_non_blocking_event_shows_stderr_or_is_ignored() -> None:
    start = parse(2, "", "warming up failed", "SessionStart")
    assert start.continue_ and start.decision == "none"
    assert {"type": "warn", "content": "warming up failed"} in start.message_blocks
    note = parse(2, "", "x", "Notification")
    assert note.errors == ["exit code 2 is ignored on Notification"]


@pytest.mark.parametrize("event", ACCEPTED_EVENTS)
def test_exit_1_warns_with_stderr_and_continues(event: str) -> None:
    result = parse(1, "", "flake8 crashed\ntraceback", event)
    body = contract_answer(result)
    # a permission request no hook decided goes to the host's own prompt: it does not
    # go ahead by itself (observed on Claude Code and Codex, tests/e2e)
    # and a failed WorktreeCreate fails the creation (any non-zero exit code does)
    undecided = ("PermissionRequest", "WorktreeCreate")
    assert body["continue"] is True and result.proceed is (event not in undecided)
    assert {"type": "warn", "content": "flake8 crashed\ntraceback"} in body["messageBlocks"]
    assert result.errors and "flake8 crashed" in result.errors[0]
    assert result.behavior == "non_blocking_error"


def test_exit_1_without_stderr_shows_the_host_notice() -> None:
    result = parse(1, "", "", "PreToolUse")
    notice = result.errors[0]
    assert "non-blocking status code 1" in notice
    assert result.message_blocks == [{"type": "warn", "content": notice}]


def test_json_decides_on_a_non_blocking_code_when_json_has_precedence() -> None:
    result = parse(1, pre("deny", "by json"), "also stderr")
    assert result.source == "json" and result.decision == "deny"
    assert result.errors == []
    assert {"type": "warn", "content": "also stderr"} in result.message_blocks


def test_json_is_ignored_on_a_non_blocking_code_without_json_precedence() -> None:
    cfg = config(jsonPrecedence=False)
    result = parse(1, pre("deny", "by json"), "stderr", cfg=cfg)
    assert result.source == "exitcode" and result.decision == "none" and result.proceed
    assert any("JSON output ignored" in e for e in result.errors)
    assert parse(0, pre("deny", "x"), cfg=cfg).decision == "deny"  # success still reads it


def test_exit_code_behavior_is_configurable() -> None:
    strict_one = config(exitCodeBehavior={"1": "blocking_error"})
    assert parse(1, "", "no", cfg=strict_one).decision == "deny"
    lenient_two = config(exitCodeBehavior={"2": "success"})
    allowed = parse(2, pre("allow", "ok"), "", cfg=lenient_two)
    assert allowed.decision == "allow" and allowed.behavior == "success"
    zero_fails = config(exitCodeBehavior={"0": "non_blocking_error"})
    assert parse(0, "", "odd", cfg=zero_fails).message_blocks[0] == {
        "type": "warn",
        "content": "odd",
    }
    others_ok = config(exitCodeBehavior={"others": "success"})
    assert parse(7, "", "ignored", cfg=others_ok).message_blocks == []


# --------------------------------------------------------------------------- JSON answers


def test_ask_requires_user_interaction_and_carries_the_request_data() -> None:
    result = parse(0, pre("ask", "confirm rm", updatedInput={"command": "rm -i x"}))
    assert result.requires_user_interaction and not result.proceed and result.continue_
    assert result.ask is not None
    assert result.ask.reason == "confirm rm"
    assert result.ask.updated_input == {"command": "rm -i x"}
    assert blocks(result, "hook")[0]["content"] == "Permission: ask - confirm rm"
    permission = {
        "id": "perm_1",
        "toolName": "Bash",
        "reason": "confirm rm",
        "originalInput": {"command": "rm x"},
        "updatedInput": {"command": "rm -i x"},
        "timestamp": 1,
        "sessionId": "s",
        "expiresAt": 2,
        "status": "pending",
    }
    body = ParseOutputResponse.model_validate(result.response(permission)).model_dump(mode="json")
    assert body["permissionRequest"] == permission


def test_allow_and_deny_decisions() -> None:
    allow = parse(0, pre("allow", "safe", updatedInput={"a": 1}))
    assert allow.decision == "allow" and allow.proceed and not allow.requires_user_interaction
    assert allow.hook_specific_data == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": "safe",
        "updatedInput": {"a": 1},
    }
    deny = parse(0, pre("deny", "unsafe", updatedInput={"a": 1}))
    assert deny.decision == "deny" and not deny.proceed
    assert deny.hook_specific_data is not None and "updatedInput" not in deny.hook_specific_data


def test_legacy_top_level_decisions_read_as_claude_reads_them() -> None:
    approve = parse(0, answer(decision="approve", reason="ok"))
    assert approve.decision == "allow"
    block = parse(0, answer(decision="block", reason="no"))
    assert block.decision == "deny"
    assert block.hook_specific_data == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "no",
    }
    assert any("deprecated" in e for e in block.errors)  # a warning, still honoured


def test_hook_specific_output_counts_only_with_the_right_event_name() -> None:
    wrong = answer(
        hookSpecificOutput={"hookEventName": "PostToolUse", "permissionDecision": "deny"}
    )
    for cfg in (DEFAULT, LENIENT):
        result = parse(0, wrong, cfg=cfg)
        assert result.decision == "none" and result.proceed
        assert result.hook_specific_data is None
        assert any("hookEventName" in e for e in result.errors)


def test_block_decisions_on_block_events() -> None:
    stop = parse(0, answer(decision="block", reason="run the tests"), event="Stop")
    assert stop.decision == "block" and not stop.proceed and stop.continue_
    post = parse(0, answer(decision="block", reason="fix lint"), event="PostToolUse")
    assert post.decision == "block" and post.proceed
    assert blocks(post, "hook")[0]["content"] == "Blocked execution: fix lint"
    prompt = parse(0, answer(decision="block", reason="no secrets"), event="UserPromptSubmit")
    assert blocks(prompt, "hook")[0]["content"] == "Blocked prompt: no secrets"


def test_continue_false_stops_with_its_reason_or_a_default() -> None:
    stopped = parse(0, answer(**{"continue": False, "stopReason": "budget spent"}))
    body = contract_answer(stopped)
    assert body["continue"] is False and body["stopReason"] == "budget spent"
    assert {"type": "warn", "content": "Execution stopped: budget spent"} in body["messageBlocks"]
    bare = parse(0, answer(**{"continue": False}), event="Stop")
    assert bare.stop_reason == DEFAULT_STOP_REASON
    assert parse(0, answer(stopReason="unused")).stop_reason is None


def test_defer_ends_a_headless_run() -> None:
    result = parse(0, pre("defer"))
    assert result.decision == "defer" and not result.continue_
    assert result.stop_reason == DEFERRED


def test_system_message_becomes_a_warn_block() -> None:
    result = parse(0, answer(systemMessage="formatted 3 files"), event="PostToolUse")
    assert result.system_message == "formatted 3 files"
    assert result.message_blocks == [{"type": "warn", "content": "formatted 3 files"}]


def test_plain_stdout_is_context_only_where_the_host_reads_it_so() -> None:
    prompt = parse(0, "today is Monday", event="UserPromptSubmit")
    assert prompt.hook_specific_data == {
        "hookEventName": "UserPromptSubmit",
        "additionalContext": "today is Monday",
    }
    assert blocks(prompt, "hook")[0]["content"] == "Additional context: today is Monday"
    assert parse(0, "debug chatter", event="PreToolUse").hook_specific_data is None


def test_additional_context_from_json() -> None:
    result = parse(
        0,
        answer(hookSpecificOutput={"hookEventName": "PostToolUse", "additionalContext": "note"}),
        event="PostToolUse",
    )
    assert result.hook_specific_data == {
        "hookEventName": "PostToolUse",
        "additionalContext": "note",
    }


def test_permission_request_verdicts() -> None:
    verdict = {"behavior": "deny", "message": "not here"}
    result = parse(
        0,
        answer(hookSpecificOutput={"hookEventName": "PermissionRequest", "decision": verdict}),
        event="PermissionRequest",
    )
    assert result.decision == "deny" and not result.proceed
    assert blocks(result, "hook")[0]["content"] == "Permission request: deny - not here"


def test_json_discarded_by_the_host_is_not_honoured() -> None:
    result = parse(0, answer(systemMessage="hi", **{"continue": False}), event="Notification")
    assert result.continue_ and result.system_message is None and result.source == "exitcode"
    assert any("discards JSON" in e for e in result.errors)


def test_invalid_json_is_plain_text_with_the_host_problem() -> None:
    # JSON-shaped ({ ... }) but invalid: an error, as Claude Code reports it
    result = parse(0, '{"decision": "block",}', event="Stop")
    assert result.source == "exitcode" and result.decision == "none"
    assert result.errors[0].startswith("invalid JSON output")
    assert result.message_blocks[-1]["content"].startswith("Hook Error: invalid JSON output")
    # not ending in }: plain text to Claude Code (tests/e2e, prompt-shape-truncated)
    cut = parse(0, '{"decision": "block",', event="Stop")
    assert cut.decision == "none" and not cut.errors


# --------------------------------------------------------------------------- validation level


def test_strict_rejects_failing_fields_and_keeps_the_rest() -> None:
    stdout = answer(systemMessage=42, decision="block", reason="fix it")
    result = parse(0, stdout, event="Stop")
    assert result.system_message is None
    assert "systemMessage: must be a string, got number" in result.errors
    assert result.decision == "block"  # the valid part still counts


def test_lenient_honours_failing_fields_with_warnings() -> None:
    stdout = answer(systemMessage=42, decision="block", reason=5)
    result = parse(0, stdout, event="Stop", cfg=LENIENT)
    assert result.system_message == "42" and result.decision == "block"
    assert result.hook_specific_data is not None and result.hook_specific_data["reason"] == "5"
    assert "Warning - systemMessage: must be a string, got number (INVALID_TYPE)" in result.errors
    assert any(
        b["content"].startswith("Hook Warning: systemMessage") for b in result.message_blocks
    )


def test_strict_drops_an_unknown_decision_value() -> None:
    result = parse(0, pre("maybe"))
    assert result.decision == "none" and result.hook_specific_data == {
        "hookEventName": "PreToolUse"
    }
    assert any(e.startswith("hookSpecificOutput.permissionDecision:") for e in result.errors)


def test_strict_drops_a_wrong_typed_reason_but_keeps_the_block() -> None:
    result = parse(0, answer(decision="block", reason=5), event="Stop")
    assert result.decision == "block"
    assert result.hook_specific_data == {"hookEventName": "Stop", "decision": "block"}


def test_unknown_fields_are_warnings_with_suggestions() -> None:
    result = parse(0, answer(systemMesage="typo"), event="Stop")
    assert result.errors == [
        "Warning - systemMesage: unknown field 'systemMesage': Claude Code ignores it on Stop"
    ]


def test_parse_output_reports_what_validate_json_reports() -> None:
    from hookwise.api.processing.json_validation import validate_json

    stdout = answer(systemMessage=1, decision="nope", extra=True)
    expected = validate_json(stdout, "Stop")
    result = parse(0, stdout, event="Stop")
    assert [f"{e['field']}: {e['message']}" for e in expected["errors"]] == [
        e for e in result.errors if not e.startswith("Warning - ")
    ]


# --------------------------------------------------------------------------- Gemini events


def test_gemini_before_tool_decisions() -> None:
    deny = parse(0, answer(decision="deny", reason="no rm"), event="BeforeTool")
    assert deny.decision == "deny" and not deny.proceed and deny.source == "json"
    assert blocks(deny, "hook")[0]["content"] == "Permission: deny - no rm"
    ask = parse(0, answer(decision="ask", reason="sure?"), event="BeforeTool")
    assert ask.requires_user_interaction and ask.ask is not None and ask.ask.reason == "sure?"
    rewrite = parse(
        0,
        answer(decision="allow", hookSpecificOutput={"tool_input": {"command": "ls"}}),
        event="BeforeTool",
    )
    assert rewrite.decision == "allow" and rewrite.proceed
    assert rewrite.hook_specific_data == {
        "hookEventName": "BeforeTool",
        "tool_input": {"command": "ls"},
        "decision": "allow",
    }


def test_gemini_exit_codes() -> None:
    blocked = parse(2, "", "blocked by policy", "BeforeTool")
    assert blocked.decision == "deny" and not blocked.proceed
    assert blocked.hook_specific_data == {
        "hookEventName": "BeforeTool",
        "decision": "deny",
        "reason": "blocked by policy",
    }
    assert "blocked by policy" in json.dumps(blocked.response())
    retry = parse(2, "", "keep going", "AfterAgent")
    assert (
        retry.decision == "block"
        and blocks(retry, "hook")[0]["content"] == "Blocked stop: keep going"
    )
    warn = parse(1, "", "hiccup", "BeforeAgent")
    assert warn.proceed and {"type": "warn", "content": "hiccup"} in warn.message_blocks
    assert warn.errors == ["hook exited with code 1: hiccup"]
    text = parse(0, "hello", "", "AfterTool")
    assert text.system_message == "hello" and text.source == "exitcode"


def test_gemini_stop_and_suppressed_messages() -> None:
    stop = parse(0, answer(**{"continue": False, "stopReason": "done"}), event="BeforeAgent")
    assert not stop.continue_ and stop.stop_reason == "done"
    quiet = parse(0, answer(systemMessage="hidden", suppressOutput=True), event="AfterTool")
    assert quiet.system_message is None  # the documented profile honours suppressOutput


def test_gemini_json_precedence_and_validation() -> None:
    both = parse(1, answer(decision="block", reason="json wins"), "err", "BeforeAgent")
    assert both.decision == "block" and both.source == "json"
    ignored = parse(
        1, answer(decision="block"), "err", "BeforeAgent", cfg=config(jsonPrecedence=False)
    )
    assert ignored.decision == "none"
    typed = parse(0, answer(hookSpecificOutput={"tool_input": "x"}), event="BeforeTool")
    assert typed.errors == ["hookSpecificOutput.tool_input: must be an object, got string"]


def test_gemini_answer_the_engine_cannot_read_is_reported_not_raised() -> None:
    result = parse(
        0, answer(hookSpecificOutput=5, decision="allow"), event="BeforeTool", cfg=LENIENT
    )
    contract_answer(result)


def test_answers_nested_too_deep_are_not_read() -> None:
    deep: Any = 1
    for _ in range(70):
        deep = {"a": deep}
    stdout = pre("deny", "x", updatedInput=deep)
    for event in ("PreToolUse", "BeforeTool"):
        result = parse(0, stdout, event=event)
        assert result.decision == "none" and result.errors == [
            "JSON output nests more than 64 levels: not read"
        ]
        contract_answer(result)
    blocked = parse(2, stdout, "stderr reason")
    assert blocked.decision == "deny"
    assert blocked.hook_specific_data is not None
    assert blocked.hook_specific_data["permissionDecisionReason"] == "stderr reason"


# --------------------------------------------------------------------------- Codex reading


@pytest.fixture
def codex_pre_tool_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """Route PreToolUse to the Codex dialect, as a Codex-only event name would be."""
    spec = CODEX.events["PreToolUse"]
    monkeypatch.setitem(HOOK_EVENTS, "PreToolUse", HookEvent("PreToolUse", "codex", spec, True))


@pytest.mark.usefixtures("codex_pre_tool_use")
def test_codex_events_are_read_by_the_codex_host() -> None:
    deny = parse(0, pre("deny", "no"))
    assert deny.dialect == "codex" and deny.decision == "deny" and not deny.proceed
    ask = parse(0, pre("ask", "sure?"))  # Codex does not support ask: the hook failed
    assert ask.decision == "none" and ask.proceed and not ask.requires_user_interaction
    assert ask.errors == ["unsupported permissionDecision 'ask'"]
    assert ask.message_blocks == [
        {"type": "warn", "content": "Hook Error: unsupported permissionDecision 'ask'"}
    ]
    silent = parse(2, "", "")  # exit 2 blocks only with stderr
    assert silent.decision == "none" and silent.errors == ["exit 2 with empty stderr"]
    blocked = parse(2, "", "policy")
    assert blocked.decision == "deny"
    assert blocked.hook_specific_data == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "policy",
    }
    failed = parse(1, "", "oops")
    assert failed.errors == ["hook exited with 1: oops"]
    assert {"type": "warn", "content": "oops"} in failed.message_blocks


# --------------------------------------------------------------------------- properties

exit_codes = st.integers(min_value=-(2**31), max_value=2**32 - 1) | st.sampled_from([0, 1, 2, 124])
configs = st.builds(
    lambda level, precedence, table: config(
        validationLevel=level, jsonPrecedence=precedence, exitCodeBehavior=table
    ),
    st.sampled_from(["strict", "lenient"]),
    st.booleans(),
    st.dictionaries(
        st.sampled_from(["0", "1", "2", "3", "others"]),
        st.sampled_from(["success", "blocking_error", "non_blocking_error"]),
        max_size=3,
    ),
)
stdouts = (
    st.text(max_size=60) | answers.map(json.dumps) | st.just("{") | json_values.map(json.dumps)
)


@given(exit_codes, stdouts, st.text(max_size=40), st.sampled_from(ACCEPTED_EVENTS), configs)
def test_parse_output_never_raises_and_fits_the_response_model(
    code: int, stdout: str, stderr: str, event: str, cfg: OutputConfig
) -> None:
    result = parse_output(code, stdout, stderr, event, 0.5, cfg)
    contract_answer(result)
    assert result.requires_user_interaction == (result.decision == "ask")
    assert result.continue_ == (result.stop_reason is None)


claude_events = [n for n, e in HOOK_EVENTS.items() if e.dialect == "claude"]
decision_words = st.sampled_from(["allow", "deny", "ask", "defer", "block", "approve", "x"])
specifics = st.fixed_dictionaries(
    {},
    optional={
        "hookEventName": st.sampled_from(claude_events) | json_values,
        "permissionDecision": decision_words | json_values,
        "permissionDecisionReason": st.text(max_size=8) | json_values,
        "updatedInput": st.dictionaries(st.text(max_size=4), json_values, max_size=2),
        "additionalContext": st.text(max_size=8) | json_values,
        "decision": st.fixed_dictionaries(
            {}, optional={"behavior": decision_words, "message": st.text(max_size=8)}
        ),
    },
)
claude_answers = st.fixed_dictionaries(
    {},
    optional={
        "continue": st.booleans() | json_values,
        "stopReason": st.text(max_size=8) | json_values,
        "systemMessage": st.text(max_size=8) | json_values,
        "decision": decision_words | json_values,
        "reason": st.text(max_size=8) | json_values,
        "hookSpecificOutput": specifics | json_values,
    },
)


def _host(event: DialectEvent, stdout: str, code: int) -> Any:
    return claude_dialect.decide(event, [claude_dialect.read(event, stdout, "err", code)])


@given(
    claude_answers,
    st.sampled_from(claude_events),
    st.sampled_from([0, 1, 3, 2]),
    st.sampled_from(["strict", "lenient"]),
)
def test_parse_output_agrees_with_the_claude_host(
    reply: dict[str, Any], event_name: str, code: int, level: str
) -> None:
    event = CLAUDE.events[event_name]
    stdout = json.dumps(reply)
    if level == "strict" and check_answer(reply, event_name).errors:
        return  # strict mode reads a sanitized answer: covered by the unit tests
    result = parse_output(
        code, stdout, "err", event_name, 1.0, DEFAULT if level == "strict" else LENIENT
    )
    effect = _host(event, stdout, code)
    outcome = effect.outcome
    assert result.continue_ == (not outcome.stop_session)
    assert result.proceed == (outcome.proceed and not outcome.stop_session)
    data = result.hook_specific_data or {}
    if code == 2:
        return  # exit 2 feedback on PostToolUse is labelled "block": same effect
    assert result.decision == effect.decision
    if event.name == "PreToolUse" and effect.decision != "none":
        assert data["permissionDecision"] == effect.decision
    if event.decision.value == "block":
        assert (data.get("decision") == "block") == (effect.decision == "block")
