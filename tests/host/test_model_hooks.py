"""Claude Code's ``prompt`` and ``agent`` hooks through the application's model callback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.host.handlers.model import ModelRequest, render_prompt, verdict_answer
from hookwise.host.system import HookSystem

BASH = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}
STOP = {"stop_hook_active": False, "last_assistant_message": "done"}


def fire(
    tmp_path: Path,
    handler: dict[str, Any],
    answer: Any,
    event: str = "PreToolUse",
    args: dict[str, Any] = BASH,
    seen: list[ModelRequest] | None = None,
    with_model: bool = True,
) -> dict[str, Any]:
    hs = HookSystem.from_hooks(
        {event: [{"hooks": [{"prompt": "Judge: $ARGUMENTS", **handler}]}]},
        dialect="claude",
        cwd=str(tmp_path),
    )

    async def model(request: ModelRequest) -> Any:
        (seen if seen is not None else []).append(request)
        return answer

    hs.execution.model = model if with_model else None
    result = hs.fire_sync(event, args)
    out = result.effect.to_json()
    out["errors"] = [r.stderr for r in result.runs]
    return out


def test_without_a_model_the_hook_fails_and_says_why(tmp_path: Path) -> None:
    out = fire(tmp_path, {"type": "prompt"}, None, with_model=False)
    assert out["outcome"]["proceed"] is True  # a non-blocking error, as a failed hook
    assert "needs a model" in out["errors"][0]
    assert any("needs a model" in d for d in out["diagnostics"])


def test_the_request_carries_the_input_and_the_model(tmp_path: Path) -> None:
    seen: list[ModelRequest] = []
    fire(tmp_path, {"type": "agent", "model": "fast"}, {"ok": True}, seen=seen)
    (request,) = seen
    assert request.kind == "agent" and request.model == "fast" and request.event == "PreToolUse"
    sent = json.loads(request.prompt.removeprefix("Judge: "))
    assert sent["tool_input"] == BASH["tool_input"]


@pytest.mark.parametrize(
    ("handler", "decision", "stops"),
    [
        ({"type": "prompt"}, "deny", True),  # the turn ends by default
        ({"type": "prompt", "continueOnBlock": True}, "deny", False),
        ({"type": "agent"}, "deny", False),  # agents take the continueOnBlock form
    ],
)
def test_ok_false_on_pre_tool_use(
    tmp_path: Path, handler: dict[str, Any], decision: str, stops: bool
) -> None:
    out = fire(tmp_path, handler, '```json\n{"ok": false, "reason": "too risky"}\n```')
    assert out["decision"] == decision
    assert out["outcome"]["proceed"] is False
    assert out["outcome"]["stop_session"] is stops
    assert out["outcome"]["reason_for_model"] == "too risky"


def test_stop_is_sent_back_unless_impossible(tmp_path: Path) -> None:
    answer = {"ok": False, "reason": "tests fail"}
    out = fire(tmp_path, {"type": "prompt"}, answer, event="Stop", args=STOP)
    assert out["decision"] == "block" and out["outcome"]["reason_for_model"] == "tests fail"
    out = fire(tmp_path, {"type": "prompt"}, {**answer, "impossible": True}, "Stop", STOP)
    assert out["decision"] == "none" and out["outcome"]["proceed"] is True
    out = fire(tmp_path, {"type": "agent"}, {**answer, "impossible": True}, "Stop", STOP)
    assert out["decision"] == "block"  # agent hooks ignore impossible


@pytest.mark.parametrize(
    "answer", ["no json here", '{"ok": "yes"}', ["ok"], {"ok": False, "reason": 3}]
)
def test_a_malformed_answer_is_a_non_blocking_error(tmp_path: Path, answer: Any) -> None:
    out = fire(tmp_path, {"type": "prompt"}, answer)
    assert out["decision"] == "none" and out["outcome"]["proceed"] is True
    assert out["errors"][0]


def test_a_raising_callback_is_the_hooks_failure(tmp_path: Path) -> None:
    hs = HookSystem.from_hooks(
        {"PreToolUse": [{"hooks": [{"type": "prompt", "prompt": "p"}]}]},
        dialect="claude",
        cwd=str(tmp_path),
    )

    def model(request: ModelRequest) -> str:
        raise RuntimeError("quota")

    hs.execution.model = model
    result = hs.fire_sync("PreToolUse", BASH)
    assert result.effect.to_json()["outcome"]["proceed"] is True
    assert "quota" in (result.runs[0].stderr or "")


def test_prompt_placeholders() -> None:
    assert render_prompt("cost \\$1.00 for $ARGUMENTS", {"a": 1}) == 'cost $1.00 for {"a": 1}'
    assert render_prompt("check", {"a": 1}) == 'check\n\n{"a": 1}'


@given(st.text(max_size=30), st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))
def test_the_input_always_reaches_the_prompt(template: str, hook_input: dict[str, int]) -> None:
    rendered = render_prompt(template, hook_input)
    assert json.dumps(hook_input, ensure_ascii=False) in rendered or "$ARGUMENTS" not in template


@given(
    st.sampled_from(["PreToolUse", "Stop", "PostToolUse", "TeammateIdle", "Notification"]),
    st.sampled_from(["prompt", "agent"]),
    st.dictionaries(
        st.sampled_from(["ok", "reason", "impossible"]),
        st.one_of(st.booleans(), st.text(max_size=5), st.none()),
    ),
)
def test_every_verdict_reads_as_a_command_answer(
    event: str, kind: str, verdict: dict[str, Any]
) -> None:
    stdout, _stderr, code = verdict_answer(event, kind, {}, verdict)
    assert code in (0, 1, 2)
    if stdout:
        assert isinstance(json.loads(stdout), dict)
    if verdict.get("ok") is True and "reason" not in verdict:
        assert (stdout, code) == ("", 0)
