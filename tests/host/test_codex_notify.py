"""Codex's turn-complete notify program: JSON as the last argument, fire-and-forget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hookwise.host.codex_notify import notify_payload, run_notify


def test_notify_runs_the_program_with_the_event_as_last_argument(tmp_path: Path) -> None:
    out = tmp_path / "argv.json"
    script = f"import sys, json; open({str(out)!r}, 'w').write(json.dumps(sys.argv[1:]))"
    payload = notify_payload(
        thread_id="t",
        turn_id="u",
        cwd=str(tmp_path),
        input_messages=["hi"],
        last_assistant_message="done",
    )
    proc = run_notify([sys.executable, "-c", script, "--flag"], payload)
    assert isinstance(proc, subprocess.Popen)
    assert proc.wait(timeout=30) == 0
    argv = json.loads(out.read_text())
    assert argv[0] == "--flag"
    event = json.loads(argv[-1])
    assert event == {
        "type": "agent-turn-complete",
        "thread-id": "t",
        "turn-id": "u",
        "cwd": str(tmp_path),
        "input-messages": ["hi"],
        "last-assistant-message": "done",
    }


def test_a_missing_program_is_a_message_not_an_exception(tmp_path: Path) -> None:
    result = run_notify(
        [str(tmp_path / "nope")],
        notify_payload(
            thread_id="t", turn_id="u", cwd="/", input_messages=[], last_assistant_message=None
        ),
    )
    assert isinstance(result, str) and "could not start" in result
    assert run_notify([], {}) == "notify is empty: nothing to run"
