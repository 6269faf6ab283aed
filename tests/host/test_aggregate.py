"""aggregate: the per-event merge rules, with the engine's JavaScript semantics."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hookwise.host.aggregate import aggregate
from hookwise.protocol.gemini import EVENT_NAMES
from hookwise.protocol.profiles import Profile
from tests.strategies import answers

ENGINE = Profile.GEMINI_CLI


def final(event: str, outputs: list[Any], profile: Profile = ENGINE) -> dict[str, Any] | None:
    agg = aggregate(event, outputs, [], profile)
    return agg.final.as_json() if agg.final is not None else None


def test_no_outputs_no_answer() -> None:
    agg = aggregate("BeforeTool", [], [])
    assert agg.final is None and agg.success


def test_errors_make_success_false_but_keep_answers() -> None:
    agg = aggregate("BeforeTool", [{"decision": "deny"}], ["Hook timed out after 5ms"])
    assert not agg.success
    assert agg.final is not None and agg.final.is_blocking_decision()


def test_or_decision_defaults_to_allow() -> None:
    assert final("BeforeTool", [{"systemMessage": "a"}, {"systemMessage": "b"}]) == {
        "continue": True,
        "suppressOutput": False,
        "systemMessage": "a\nb",
        "decision": "allow",
    }


def test_block_wins_and_last_blocking_value_is_kept() -> None:
    out = final(
        "BeforeTool",
        [
            {"decision": "block", "reason": "x"},
            {"decision": "allow"},
            {"decision": "deny", "reason": "y"},
        ],
    )
    assert out is not None and out["decision"] == "deny" and out["reason"] == "x\ny"


def test_ask_only_without_block() -> None:
    out = final("BeforeTool", [{"decision": "ask"}, {"decision": "block"}, {"decision": "ask"}])
    assert out is not None and out["decision"] == "block"
    assert final("BeforeTool", [{"decision": "ask"}])["decision"] == "ask"  # type: ignore[index]


def test_continue_false_collects_stop_reasons_and_leaves_decision_unset() -> None:
    out = final(
        "BeforeTool",
        [{"continue": False, "stopReason": "a"}, {"continue": False, "stopReason": "b"}],
    )
    assert out == {"continue": False, "stopReason": "a\nb", "suppressOutput": False}


def test_approve_and_unknown_collapse_to_allow() -> None:
    assert final("BeforeTool", [{"decision": "approve"}])["decision"] == "allow"  # type: ignore[index]
    assert final("BeforeTool", [{"decision": "nope"}])["decision"] == "allow"  # type: ignore[index]


def test_non_string_reasons_join_as_javascript_strings() -> None:
    out = final(
        "BeforeTool",
        [{"decision": "deny", "reason": 5}, {"reason": [1, None, "x"]}, {"reason": {"a": 1}}],
    )
    assert out is not None and out["reason"] == "5\n1,,x\n[object Object]"


def test_additional_context_joined_and_clear_context_any_true() -> None:
    out = final(
        "AfterAgent",
        [
            {"hookSpecificOutput": {"additionalContext": "one", "clearContext": True}},
            {"hookSpecificOutput": {"additionalContext": "two", "clearContext": False}},
        ],
    )
    assert out is not None
    assert out["hookSpecificOutput"] == {"clearContext": True, "additionalContext": "one\ntwo"}


def test_tool_input_last_wins_in_engine_but_composes_when_documented() -> None:
    outputs = [
        {"hookSpecificOutput": {"tool_input": {"a": 1}}},
        {"hookSpecificOutput": {"tool_input": {"b": 2}}},
    ]
    assert final("BeforeTool", outputs)["hookSpecificOutput"]["tool_input"] == {"b": 2}  # type: ignore[index]
    documented = final("BeforeTool", outputs, Profile.DOCUMENTED)
    assert documented["hookSpecificOutput"]["tool_input"] == {"a": 1, "b": 2}  # type: ignore[index]


def test_suppress_output_any_true() -> None:
    assert (
        final("AfterTool", [{"suppressOutput": False}, {"suppressOutput": 1}])["suppressOutput"]
        is True
    )  # type: ignore[index]


def test_field_replacement_for_model_events() -> None:
    out = final(
        "BeforeModel",
        [
            {"decision": "deny", "hookSpecificOutput": {"llm_request": {"model": "a"}}},
            {"reason": "r", "hookSpecificOutput": {"llm_response": {"candidates": []}}},
        ],
    )
    assert out == {
        "decision": "deny",
        "reason": "r",
        "hookSpecificOutput": {"llm_request": {"model": "a"}, "llm_response": {"candidates": []}},
    }


def test_tool_selection_union_sorted_none_wins() -> None:
    union = final(
        "BeforeToolSelection",
        [
            {
                "decision": "deny",
                "hookSpecificOutput": {
                    "toolConfig": {"mode": "ANY", "allowedFunctionNames": ["z", "a"]}
                },
            },
            {"hookSpecificOutput": {"toolConfig": {"allowedFunctionNames": ["m", "a"]}}},
        ],
    )
    assert union == {
        "hookSpecificOutput": {
            "hookEventName": "BeforeToolSelection",
            "toolConfig": {"mode": "ANY", "allowedFunctionNames": ["a", "m", "z"]},
        }
    }
    none = final(
        "BeforeToolSelection",
        [
            {"hookSpecificOutput": {"toolConfig": {"mode": "NONE"}}},
            {"hookSpecificOutput": {"toolConfig": {"allowedFunctionNames": ["x"]}}},
        ],
    )
    assert none["hookSpecificOutput"]["toolConfig"] == {"mode": "NONE", "allowedFunctionNames": []}  # type: ignore[index]
    assert final("BeforeToolSelection", [{"systemMessage": "x"}])["hookSpecificOutput"][
        "toolConfig"
    ] == {  # type: ignore[index]
        "mode": "AUTO",
        "allowedFunctionNames": [],
    }


def test_simple_merge_later_wins_whole_fields() -> None:
    out = final(
        "SessionEnd",
        [
            {"systemMessage": "a", "decision": "deny", "hookSpecificOutput": {"x": 1}},
            {"systemMessage": "b", "hookSpecificOutput": {"y": 2}},
        ],
    )
    assert out == {"systemMessage": "b", "decision": "deny", "hookSpecificOutput": {"y": 2}}


def test_string_hook_specific_output_is_the_engines_type_error() -> None:
    agg = aggregate("BeforeTool", [{"hookSpecificOutput": "abc"}], [])
    assert agg.final is None and not agg.success
    assert agg.merge_error is not None and "'in' operator" in agg.merge_error


def test_array_answer_keeps_only_defaults() -> None:
    assert final("BeforeTool", [[1, 2]]) == {
        "continue": True,
        "suppressOutput": False,
        "decision": "allow",
    }


@given(st.sampled_from(EVENT_NAMES), st.lists(answers, max_size=4), st.sampled_from(list(Profile)))
def test_any_answers_merge_or_report_never_raise(
    event: str, outputs: list[Any], profile: Profile
) -> None:
    agg = aggregate(event, outputs, [], profile)
    if agg.final is not None:
        final_json = agg.final.as_json()
        assert set(final_json) <= {
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "decision",
            "reason",
            "hookSpecificOutput",
        }
        agg.final.is_blocking_decision()
        agg.final.effective_reason()
