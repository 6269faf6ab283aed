"""The records of ``tests.e2e.record_codex_events`` (Codex 0.169.0, offline) replayed
through hookwise's simulator, no CLI needed: the same hooks over the fake model's session
(a shell call, then a final message); which events fire how often, with which input keys,
and that no answer of PreModelRequest or SessionEnd changes the call or what the model
reads, as on the real CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.record_codex_events import LIFECYCLE
from tests.e2e.record_codex_handlers import CONTEXT, REASON
from tests.sim.conftest import fired, play_obj, records

FIXTURES = Path(__file__).parent / "fixtures" / "codex-events"
RECORDS = {
    p.stem: json.loads(p.read_text())
    for p in sorted(FIXTURES.glob("*.json"))
    if not p.stem.startswith("interrupt")
}
# tests.e2e.record_codex_interrupt: Interrupt through codex app-server
INTERRUPT_RECORDS = {p.stem: json.loads(p.read_text()) for p in FIXTURES.glob("interrupt*.json")}


def test_the_records_are_of_the_pinned_cli() -> None:
    assert set(RECORDS) >= {"lifecycle", "pre-model-exit2", "session-end-slow", "matchers"}
    for record in RECORDS.values():
        assert record["cli_version"] == "0.169.0" and record["exit_code"] == 0


def test_what_the_real_cli_did() -> None:
    """The facts the table follows, as recorded."""
    life = RECORDS["lifecycle"]
    assert life["fired"] == {
        "SessionStart": 1,
        "PreModelRequest": 2,  # one per model request
        "Stop": 1,
        "SessionEnd": 1,
        "PostModelResponse": 0,  # not an event of 0.169.0
    }
    for name in ("pre-model-exit2", "pre-model-stop", "pre-model-block", "pre-model-context"):
        record = RECORDS[name]
        assert record["fired"] == {"PreModelRequest": 2} and record["requests"] == 2, name
        assert record["tool_ran"] and not any(record["model_read"].values()), name
    slow, quick = RECORDS["session-end-slow"], RECORDS["session-end-timeout"]
    assert not slow["session_end_finished"] and 2.5 <= slow["session_end_waited_s"] <= 4.0
    assert not quick["session_end_finished"] and quick["session_end_waited_s"] <= 2.0
    assert RECORDS["matchers"]["fired"] == {"PreModelRequest": 2, "SessionEnd": 0}


def _play(record: dict[str, Any], root: Path) -> Any:
    hooks = json.loads(json.dumps(record["hooks"]).replace("$RUN", str(root)))
    scenario = {
        "host": "codex",
        "hooks": hooks,
        "steps": [
            {
                "user": "run it",
                "model": [
                    {"calls": [{"name": "Bash", "args": {"command": "echo hi > marker"}}]},
                    {"text": "done."},
                ],
            }
        ],
    }
    return play_obj(root, scenario)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_replayed_as_recorded(tmp_path: Path, name: str) -> None:
    record = RECORDS[name]
    result = _play(record, tmp_path)
    # the hook runs of each event (an event fires with no matching hook too)
    counted = {e: sum(len(r["hooks"]) for r in fired(result, e)) for e in record["hooks"]}
    assert counted == record["fired"], name
    for event, keys in record["input_keys"].items():
        saved = json.loads((tmp_path / f"input-{event}.json").read_text())
        assert sorted(saved) == keys, event
    calls = [(c["name"], c["status"]) for c in records(result, "tool_call")]
    assert (calls == [("Bash", "ran")]) is record["tool_ran"], calls
    request = json.dumps(records(result, "model_call")[-1]["request"])
    assert (REASON in request) is record["model_read"]["reason"]
    assert (CONTEXT in request) is record["model_read"]["context"]
    assert len(records(result, "model_call")) == record["requests"]
    if "session_end_waited_s" in record:
        (end,) = fired(result, "SessionEnd")
        (run,) = end["hooks"]
        # killed when Codex stops waiting: about as long after it started as on the CLI
        assert not run["success"]
        assert abs(run["duration_ms"] / 1000 - record["session_end_waited_s"]) < 1.0, run
        assert (tmp_path / "session-end-finished").exists() is record["session_end_finished"]


def test_the_lifecycle_events_are_in_codex_table() -> None:
    from hookwise.protocol.codex import CODEX

    assert {e for e in LIFECYCLE if RECORDS["lifecycle"]["fired"][e]} <= set(CODEX.events)
    assert "PostModelResponse" not in CODEX.events


INTERRUPTS = sorted(INTERRUPT_RECORDS)


@pytest.mark.parametrize("name", INTERRUPTS)
def test_interrupt_input_is_hookwises(name: str, tmp_path: Path) -> None:
    """`turn/interrupt` through codex app-server: Interrupt fires once, with the input
    hookwise's runtime sends for the same arguments (field by field, in order)."""
    from hookwise.host.system import HookSystem

    record = INTERRUPT_RECORDS[name]
    assert record["cli_version"] == "0.169.0"
    (sent,) = [f["input"] for f in record["fired"] if f["event"] == "Interrupt"]
    sent = json.loads(json.dumps(sent).replace("$RUN", str(tmp_path)))
    Path(sent["cwd"]).mkdir()
    log = tmp_path / "got.json"
    hs = HookSystem.from_hooks(
        {"Interrupt": [{"hooks": [{"type": "command", "command": f"cat > {log}"}]}]},
        dialect="codex",
        cwd=sent["cwd"],
        session_id=sent["session_id"],
        transcript_path=sent["transcript_path"],
    )
    own = ("turn_id", "model", "permission_mode")
    result = hs.fire_sync("Interrupt", {k: sent[k] for k in own})
    assert result.runs and result.runs[0].success
    got = json.loads(log.read_text())
    assert list(got) == list(sent) and got == sent  # turn_id second, as Codex sends it


@pytest.mark.parametrize("name", INTERRUPTS)
def test_interrupt_answers_are_advisory_as_predicted(name: str, tmp_path: Path) -> None:
    """Whatever the Interrupt hook answers (exit 2, continue: false, additionalContext), the
    turn ends interrupted without Stop, the next turn runs, the model reads nothing of it;
    only a valid ``systemMessage`` reaches the client, which is what ``fire`` predicts."""
    from hookwise.host.system import HookSystem
    from tests.e2e import clis
    from tests.e2e.record_codex_interrupt import MESSAGE

    record = INTERRUPT_RECORDS[name]
    events = [f["event"] for f in record["fired"]]
    assert events.index("Interrupt") > events.index("PreToolUse")
    assert events.count("Stop") == 1 and events.index("Stop") > events.index("Interrupt")
    assert record["first_turn"]["status"] == "interrupted"
    assert record["second_turn"]["status"] == "completed"
    assert not any(record["model_saw"].values())
    command = clis.hook_command(record["answer"])
    hs = HookSystem.from_hooks(
        {"Interrupt": [{"hooks": [{"type": "command", "command": command}]}]},
        dialect="codex",
        cwd=str(tmp_path),
    )
    outcome = hs.fire_sync("Interrupt", {"turn_id": "t"}).effect.to_json()["outcome"]
    assert outcome["proceed"] is True and outcome["stop_session"] is False
    assert outcome["reason_for_model"] is None and outcome["additional_context"] is None
    shown = outcome["message_for_user"] == MESSAGE
    assert shown is record["client_saw"][MESSAGE]
