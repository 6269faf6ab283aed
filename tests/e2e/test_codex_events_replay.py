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
RECORDS = {p.stem: json.loads(p.read_text()) for p in sorted(FIXTURES.glob("*.json"))}


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
