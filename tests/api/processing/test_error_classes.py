"""classify_error: every rule, severity and fallback by event, and the response model."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.api.processing.error_classes import classify_error, program
from hookwise.api.processing.hook_events import ACCEPTED_EVENTS, UnknownHookEventError
from hookwise.api.schemas import ClassifyErrorResponse


def classify(
    code: int, stderr: str = "", event: str = "PostToolUse", command: str = "./hook.sh"
) -> dict[str, Any]:
    result = classify_error(code, stderr, event, command)
    assert ClassifyErrorResponse.model_validate(result).model_dump(mode="json") == result
    return result


def summary(result: dict[str, Any]) -> tuple[str, str, bool, str]:
    recovery = result["recovery"]
    return (
        result["errorType"],
        result["severity"],
        recovery["autoRetry"],
        recovery["fallbackBehavior"],
    )


def test_exit_2_on_a_blocking_event_is_a_block() -> None:
    result = classify(2, "rm -rf refused\nmore", "PreToolUse")
    assert summary(result) == ("validation_failed", "error", False, "block")
    assert "rm -rf refused" in result["message"] and "more" not in result["message"]
    assert "no stderr output" in classify(2, "", "Stop")["message"]


def test_exit_2_on_a_non_blocking_event_is_not_a_block() -> None:
    assert summary(classify(2, "boom", "PostToolUse"))[3] == "continue"


@pytest.mark.parametrize("code", [124, 137, 143, -9, -15])
def test_timeout_codes(code: int) -> None:
    assert summary(classify(code, "", "PostToolUse")) == ("timeout", "warning", True, "continue")
    assert summary(classify(code, "", "PreToolUse")) == ("timeout", "error", True, "ask_user")
    assert summary(classify(code, "", "Stop")) == ("timeout", "error", True, "continue")


@pytest.mark.parametrize(
    "stderr", ["Hook timed out after 60000ms", "ETIMEDOUT", "operation timeout"]
)
def test_timeout_in_stderr(stderr: str) -> None:
    result = classify(1, stderr)
    assert result["errorType"] == "timeout" and "hook.sh" in result["recovery"]["suggestion"]


def test_permission_denied() -> None:
    result = classify(126, "bash: ./hook.sh: Permission denied", "PreToolUse")
    assert summary(result) == ("permission_denied", "fatal", False, "ask_user")
    assert "chmod +x ./hook.sh" in result["recovery"]["suggestion"]
    assert summary(classify(1, "EACCES: permission denied, open '/etc/x'"))[:2] == (
        "permission_denied",
        "error",
    )


def test_command_not_found_names_the_command() -> None:
    from_stderr = classify(
        127, "bash: line 1: ruffx: command not found", "PostToolUse", "ruffx check"
    )
    assert summary(from_stderr) == ("execution_failed", "error", False, "continue")
    assert "`ruffx`" in from_stderr["recovery"]["suggestion"]
    from_command = classify(127, "", "PreToolUse", "FOO=1 python3 .claude/hooks/guard.py --x")
    assert summary(from_command) == ("execution_failed", "fatal", False, "ask_user")
    assert "`.claude/hooks/guard.py`" in from_command["recovery"]["suggestion"]
    missing_script = classify(1, "/bin/sh: 1: ./gone.sh: not found", "Stop")
    assert "./gone.sh" in missing_script["message"]


def test_malformed_json() -> None:
    result = classify(1, "SyntaxError: Unexpected token } in JSON at position 9", "Stop")
    assert summary(result) == ("malformed_json", "error", False, "continue")
    assert (
        summary(classify(1, "json.decoder.JSONDecodeError: Expecting value"))[0] == "malformed_json"
    )


def test_validation_failure_in_stderr() -> None:
    result = classify(1, "hook output failed schema validation", "PostToolUse")
    assert summary(result) == ("validation_failed", "warning", False, "continue")


def test_other_failures() -> None:
    assert summary(classify(1, "Traceback: KeyError", "PostToolUse")) == (
        "execution_failed",
        "warning",
        False,
        "continue",
    )
    assert summary(classify(3, "x", "PreToolUse"))[1] == "error"
    success = classify(0, "", "PreToolUse")
    assert summary(success) == ("execution_failed", "warning", False, "continue")
    assert "success" in success["message"]


def test_unknown_event() -> None:
    with pytest.raises(UnknownHookEventError):
        classify_error(1, "", "Nope", "x")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("./hook.sh", "./hook.sh"),
        ("FOO=1 BAR=2 bash -e ./x.sh arg", "./x.sh"),
        ("sh -c 'lint --fix src'", "lint"),
        ("/usr/bin/env python3 -m mytool", "mytool"),
        ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh', "$CLAUDE_PROJECT_DIR/.claude/hooks/a.sh"),
        ("node", "node"),
        ("'unbalanced", "'unbalanced"),
        ("", ""),
    ],
)
def test_program(command: str, expected: str) -> None:
    assert program(command) == expected


@given(
    st.integers(min_value=-(2**31), max_value=2**32 - 1),
    st.text(max_size=60),
    st.sampled_from(ACCEPTED_EVENTS),
    st.text(max_size=40),
)
def test_classify_never_raises(code: int, stderr: str, event: str, command: str) -> None:
    classify(code, stderr, event, command)
