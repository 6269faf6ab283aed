"""One test per statement of the Gemini hooks reference (seed 002), documented profile.

Every test runs real hook processes through HookSystem; the statement it checks is
quoted in its docstring.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.effect import (
    AdvisoryEffect,
    ModelRequestEffect,
    ModelResponseEffect,
    PromptEffect,
    ResponseEffect,
    SessionStartEffect,
    ToolCallEffect,
    ToolResultEffect,
    ToolSelectionEffect,
)
from hookwise.host.system import FireResult, HookSystem
from hookwise.protocol.profiles import Profile

SHELL = {"tool_name": "run_shell_command", "tool_input": {"command": "ls", "dir": "src"}}
READ = {
    "tool_name": "read_file",
    "tool_input": {"absolute_path": "/a"},
    "tool_response": {"llmContent": "secret body", "returnDisplay": "read"},
}
REQUEST = {
    "model": "gemini-2.5-pro",
    "contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "ls", "args": {}}}]},
    ],
    "config": {"temperature": 0.5, "tools": [{"functionDeclarations": [{"name": "ls"}]}]},
}
CHUNK = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "SECRET 123"}]}, "finishReason": "STOP"}
    ]
}


def answer(obj: Any, code: int = 0) -> str:
    return f"echo {shlex.quote(json.dumps(obj))}; exit {code}"


def fire(
    tmp_path: Path, event: str, args: dict[str, Any], *commands: str, matcher: str | None = None
) -> FireResult:
    definition: dict[str, Any] = {
        "hooks": [
            {"type": "command", "command": c, "name": f"h{i}"} for i, c in enumerate(commands)
        ]
    }
    if matcher is not None:
        definition["matcher"] = matcher
    system = HookSystem.from_hooks(
        {event: [definition]}, profile=Profile.DOCUMENTED, cwd=str(tmp_path), session_id="s-1"
    )
    return system.fire_sync(event, args)


# -- communication protocol ----------------------------------------------------------------


def test_input_is_a_json_object_with_the_base_fields(tmp_path: Path) -> None:
    """ "Every hook receives a base JSON object": session_id, transcript_path, cwd,
    hook_event_name, timestamp (ISO 8601)."""
    result = fire(tmp_path, "BeforeAgent", {"prompt": "p"}, "cat > stdin.json")
    sent = json.loads((tmp_path / "stdin.json").read_text())
    assert sent["session_id"] == "s-1"
    assert sent["transcript_path"] == ""
    assert sent["cwd"] == str(tmp_path)
    assert sent["hook_event_name"] == "BeforeAgent"
    assert sent["timestamp"].endswith("Z") and "T" in sent["timestamp"]
    assert result.runs[0].success


def test_exit_0_stdout_parsed_as_json(tmp_path: Path) -> None:
    """ "0 Success: stdout is parsed as JSON.\""""
    result = fire(tmp_path, "BeforeTool", SHELL, answer({"decision": "deny", "reason": "no"}))
    assert isinstance(result.effect, ToolCallEffect) and result.effect.action == "block"


def test_exit_0_unparsable_stdout_is_a_system_message(tmp_path: Path) -> None:
    """ "If parsing fails, it's treated as a systemMessage.\""""
    result = fire(tmp_path, "BeforeTool", SHELL, "echo just saying")
    assert result.effect.action == "proceed"  # type: ignore[attr-defined]
    assert result.effect.user_message() == "just saying"


def test_exit_2_blocks_and_stderr_goes_to_the_agent(tmp_path: Path) -> None:
    """ "2 Blocking Error: Interrupts the current operation. stderr is shown to the agent
    (for tool events)\""""
    result = fire(tmp_path, "BeforeTool", SHELL, "echo 'not allowed' >&2; exit 2")
    assert isinstance(result.effect, ToolCallEffect)
    assert result.effect.action == "block"
    assert result.effect.error == "Tool execution blocked: not allowed"


def test_exit_2_on_a_non_tool_event_shows_stderr_to_the_user(tmp_path: Path) -> None:
    """ "... or the user.\""""
    result = fire(tmp_path, "SessionStart", {"source": "startup"}, "echo 'heads up' >&2; exit 2")
    assert result.effect.user_message() == "heads up"


@pytest.mark.parametrize("code", [1, 3, 127])
def test_other_exit_codes_warn_and_continue(tmp_path: Path, code: int) -> None:
    """ "Other: Warning. Execution continues. stderr is logged as a non-blocking warning.\""""
    result = fire(tmp_path, "BeforeTool", SHELL, f"echo 'careful' >&2; exit {code}")
    assert result.effect.action == "proceed"  # type: ignore[attr-defined]
    assert any("careful" in w for w in result.runs[0].warnings)


# -- input schema ----------------------------------------------------------------------------


def test_tool_event_fields(tmp_path: Path) -> None:
    """Tool events get tool_name and tool_input; AfterTool adds tool_response; mcp_context
    is "present only for MCP tool invocations".\""""
    fire(tmp_path, "AfterTool", READ, "cat > stdin.json")
    sent = json.loads((tmp_path / "stdin.json").read_text())
    assert sent["tool_name"] == "read_file"
    assert sent["tool_input"] == {"absolute_path": "/a"}
    assert sent["tool_response"] == READ["tool_response"]
    assert "mcp_context" not in sent
    mcp = {"server_name": "gh", "tool_name": "issue", "command": "gh-mcp"}
    fire(
        tmp_path,
        "BeforeTool",
        {"tool_name": "mcp__gh__issue", "tool_input": {}, "mcp_context": mcp},
        "cat > stdin.json",
    )
    assert json.loads((tmp_path / "stdin.json").read_text())["mcp_context"] == mcp


def test_agent_event_fields(tmp_path: Path) -> None:
    """AfterAgent gets prompt, prompt_response and stop_hook_active."""
    fire(tmp_path, "AfterAgent", {"prompt": "p", "prompt_response": "r"}, "cat > stdin.json")
    sent = json.loads((tmp_path / "stdin.json").read_text())
    assert (sent["prompt"], sent["prompt_response"], sent["stop_hook_active"]) == ("p", "r", False)


def test_model_event_fields_and_non_text_parts_as_strings(tmp_path: Path) -> None:
    """Model events get llm_request (and AfterModel llm_response); "Non-text parts ... will
    be simplified to their string representation by the translator.\""""
    fire(
        tmp_path, "AfterModel", {"llm_request": REQUEST, "llm_response": CHUNK}, "cat > stdin.json"
    )
    sent = json.loads((tmp_path / "stdin.json").read_text())
    messages = sent["llm_request"]["messages"]
    assert messages[0] == {"role": "user", "content": "hi"}
    assert messages[1]["role"] == "model" and "functionCall" in messages[1]["content"]
    assert sent["llm_response"]["candidates"][0]["content"]["parts"] == ["SECRET 123"]


@pytest.mark.parametrize(
    ("event", "args"),
    [
        ("SessionStart", {"source": "resume"}),
        ("SessionEnd", {"reason": "logout"}),
        ("PreCompress", {"trigger": "auto"}),
        (
            "Notification",
            {"notification_type": "ToolPermission", "message": "m", "details": {"k": 1}},
        ),
    ],
)
def test_session_and_notification_fields(tmp_path: Path, event: str, args: dict[str, Any]) -> None:
    """source / reason / trigger / notification_type, message, details."""
    fire(tmp_path, event, args, "cat > stdin.json")
    sent = json.loads((tmp_path / "stdin.json").read_text())
    assert {k: sent[k] for k in args} == args


# -- common output fields ------------------------------------------------------------------


def test_continue_false_terminates_the_loop_with_stop_reason(tmp_path: Path) -> None:
    """ "continue: If false, immediately terminates the agent loop"; "stopReason: Message
    shown to the user when continue is false.\""""
    result = fire(
        tmp_path, "BeforeTool", SHELL, answer({"continue": False, "stopReason": "enough"})
    )
    assert result.effect.action == "stop"  # type: ignore[attr-defined]
    assert result.effect.error == "Agent execution stopped by hook: enough"  # type: ignore[attr-defined]


def test_suppress_output_hides_the_hook_from_the_transcript(tmp_path: Path) -> None:
    """ "suppressOutput: If true, the hook execution is hidden from the CLI transcript.\""""
    result = fire(
        tmp_path, "BeforeTool", SHELL, answer({"systemMessage": "hidden", "suppressOutput": True})
    )
    assert result.effect.user_message(Profile.DOCUMENTED) is None
    assert result.effect.user_message(Profile.GEMINI_CLI) == "hidden"


# -- matchers ------------------------------------------------------------------------------


def test_matchers_are_regexes_on_tool_names(tmp_path: Path) -> None:
    """ "Matchers support regular expressions (e.g., matcher: "read_.*" ...)\""""
    hit = fire(tmp_path, "AfterTool", READ, "echo hit", matcher="read_.*")
    miss = fire(tmp_path, "BeforeTool", SHELL, "echo hit", matcher="read_.*")
    assert hit.plan is not None and miss.plan is None


def test_mcp_tools_match_their_server_pattern(tmp_path: Path) -> None:
    """ "Tools from MCP servers follow the naming pattern mcp__<server_name>__<tool_name>.\""""
    result = fire(
        tmp_path,
        "BeforeTool",
        {"tool_name": "mcp__github__list", "tool_input": {}},
        "echo hit",
        matcher="mcp__github__.*",
    )
    assert result.plan is not None


# -- BeforeTool ------------------------------------------------------------------------------


def test_before_tool_tool_input_merges_with_and_overrides_the_arguments(tmp_path: Path) -> None:
    """ "hookSpecificOutput.tool_input: An object that merges with and overrides the model's
    arguments before execution.\""""
    result = fire(
        tmp_path,
        "BeforeTool",
        SHELL,
        answer({"hookSpecificOutput": {"tool_input": {"command": "ls -la"}}}),
    )
    assert result.effect.tool_input == {"command": "ls -la", "dir": "src"}  # type: ignore[attr-defined]


# -- AfterTool -------------------------------------------------------------------------------


def test_after_tool_deny_replaces_the_result_with_the_reason(tmp_path: Path) -> None:
    """ "decision: deny to hide the real tool output"; "reason ... replaces the tool result.\""""
    result = fire(tmp_path, "AfterTool", READ, answer({"decision": "deny", "reason": "withheld"}))
    assert isinstance(result.effect, ToolResultEffect)
    assert result.effect.tool_result["llmContent"] == "Tool result blocked: withheld"  # type: ignore[index]
    assert "secret" not in json.dumps(result.effect.tool_result)


def test_after_tool_additional_context_is_appended(tmp_path: Path) -> None:
    """ "hookSpecificOutput.additionalContext: Text that is appended to the tool result.\""""
    result = fire(
        tmp_path, "AfterTool", READ, answer({"hookSpecificOutput": {"additionalContext": "note"}})
    )
    assert (
        result.effect.tool_result["llmContent"]
        == "secret body\n\n<hook_context>note</hook_context>"
    )  # type: ignore[attr-defined]


def test_after_tool_exit_2_hides_the_result_with_stderr(tmp_path: Path) -> None:
    """ "Exit Code 2 (Block Result): Hides the tool result. Uses stderr as the replacement.\""""
    result = fire(tmp_path, "AfterTool", READ, "echo 'redacted' >&2; exit 2")
    assert result.effect.tool_result["llmContent"] == "Tool result blocked: redacted"  # type: ignore[attr-defined]


def test_after_tool_continue_false_kills_the_loop(tmp_path: Path) -> None:
    """AfterTool "continue: Set to false to kill the entire agent loop immediately.\""""
    result = fire(tmp_path, "AfterTool", READ, answer({"continue": False}))
    assert result.effect.action == "stop"  # type: ignore[attr-defined]


# -- BeforeAgent / AfterAgent ------------------------------------------------------------------


def test_before_agent_context_deny_and_stop(tmp_path: Path) -> None:
    """additionalContext is appended to the prompt; deny blocks the turn and discards the
    message; continue false blocks but saves it; exit 2 is the same as deny."""
    ctx = fire(
        tmp_path,
        "BeforeAgent",
        {"prompt": "p"},
        answer({"hookSpecificOutput": {"additionalContext": "ticket 42"}}),
    )
    assert isinstance(ctx.effect, PromptEffect) and ctx.effect.appended_part == {
        "text": "<hook_context>ticket 42</hook_context>"
    }
    deny = fire(
        tmp_path,
        "BeforeAgent",
        {"prompt": "p"},
        answer({"decision": "deny", "reason": "off-topic"}),
    )
    assert deny.effect.action == "block" and not deny.effect.prompt_kept_in_history  # type: ignore[attr-defined]
    stop = fire(
        tmp_path, "BeforeAgent", {"prompt": "p"}, answer({"continue": False, "reason": "later"})
    )
    assert stop.effect.action == "stop" and stop.effect.prompt_kept_in_history  # type: ignore[attr-defined]
    exit2 = fire(tmp_path, "BeforeAgent", {"prompt": "p"}, "echo nope >&2; exit 2")
    assert exit2.effect.action == "block" and exit2.effect.reason == "nope"  # type: ignore[attr-defined]


def test_after_agent_retry_stop_and_clear_context(tmp_path: Path) -> None:
    """deny rejects the response and forces a retry with the reason as the new prompt;
    continue false stops; clearContext clears the history; exit 2 retries with stderr."""
    args = {"prompt": "p", "prompt_response": "r"}
    retry = fire(
        tmp_path,
        "AfterAgent",
        args,
        answer(
            {
                "decision": "deny",
                "reason": "add tests",
                "hookSpecificOutput": {"clearContext": True},
            }
        ),
    )
    assert isinstance(retry.effect, ResponseEffect)
    assert retry.effect.action == "retry" and retry.effect.retry_prompt == [{"text": "add tests"}]
    assert retry.effect.clear_context
    stop = fire(tmp_path, "AfterAgent", args, answer({"continue": False}))
    assert stop.effect.action == "stop"  # type: ignore[attr-defined]
    exit2 = fire(tmp_path, "AfterAgent", args, "echo 'again' >&2; exit 2")
    assert exit2.effect.retry_prompt == [{"text": "again"}]  # type: ignore[attr-defined]


# -- model hooks -----------------------------------------------------------------------------


def test_before_model_request_override(tmp_path: Path) -> None:
    """ "hookSpecificOutput.llm_request: overrides parts of the outgoing request.\""""
    result = fire(
        tmp_path,
        "BeforeModel",
        {"llm_request": REQUEST},
        answer({"hookSpecificOutput": {"llm_request": {"model": "gemini-2.5-flash"}}}),
    )
    assert isinstance(result.effect, ModelRequestEffect)
    assert (
        result.effect.action == "proceed" and result.effect.request["model"] == "gemini-2.5-flash"
    )  # type: ignore[index]


def test_before_model_synthetic_response_skips_the_call(tmp_path: Path) -> None:
    """ "hookSpecificOutput.llm_response: If provided, the CLI skips the LLM call entirely.\""""
    synthetic = {"candidates": [{"content": {"role": "model", "parts": ["cached"]}}]}
    result = fire(
        tmp_path,
        "BeforeModel",
        {"llm_request": REQUEST},
        answer({"hookSpecificOutput": {"llm_response": synthetic}}),
    )
    assert result.effect.synthetic_response["candidates"][0]["content"]["parts"] == [
        {"text": "cached"}
    ]  # type: ignore[attr-defined]


def test_before_model_deny_and_exit_2_abort_the_turn(tmp_path: Path) -> None:
    """deny blocks the request; "Exit Code 2 (Block Turn): Aborts the turn and skips the LLM call.\""""
    deny = fire(
        tmp_path,
        "BeforeModel",
        {"llm_request": REQUEST},
        answer({"decision": "deny", "reason": "quota"}),
    )
    assert deny.effect.action == "block"  # type: ignore[attr-defined]
    exit2 = fire(tmp_path, "BeforeModel", {"llm_request": REQUEST}, "echo quota >&2; exit 2")
    assert exit2.effect.action == "block" and exit2.effect.reason == "quota"  # type: ignore[attr-defined]


def test_before_tool_selection_none_wins_any_and_union(tmp_path: Path) -> None:
    """ "NONE: Disables all tools (Wins over other hooks)"; "ANY: Forces at least one tool
    call"; "Multiple hooks' whitelists are combined"; decision is not supported."""
    union = fire(
        tmp_path,
        "BeforeToolSelection",
        {"llm_request": REQUEST},
        answer(
            {
                "decision": "deny",
                "hookSpecificOutput": {
                    "toolConfig": {"mode": "ANY", "allowedFunctionNames": ["b"]}
                },
            }
        ),
        answer({"hookSpecificOutput": {"toolConfig": {"allowedFunctionNames": ["a"]}}}),
    )
    assert isinstance(union.effect, ToolSelectionEffect)
    assert union.effect.tool_config == {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["a", "b"]}
    }
    none = fire(
        tmp_path,
        "BeforeToolSelection",
        {"llm_request": REQUEST},
        answer({"hookSpecificOutput": {"toolConfig": {"mode": "NONE"}}}),
        answer(
            {"hookSpecificOutput": {"toolConfig": {"mode": "ANY", "allowedFunctionNames": ["a"]}}}
        ),
    )
    assert none.effect.tool_config["functionCallingConfig"]["mode"] == "NONE"  # type: ignore[attr-defined]


def test_after_model_replace_and_deny_discards_the_chunk(tmp_path: Path) -> None:
    """llm_response "replaces the model's response chunk"; deny "discard[s] the response
    chunk and block[s] the turn"; exit 2 aborts and discards the output."""
    args = {"llm_request": REQUEST, "llm_response": CHUNK}
    replaced = {"candidates": [{"content": {"role": "model", "parts": ["REDACTED"]}}]}
    result = fire(
        tmp_path, "AfterModel", args, answer({"hookSpecificOutput": {"llm_response": replaced}})
    )
    assert isinstance(result.effect, ModelResponseEffect) and result.effect.replaced
    assert result.effect.response["candidates"][0]["content"]["parts"] == [{"text": "REDACTED"}]  # type: ignore[index]
    deny = fire(tmp_path, "AfterModel", args, answer({"decision": "deny", "reason": "pii"}))
    assert deny.effect.action == "block" and deny.effect.response is not CHUNK  # type: ignore[attr-defined]
    assert "SECRET" not in json.dumps(deny.effect.to_json())
    exit2 = fire(tmp_path, "AfterModel", args, "echo pii >&2; exit 2")
    assert exit2.effect.action == "block"  # type: ignore[attr-defined]


# -- lifecycle -------------------------------------------------------------------------------


def test_session_start_context_and_message_but_never_blocked(tmp_path: Path) -> None:
    """additionalContext is injected, systemMessage shown; "continue and decision fields
    are ignored. Startup is never blocked.\""""
    result = fire(
        tmp_path,
        "SessionStart",
        {"source": "startup"},
        answer(
            {
                "decision": "deny",
                "continue": False,
                "systemMessage": "hi",
                "hookSpecificOutput": {"additionalContext": "ctx"},
            }
        ),
    )
    assert isinstance(result.effect, SessionStartEffect)
    assert result.effect.history_part == "<hook_context>ctx</hook_context>"
    assert result.effect.user_message() == "hi"


@pytest.mark.parametrize(
    ("event", "args"),
    [
        ("SessionEnd", {"reason": "exit"}),
        ("PreCompress", {"trigger": "manual"}),
        ("Notification", {"notification_type": "ToolPermission", "message": "m", "details": {}}),
    ],
)
def test_advisory_events_only_show_messages(
    tmp_path: Path, event: str, args: dict[str, Any]
) -> None:
    """SessionEnd, PreCompress and Notification: systemMessage is displayed; flow-control
    fields are ignored; they cannot block."""
    result = fire(
        tmp_path,
        event,
        args,
        answer({"decision": "deny", "continue": False, "systemMessage": "noted"}),
    )
    assert isinstance(result.effect, AdvisoryEffect)
    assert result.effect.user_message() == "noted"
