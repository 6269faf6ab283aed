"""Answers whose fields disagree, read as the real CLIs read them (issue 13, Fidelity).

Each case runs a real hook process through HookSystem and checks the outcome the real
CLI showed: Claude Code's top-level block beats permissionDecision allow, its exit-2
reason sources, Stop with continue:false and a block, a UTF-8 BOM; Gemini CLI's ask on a
headless run; Codex's head-and-tail reason shortening.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.codex_dialect import truncate_middle
from hookwise.host.outcome import gemini_outcome
from hookwise.host.system import HookSystem
from hookwise.protocol.codex import REASON_CAP_BYTES
from hookwise.protocol.profiles import Profile

BASH = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


def _outcome(
    tmp: Path, dialect: str, event: str, command: str, args: dict[str, Any] | None = None
) -> dict[str, Any]:
    hooks = {event: [{"hooks": [{"type": "command", "command": command}]}]}
    system = HookSystem.from_hooks(hooks, dialect=dialect, cwd=str(tmp))
    effect = system.fire_sync(event, BASH if args is None else args).effect
    return effect.to_json()["outcome"]  # type: ignore[no-any-return]


def _print(tmp: Path, answer: object, *, prefix: bytes = b"") -> str:
    path = tmp / "answer.out"
    path.write_bytes(prefix + json.dumps(answer).encode())
    return f"cat {path}"


def _allow(reason: str = "fine") -> dict[str, Any]:
    return {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": reason,
    }


def test_claude_top_level_block_beats_permission_allow(tmp_path: Path) -> None:
    answer = {"decision": "block", "reason": "top", "hookSpecificOutput": _allow()}
    out = _outcome(tmp_path, "claude", "PreToolUse", _print(tmp_path, answer))
    assert out["proceed"] is False and out["reason_for_model"] == "top"


@pytest.mark.parametrize(
    ("stderr", "expected"), [("from stderr", "from stderr"), ("", "No stderr output")]
)
def test_claude_exit_2_takes_stderr_unless_the_json_denies(
    tmp_path: Path, stderr: str, expected: str
) -> None:
    allow = {"hookSpecificOutput": _allow("json reason")}
    command = f"{_print(tmp_path, allow)}; printf '{stderr}' >&2; exit 2"
    out = _outcome(tmp_path, "claude", "PreToolUse", command)
    assert out["proceed"] is False and out["reason_for_model"] == expected


def test_claude_exit_2_with_a_json_deny_takes_the_json_reason(tmp_path: Path) -> None:
    deny = {"hookSpecificOutput": {**_allow("json reason"), "permissionDecision": "deny"}}
    command = f"{_print(tmp_path, deny)}; echo from-stderr >&2; exit 2"
    out = _outcome(tmp_path, "claude", "PreToolUse", command)
    assert out["reason_for_model"] == "json reason"


def test_claude_stop_with_continue_false_and_block_ends_without_going_back(
    tmp_path: Path,
) -> None:
    answer = {"continue": False, "stopReason": "done", "decision": "block", "reason": "again"}
    args = {"stop_hook_active": False, "last_assistant_message": "hi"}
    out = _outcome(tmp_path, "claude", "Stop", _print(tmp_path, answer), args)
    assert out["stop_session"] is True and out["proceed"] is True
    assert out["reason_for_model"] is None


def test_claude_tolerates_a_bom_before_the_json(tmp_path: Path) -> None:
    deny = {"hookSpecificOutput": {**_allow("bom"), "permissionDecision": "deny"}}
    command = _print(tmp_path, deny, prefix="\ufeff".encode())
    out = _outcome(tmp_path, "claude", "PreToolUse", command)
    assert out["proceed"] is False and out["reason_for_model"] == "bom"


def test_gemini_ask_does_not_proceed_and_asks_a_person(tmp_path: Path) -> None:
    answer = {"decision": "ask", "reason": "sure?"}
    hooks = {"BeforeTool": [{"hooks": [{"type": "command", "command": _print(tmp_path, answer)}]}]}
    system = HookSystem.from_hooks(hooks, cwd=str(tmp_path), profile=Profile.GEMINI_CLI)
    effect = system.fire_sync("BeforeTool", {"tool_name": "ls", "tool_input": {}}).effect
    outcome = gemini_outcome(effect, Profile.GEMINI_CLI)
    assert outcome.asks_user is True and outcome.proceed is False


def test_codex_keeps_head_and_tail_of_a_long_reason(tmp_path: Path) -> None:
    reason = "HEAD" + "x" * (REASON_CAP_BYTES * 2) + "TAIL"
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
    out = _outcome(tmp_path, "codex", "PreToolUse", _print(tmp_path, deny))
    text = out["reason_for_model"]
    assert text.startswith("HEAD") and text.endswith("TAIL") and "tokens truncated" in text


def test_truncate_middle_on_character_boundaries() -> None:
    text = "😀" * 10 + "\nsecond line with text\n"
    assert truncate_middle(text, 32) == "😀😀😀😀…8 tokens truncated… line with text\n"
    assert truncate_middle("short", 32) == "short"


# ------------------------------------------------ rules found by the systematic matrix
# (tests/e2e/matrix.py); each case is a recorded cell of tests/e2e/fixtures


def _printed(tmp: Path, text: str, name: str = "answer.out") -> str:
    path = tmp / name
    path.write_bytes(text.encode("utf-8"))
    return f"cat {path}"


PROMPT = {"prompt": "please write the marker"}
PERMISSION = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


def _deny(reason: str = "no") -> dict[str, Any]:
    return {**_allow(reason), "permissionDecision": "deny"}


@pytest.mark.parametrize("top", ["allow", "deny", "ask"])
def test_claude_ignores_an_answer_whose_top_level_decision_it_does_not_take(
    tmp_path: Path, top: str
) -> None:
    # pre-fields-top_<top>-own_deny: the whole answer is outside the schema, the tool runs
    answer = {"decision": top, "reason": "top", "hookSpecificOutput": _deny()}
    out = _outcome(tmp_path, "claude", "PreToolUse", _print(tmp_path, answer))
    assert out["proceed"] is True and out["reason_for_model"] is None
    assert "validation failed" in (out["message_for_user"] or "")


@pytest.mark.parametrize("host", ["claude", "codex"])
def test_a_wrongly_typed_field_voids_the_answer(tmp_path: Path, host: str) -> None:
    # pre-shape-wrong_type: Claude ignores the answer, Codex fails the hook; the tool runs
    answer = {"systemMessage": 42, "hookSpecificOutput": _deny()}
    out = _outcome(tmp_path, host, "PreToolUse", _print(tmp_path, answer))
    assert out["proceed"] is True and out["reason_for_model"] is None


@pytest.mark.parametrize(
    ("stdout", "context"),
    [
        ('{"decision": "block"} trailing words\n', '{"decision": "block"} trailing words'),
        ('note\n{"decision": "block"}\n', 'note\n{"decision": "block"}'),
        ('[{"decision": "block"}]\n', '[{"decision": "block"}]'),
        ('{"decision": "block", "reason": "cut', '{"decision": "block", "reason": "cut'),
        ('{"decision": "block"}\n{"systemMessage": "x"}\n', None),  # { ... }: invalid JSON
    ],
)
def test_claude_reads_json_only_between_braces(
    tmp_path: Path, stdout: str, context: str | None
) -> None:
    out = _outcome(tmp_path, "claude", "UserPromptSubmit", _printed(tmp_path, stdout), PROMPT)
    assert out["proceed"] is True and out["additional_context"] == context


def test_claude_permission_request_left_undecided_asks_the_user(tmp_path: Path) -> None:
    out = _outcome(tmp_path, "claude", "PermissionRequest", "true", PERMISSION)
    assert out["proceed"] is False and out["asks_user"] is True
    assert out["reason_for_model"] is None


def test_claude_permission_request_reads_the_json_on_exit_2_and_ignores_continue(
    tmp_path: Path,
) -> None:
    deny = {
        "continue": False,
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "json says no"},
        },
    }
    command = f"{_print(tmp_path, deny)}; echo stderr >&2; exit 2"
    out = _outcome(tmp_path, "claude", "PermissionRequest", command, PERMISSION)
    assert out["proceed"] is False and out["asks_user"] is False
    assert out["reason_for_model"] == "json says no" and out["stop_session"] is False


def test_codex_reads_a_bom_and_a_json_string_as_plain_text(tmp_path: Path) -> None:
    block = json.dumps({"decision": "block", "reason": "r"})
    bom = _outcome(
        tmp_path, "codex", "UserPromptSubmit", _printed(tmp_path, "\ufeff" + block), PROMPT
    )
    assert bom["proceed"] is True and bom["additional_context"] == "\ufeff" + block
    quoted = json.dumps(block)
    text = _outcome(tmp_path, "codex", "UserPromptSubmit", _printed(tmp_path, quoted), PROMPT)
    assert text["proceed"] is True and text["additional_context"] == quoted
    for other in ("null", "2", "[1]", block + "\n" + block):
        out = _outcome(tmp_path, "codex", "UserPromptSubmit", _printed(tmp_path, other), PROMPT)
        assert out["additional_context"] is None, other  # JSON, but not an object: failed


@pytest.mark.parametrize(
    ("extra", "blocks"),
    [({"decision": "approve"}, True), ({"continue": True}, True), ({"continue": False}, False)],
)
def test_codex_pre_tool_takes_approve_and_continue_true_but_fails_on_continue_false(
    tmp_path: Path, extra: dict[str, Any], blocks: bool
) -> None:
    answer = {**extra, "hookSpecificOutput": _deny("json no")}
    out = _outcome(tmp_path, "codex", "PreToolUse", _print(tmp_path, answer))
    assert out["proceed"] is not blocks
    assert out["reason_for_model"] == ("json no" if blocks else None)


def test_codex_declines_a_permission_request_on_exit_2_with_stderr(tmp_path: Path) -> None:
    command = "echo 'not today' >&2; exit 2"
    out = _outcome(tmp_path, "codex", "PermissionRequest", command, PERMISSION)
    assert out["proceed"] is False and out["reason_for_model"] == "not today"
    assert out["asks_user"] is False
    # exit 2 without stderr decides nothing: Codex's own approval asks
    quiet = _outcome(tmp_path, "codex", "PermissionRequest", "exit 2", PERMISSION)
    assert quiet["proceed"] is False and quiet["asks_user"] is True


def test_gemini_ask_ends_a_headless_run(tmp_path: Path) -> None:
    answer = {"decision": "ask", "reason": "sure?"}
    hooks = {"BeforeTool": [{"hooks": [{"type": "command", "command": _print(tmp_path, answer)}]}]}
    system = HookSystem.from_hooks(hooks, cwd=str(tmp_path), profile=Profile.GEMINI_CLI)
    effect = system.fire_sync("BeforeTool", {"tool_name": "ls", "tool_input": {}}).effect
    outcome = gemini_outcome(effect, Profile.GEMINI_CLI)
    assert outcome.asks_user and not outcome.proceed and outcome.stop_session


def test_codex_cuts_a_blocked_call_s_reason_together_with_its_frame(tmp_path: Path) -> None:
    # pre-shape-long_reason: Codex cuts "Command blocked by PreToolUse hook: R. Command: C"
    # as a whole, so the reason keeps 36 bytes less of its head and len(". Command: C")
    # less of its tail than a cut of R alone; the marker counts the frame's bytes too
    reason = "HEAD " + "Grüße aus Köln, line ✓\n" * 900 + "TAIL"
    deny = {"hookSpecificOutput": _deny(reason)}
    args = {"tool_name": "Bash", "tool_input": {"command": "echo hi > marker"}}
    out = _outcome(tmp_path, "codex", "PreToolUse", _print(tmp_path, deny), args)
    text = out["reason_for_model"]
    framed = f"Command blocked by PreToolUse hook: {reason}. Command: echo hi > marker"
    cut = truncate_middle(framed, REASON_CAP_BYTES)
    assert (
        text
        == cut[len("Command blocked by PreToolUse hook: ") : -len(". Command: echo hi > marker")]
    )
    head, marker, tail = text.partition("…")
    removed = len(framed.encode()) - REASON_CAP_BYTES
    assert marker and f"{-(-removed // 4)} tokens truncated…" in tail
    assert reason.startswith(head) and text.endswith("TAIL")
    # the head's half of the budget, less the frame's prefix, on a character boundary
    budget = REASON_CAP_BYTES // 2 - len("Command blocked by PreToolUse hook: ")
    assert budget - 3 <= len(head.encode()) <= budget
