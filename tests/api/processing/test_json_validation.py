"""validate_json / check_answer: error codes, warnings, levels, the host's field sets."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.api.processing.hook_events import ACCEPTED_EVENTS, HOOK_EVENTS, UnknownHookEventError
from hookwise.api.processing.json_validation import check_answer, did_you_mean, validate_json
from hookwise.api.schemas import ValidateJsonResponse
from hookwise.protocol.claude import CLAUDE, OUTPUT_CAP_CHARS
from tests.strategies import answers, json_values


def codes(result: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["field"], e["code"]) for e in result["errors"]]


def warned(result: dict[str, Any]) -> list[str]:
    return [w["field"] for w in result["warnings"]]


def v(reply: Any, event: str = "PreToolUse", level: str = "strict") -> dict[str, Any]:
    text = reply if isinstance(reply, str) else json.dumps(reply)
    result = validate_json(text, event, level)  # type: ignore[arg-type]
    ValidateJsonResponse.model_validate(result)
    return result


# --------------------------------------------------------------------------- documents


@pytest.mark.parametrize("text", ["", "nope", "{", '{"a": 1,}', "{'a': 1}", "{} trailing"])
def test_text_that_is_not_json_is_invalid_json(text: str) -> None:
    result = v(text)
    assert result["valid"] is False and "parsed" not in result
    assert codes(result) == [("root", "INVALID_JSON")]


@pytest.mark.parametrize(
    ("text", "kind"), [("[1]", "array"), ("5", "number"), ('"x"', "string"), ("null", "null")]
)
def test_json_that_is_not_an_object_is_invalid_type(text: str, kind: str) -> None:
    result = v(text)
    assert codes(result) == [("root", "INVALID_TYPE")]
    assert kind in result["errors"][0]["message"]


def test_a_valid_answer() -> None:
    reply = {
        "continue": True,
        "systemMessage": "checked",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "safe",
            "updatedInput": {"command": "ls"},
            "additionalContext": "ctx",
        },
    }
    result = v(reply)
    assert result == {"valid": True, "parsed": reply, "errors": [], "warnings": []}


def test_an_empty_object_is_valid_with_a_warning() -> None:
    result = v({})
    assert result["valid"] and warned(result) == ["root"]


# --------------------------------------------------------------------------- error codes


def test_invalid_type() -> None:
    result = v({"continue": "yes", "systemMessage": 3, "stopReason": [], "hookSpecificOutput": "x"})
    assert codes(result) == [
        ("continue", "INVALID_TYPE"),
        ("systemMessage", "INVALID_TYPE"),
        ("stopReason", "INVALID_TYPE"),
        ("hookSpecificOutput", "INVALID_TYPE"),
    ]
    assert result["errors"][0]["message"] == "must be a boolean, got string"
    assert result["parsed"] == {}  # strict: none of them is honoured


def test_invalid_value() -> None:
    stop = v({"decision": "allow", "reason": "x"}, "Stop")
    assert codes(stop) == [("decision", "INVALID_VALUE")]
    assert "'block'" in stop["errors"][0]["message"]
    pre = v({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}})
    assert codes(pre) == [("hookSpecificOutput.permissionDecision", "INVALID_VALUE")]
    assert pre["parsed"] == {"hookSpecificOutput": {"hookEventName": "PreToolUse"}}


def test_required_and_empty_event_name() -> None:
    missing = v({"hookSpecificOutput": {"permissionDecision": "deny"}})
    assert codes(missing) == [("hookSpecificOutput.hookEventName", "REQUIRED_FIELD")]
    assert missing["parsed"] == {}
    empty = v({"hookSpecificOutput": {"hookEventName": "", "permissionDecision": "deny"}})
    assert codes(empty) == [("hookSpecificOutput.hookEventName", "EMPTY_REQUIRED_FIELD")]
    typed = v({"hookSpecificOutput": {"hookEventName": 1}})
    assert codes(typed) == [("hookSpecificOutput.hookEventName", "INVALID_TYPE")]


def test_event_mismatch() -> None:
    result = v({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}})
    assert codes(result) == [("hookSpecificOutput.hookEventName", "EVENT_MISMATCH")]
    assert "PostToolUse" in result["errors"][0]["message"]


def test_permission_request_verdict() -> None:
    base = {"hookEventName": "PermissionRequest"}
    ok = v(
        {"hookSpecificOutput": {**base, "decision": {"behavior": "allow", "updatedInput": {}}}},
        "PermissionRequest",
    )
    assert ok["valid"]
    missing = v({"hookSpecificOutput": {**base, "decision": {"message": "x"}}}, "PermissionRequest")
    assert codes(missing) == [("hookSpecificOutput.decision.behavior", "REQUIRED_FIELD")]
    assert missing["parsed"] == {"hookSpecificOutput": base}
    bad = v(
        {"hookSpecificOutput": {**base, "decision": {"behavior": "ask", "interrupt": "no"}}},
        "PermissionRequest",
    )
    assert codes(bad) == [
        ("hookSpecificOutput.decision.behavior", "INVALID_VALUE"),
        ("hookSpecificOutput.decision.interrupt", "INVALID_TYPE"),
    ]


# --------------------------------------------------------------------------- warnings


def test_unknown_fields_get_did_you_mean() -> None:
    result = v({"continu": True, "system_message": "x", "zzz": 1}, "Stop")
    suggestions = {w["field"]: w.get("suggestion") for w in result["warnings"]}
    assert suggestions == {
        "continu": "did you mean 'continue'?",
        "system_message": "did you mean 'systemMessage'?",
        "zzz": None,
    }
    assert result["valid"]


def test_fields_in_the_wrong_place_are_pointed_at() -> None:
    wave = v(
        {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "decision": "block",
                "reason": "x",
            }
        },
        "PostToolUse",
    )
    suggestions = {w["field"]: w.get("suggestion") for w in wave["warnings"]}
    assert suggestions["hookSpecificOutput.decision"] == "move 'decision' to the top level"
    assert suggestions["hookSpecificOutput.reason"] == "move 'reason' to the top level"
    top = v({"additionalContext": "x"}, "UserPromptSubmit")
    assert top["warnings"][0]["suggestion"] == "move 'additionalContext' into hookSpecificOutput"
    pre = v({"hookSpecificOutput": {"hookEventName": "PreToolUse", "decision": "deny"}})
    assert pre["warnings"][0]["suggestion"] == "use permissionDecision"
    misspelt = v(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permission_decision": "deny"}}
    )
    assert misspelt["warnings"][0]["suggestion"] == "did you mean 'permissionDecision'?"


def test_flow_warnings() -> None:
    assert warned(v({"continue": False})) == ["stopReason"]
    assert warned(v({"stopReason": "x"})) == ["stopReason"]
    legacy = v({"decision": "approve"})
    assert legacy["valid"] and legacy["warnings"][0]["suggestion"] == (
        'use hookSpecificOutput.permissionDecision "allow"'
    )
    no_reason = v({"decision": "block"}, "Stop")
    assert "required on Stop" in no_reason["warnings"][0]["message"]
    denied = v(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "updatedInput": {},
            }
        }
    )
    assert warned(denied) == ["hookSpecificOutput.updatedInput"]
    long = v({"systemMessage": "x" * (OUTPUT_CAP_CHARS + 1)})
    assert warned(long) == ["systemMessage"]


def test_events_whose_json_the_host_discards() -> None:
    result = v({"systemMessage": "x"}, "Notification")
    assert result["valid"] and "discards JSON" in result["warnings"][0]["message"]
    no_specific = v({"hookSpecificOutput": {"hookEventName": "PreCompact"}}, "PreCompact")
    assert "reads no hookSpecificOutput" in no_specific["warnings"][0]["message"]


@pytest.mark.parametrize("event", list(CLAUDE.events))
def test_every_field_the_host_reads_is_known(event: str) -> None:
    spec = CLAUDE.events[event]
    samples = {
        "permissionDecision": "allow",
        "decision": {"behavior": "allow"},
        "updatedInput": {},
        "updatedMCPToolOutput": [1],
        # Claude Code's other events (issue 27)
        "retry": True,
        "watchPaths": ["/a"],
        "content": {},
        "suppressOriginalPrompt": True,
        "action": "accept",
    }
    specific: dict[str, Any] = {"hookEventName": event}
    specific.update({f: samples.get(f, "text") for f in spec.specific_fields})
    reply: dict[str, Any] = {"hookSpecificOutput": specific, "systemMessage": "m"}
    result = v(reply, event)
    assert result["valid"], result["errors"]
    assert not [w for w in result["warnings"] if "unknown field" in w["message"]]


def test_a_field_of_another_event_is_unknown() -> None:
    result = v(
        {"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}},
        "PostToolUse",
    )
    assert (
        result["valid"] and "unknown field 'permissionDecision'" in result["warnings"][0]["message"]
    )


def test_gemini_events_use_gemini_fields() -> None:
    ok = v(
        {"decision": "deny", "reason": "r", "hookSpecificOutput": {"tool_input": {"a": 1}}},
        "BeforeTool",
    )
    assert ok == {"valid": True, "parsed": ok["parsed"], "errors": [], "warnings": []}
    bad = v({"decision": "nah", "hookSpecificOutput": {"tool_input": 1, "oops": 2}}, "BeforeTool")
    assert codes(bad) == [
        ("decision", "INVALID_VALUE"),
        ("hookSpecificOutput.tool_input", "INVALID_TYPE"),
    ]
    assert warned(bad) == ["hookSpecificOutput.oops"]
    selection = v(
        {"decision": "deny", "hookSpecificOutput": {"toolConfig": {}}}, "BeforeToolSelection"
    )
    assert warned(selection) == ["decision"]  # no top-level field counts here


# --------------------------------------------------------------------------- levels


def test_lenient_demotes_field_errors_to_warnings() -> None:
    reply = {"continue": "no", "decision": "nope"}
    strict = v(reply, "Stop")
    lenient = v(reply, "Stop", "lenient")
    assert strict["valid"] is False and strict["parsed"] == {}
    assert lenient["valid"] is True and lenient["parsed"] == reply and lenient["errors"] == []
    assert [w["field"] for w in lenient["warnings"]] == ["continue", "decision"]
    assert lenient["warnings"][0]["message"].endswith("(INVALID_TYPE)")
    assert v("[]", "Stop", "lenient")["valid"] is False  # a non-object is never valid


def test_check_answer_lists_the_rejected_paths() -> None:
    check = check_answer(
        {"systemMessage": 1, "hookSpecificOutput": {"hookEventName": "Stop"}}, "PreToolUse"
    )
    assert check.rejected == [("systemMessage",), ("hookSpecificOutput",)]
    assert check.sanitized({"systemMessage": 1, "hookSpecificOutput": {}, "continue": True}) == {
        "continue": True
    }


def test_sanitizing_does_not_touch_the_original() -> None:
    reply = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": 5}}
    check = check_answer(reply, "PreToolUse")
    assert check.sanitized(reply) == {"hookSpecificOutput": {"hookEventName": "PreToolUse"}}
    assert reply["hookSpecificOutput"]["permissionDecision"] == 5


def test_unknown_event() -> None:
    with pytest.raises(UnknownHookEventError):
        validate_json("{}", "Nope")


def test_did_you_mean() -> None:
    assert did_you_mean("StopReason", ["stopReason", "reason"]) == "stopReason"
    assert did_you_mean("reasn", ["stopReason", "reason"]) == "reason"
    assert did_you_mean("xyz", ["stopReason", "reason"]) is None


# --------------------------------------------------------------------------- properties


@given(
    st.text(max_size=80), st.sampled_from(ACCEPTED_EVENTS), st.sampled_from(["strict", "lenient"])
)
def test_validate_json_never_raises_on_text(text: str, event: str, level: str) -> None:
    v(text, event, level)


@given(
    answers | json_values, st.sampled_from(ACCEPTED_EVENTS), st.sampled_from(["strict", "lenient"])
)
def test_validate_json_never_raises_on_json(reply: Any, event: str, level: str) -> None:
    result = v(json.dumps(reply), event, level)
    if isinstance(reply, dict):
        assert "parsed" in result
        if level == "strict":
            assert result["valid"] == (not result["errors"])
            again = check_answer(result["parsed"], event)
            assert not again.errors  # the sanitized answer is valid


def test_every_accepted_event_has_a_validator() -> None:
    for name in HOOK_EVENTS:
        assert v({}, name)["valid"]


# The validator reads what each host takes from its event table, the same table its runtime
# reads: Codex takes a legacy top-level "approve" on PreToolUse and does nothing with it
# (observed with 0.169.0), and reads only allow and deny as permissionDecision.


def _codex(event: str) -> Any:
    from hookwise.api.processing.hook_events import HookEvent
    from hookwise.protocol.codex import CODEX

    return HookEvent(event, "codex", CODEX.events[event], True)


def test_codex_takes_approve_on_pre_tool_use_and_does_nothing_with_it() -> None:
    check = check_answer({"decision": "approve"}, _codex("PreToolUse"))
    assert check.errors == []
    assert any("does nothing" in w["message"] for w in check.warnings)
    blocked = check_answer({"decision": "block", "reason": "r"}, _codex("PreToolUse"))
    assert blocked.errors == [] and not any(
        "does nothing" in w["message"] for w in blocked.warnings
    )
    ask = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}
    assert [e["field"] for e in check_answer(ask, _codex("PreToolUse")).errors] == [
        "hookSpecificOutput.permissionDecision"
    ]
    # Claude Code takes approve everywhere; on Stop it does nothing, on PreToolUse it allows
    stop = v({"decision": "approve"}, "Stop")
    assert stop["valid"] and any("does nothing" in w["message"] for w in stop["warnings"])


@given(
    decision=st.sampled_from(["approve", "block", "allow", "deny", "x"]),
    choice=st.sampled_from([None, "allow", "deny", "ask", "defer", "x"]),
    event=st.sampled_from(["PreToolUse", "UserPromptSubmit", "Stop", "PostToolUse"]),
)
def test_the_validator_rejects_what_codex_rejects(
    decision: str, choice: str | None, event: str
) -> None:
    """For each decision value, the validator's error and Codex's runtime check (which
    reads the same table) agree on whether Codex takes it."""
    from hookwise.host.codex_dialect import _unsupported
    from hookwise.protocol.codex import CODEX

    spec = CODEX.events[event]
    answer: dict[str, Any] = {"decision": decision, "reason": "r"}
    if choice is not None and event == "PreToolUse":
        specific = {"hookEventName": event, "permissionDecision": choice}
        specific["permissionDecisionReason"] = "r"
        if choice == "allow":
            specific["updatedInput"] = {"command": "true"}
        answer["hookSpecificOutput"] = specific
    problem = _unsupported(spec, answer) or ""
    fields = {e["field"] for e in check_answer(answer, _codex(event)).errors}
    assert ("decision" in fields) == ("unsupported decision" in problem)
    if "decision" not in fields:  # Codex names only the first problem it meets
        assert ("hookSpecificOutput.permissionDecision" in fields) == (
            "unsupported permissionDecision" in problem
        )


def test_claude_s_permission_values_are_its_permission_ranks() -> None:
    from hookwise.protocol.claude import PERMISSION_RANK

    assert set(CLAUDE.events["PreToolUse"].permission_values) == set(PERMISSION_RANK)
