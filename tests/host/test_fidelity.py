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
