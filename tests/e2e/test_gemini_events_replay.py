"""The record of ``tests.e2e.record_gemini_events`` (Gemini CLI 0.61.0, offline) replayed
through hookwise, no CLI needed: which events fire in a ``-p`` run with one shell call and
in which order, each input against hookwise's for the same arguments, and the simulator's
lifecycle (profile ``gemini-cli``) against that order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.system import HookSystem
from hookwise.protocol.gemini import EVENT_NAMES
from hookwise.protocol.profiles import Profile
from tests.sim.conftest import play_obj

RECORD = json.loads(
    (Path(__file__).parent / "fixtures" / "gemini-events" / "events.json").read_text()
)
FIRED: list[str] = [f["event"] for f in RECORD["fired"]]
# the model's request and answer: kept as their keys (record_gemini_events.BULKY)
BULKY = ("llm_request", "llm_response")


def test_the_record_is_of_the_pinned_cli_with_every_event_hooked() -> None:
    assert RECORD["cli_version"] == "0.61.0" and RECORD["exit_code"] == 0
    assert RECORD["hooked"] == list(EVENT_NAMES) and RECORD["tool_ran"]


def test_the_order_of_a_run_with_one_shell_call() -> None:
    """PreCompress (``auto``) fires before every model request: the engine's compression
    check fires it before it compares the token count (chatCompressionService)."""
    model_call = ["PreCompress", "BeforeModel", "BeforeToolSelection", "AfterModel"]
    assert [
        "SessionStart",
        "BeforeAgent",
        *model_call,
        "BeforeTool",
        "AfterTool",
        *model_call,
        "AfterAgent",
        "SessionEnd",
    ] == FIRED
    assert {f["input"]["trigger"] for f in RECORD["fired"] if f["event"] == "PreCompress"} == {
        "auto"
    }
    # Notification fires only when a call needs approval (--yolo: none)
    assert set(EVENT_NAMES) - set(FIRED) == {"Notification"}


@pytest.mark.parametrize("index", range(len(FIRED)), ids=lambda i: f"{i}-{FIRED[i]}")
def test_each_recorded_input_is_hookwises(index: int, tmp_path: Path) -> None:
    """hookwise fires the event with the recorded arguments; its hook gets the fields the
    CLI sent (profile gemini-cli), with the same values for the event's own."""
    sent: dict[str, Any] = RECORD["fired"][index]["input"]
    event = sent["hook_event_name"]
    log = tmp_path / "got.json"
    hooks = {event: [{"hooks": [{"type": "command", "command": f"cat > {log}"}]}]}
    hs = HookSystem.from_hooks(hooks, profile=Profile.GEMINI_CLI, cwd=str(tmp_path))
    common = {"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"}
    args = {k: v for k, v in sent.items() if k not in common}
    for key in BULKY:  # the fake model's content is not the point: a minimal one
        if key in args:
            args[key] = _minimal(key)
    result = hs.fire_sync(event, args)
    assert result.runs and result.runs[0].success, result.runs
    got = json.loads(log.read_text())
    assert sorted(got) == sorted(sent)
    own = {k: v for k, v in args.items() if k not in BULKY}
    assert {k: got[k] for k in own} == own


def _minimal(key: str) -> dict[str, Any]:
    if key == "llm_request":
        return {"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "hi"}]}
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}]}


def test_the_simulator_plays_the_recorded_order(tmp_path: Path) -> None:
    log = tmp_path / "events.log"
    hook = {"hooks": [{"type": "command", "command": f"jq -r .hook_event_name >> {log}"}]}
    scenario = {
        "host": "gemini",
        "profile": "gemini-cli",
        "session": {"start": "startup", "end": "exit"},
        "hooks": {name: [hook] for name in EVENT_NAMES},
        "steps": [
            {
                "user": "please write the marker",
                "model": [
                    {"calls": [{"name": "run_shell_command", "args": {"command": "echo hi"}}]},
                    {"text": "done"},
                ],
            }
        ],
    }
    result = play_obj(tmp_path, scenario)
    assert result.passed
    assert log.read_text().split() == FIRED
