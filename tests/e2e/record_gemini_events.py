"""Gemini CLI 0.61.0's events, recorded on the real CLI offline.

    python -m tests.e2e.record_gemini_events [--out tests/e2e/fixtures/gemini-events]

One run of ``gemini -p`` against the fake model (in this process, 127.0.0.1 only; the CLI
being configured to contact only 127.0.0.1): a logging command hook on every event of
hookwise's Gemini table; the model asks for the shell call, then answers. The record keeps,
per call in order, the event and the input the hook got (run paths as ``$RUN``; the model
request and response objects as their keys, their content being the fake model's).

``tests/e2e/test_gemini_events_replay.py`` replays it against the table, hookwise's input
and the simulator's order (no CLI needed).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel
from tests.e2e.observe import read_jsonl
from tests.e2e.runner import record_runs, run_bounded

OUT = Path(__file__).parent / "fixtures" / "gemini-events"
# the model's request and answer: their shape is the fake model's, not the CLI's to record
BULKY = ("llm_request", "llm_response")


def _short(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: (sorted(v) if k in BULKY and isinstance(v, dict) else v) for k, v in payload.items()}


def run_events(root: Path) -> dict[str, Any]:
    from hookwise.protocol.gemini import EVENT_NAMES

    layout = clis.Layout(root)
    layout.create()
    command = clis.hook_command({"exit": 0, "stdout": "", "stderr": ""})
    handler = {"name": "log", "type": "command", "command": command, "timeout": 30000}
    hooks = {name: [{"hooks": [handler]}] for name in EVENT_NAMES}
    quiet = {"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False}}
    path = layout.proj / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks, **quiet}, indent=1))
    with FakeModel() as fake:
        argv = clis.prepare("gemini", layout, "PreToolUse", command, fake.url)
        path.write_text(json.dumps({"hooks": hooks, **quiet}, indent=1))  # (prepare's own)
        env = clis.environment("gemini", layout, fake.url)
        started = time.monotonic()
        _, _, code, timed_out = run_bounded(argv, layout.proj, env, 150)
        seconds = time.monotonic() - started
    time.sleep(1)  # SessionEnd's hook may finish after the CLI
    fired = [
        {"event": c["input"].get("hook_event_name"), "input": _short(c["input"])}
        for c in read_jsonl(layout.hook_log)
        if isinstance(c.get("input"), dict)
    ]
    record = {
        "run": "events",
        "cli": "gemini",
        "cli_version": clis.installed_version("gemini"),
        "argv": ["gemini", *argv[1:]],
        "hooked": list(EVENT_NAMES),
        "tool_ran": (layout.proj / "marker").exists(),
        "fired": fired,
        "exit_code": code,
        "timed_out": timed_out,
        "seconds": round(seconds, 2),
    }
    return json.loads(json.dumps(record).replace(str(root), "$RUN"))


RUNS = {"events": run_events}


def main(argv: list[str] | None = None) -> int:
    return record_runs("gemini", RUNS, description=__doc__.splitlines()[0], out=OUT, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
