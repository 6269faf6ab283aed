"""Codex 0.169.0's ``PreModelRequest`` and ``SessionEnd`` events, recorded on the real CLI
offline.

    python -m tests.e2e.record_codex_events [--out tests/e2e/fixtures/codex-events]

Both names are in the 0.169.0 binary's event list with no feature flag or config key of
their own (``codex features list`` has only ``hooks``); these runs of ``codex exec`` against
the fake model tell whether they fire, with which input, and what Codex does with answers:

* ``lifecycle``: a hook on SessionStart, PreModelRequest, Stop, SessionEnd and (not in the
  binary's list) PostModelResponse, each saving its input and counting its runs.
* ``pre-model-exit2``, ``pre-model-stop``, ``pre-model-block``, ``pre-model-context``: a
  PreModelRequest hook answering exit 2 with a reason on stderr, ``continue: false``, a
  top-level block, and ``additionalContext`` with a ``systemMessage``: does the model
  request still go out, does the tool run, does the model read the reason or context.
* ``session-end-slow``: a SessionEnd hook (timeout 30 s) that sleeps 8 s, notes when it
  started and finished and exits 2 with a reason: how long Codex waits for it before
  exiting, whether it ends it, whether its exit code changes; ``session-end-timeout``: the
  same with ``timeout: 1``.
* ``matchers``: PreModelRequest and SessionEnd hooks with a matcher that matches nothing
  (``nomatch``): does the matcher count.

``tests/e2e/test_codex_events_replay.py`` replays the records through hookwise.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.e2e.record_codex_handlers import CONTEXT, REASON, SLEEP_S, _run
from tests.e2e.runner import record_runs

OUT = Path(__file__).parent / "fixtures" / "codex-events"
LIFECYCLE = ("SessionStart", "PreModelRequest", "Stop", "SessionEnd", "PostModelResponse")
SYSTEM_MESSAGE = "PRE-MODEL-SYSTEM-MESSAGE"
SESSION_END_SLEEP_S = 8


def _saving(root: Path, event: str, then: str = "") -> str:
    """A command saving its input and counting its runs, then doing ``then``."""
    return f"cat > {root}/input-{event}.json; echo ran >> {root}/runs-{event}; {then}"


def _group(command: str, timeout: int = 30, matcher: str | None = None) -> list[dict[str, Any]]:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": timeout}]}
    if matcher is not None:
        group["matcher"] = matcher
    return [group]


def _answering(answer: dict[str, Any]) -> str:
    return f"echo '{json.dumps(answer)}'"


def _record(root: Path, name: str, hooks: dict[str, Any]) -> dict[str, Any]:
    started = time.time()
    record = _run(root, name, hooks)
    # _run waits SLEEP_S + 1 after the CLI exits (for background hooks): the exit was then
    exited = time.time() - (SLEEP_S + 1)
    record.pop("async_hook_ran")
    record.pop("async_input_keys")
    record["fired"] = {
        event: len((root / f"runs-{event}").read_text().split())
        if (root / f"runs-{event}").exists()
        else 0
        for event in hooks
    }
    record["input_keys"] = {
        event: sorted(json.loads((root / f"input-{event}.json").read_text()))
        for event in hooks
        if (root / f"input-{event}.json").exists()
    }
    began = root / "session-end-started"
    if began.exists():
        # how long the CLI went on after the hook started (to a tenth: the run's own clock)
        record["session_end_waited_s"] = round(exited - float(began.read_text()), 1)
        record["session_end_finished"] = (root / "session-end-finished").exists()
        record["session_end_started_after_s"] = round(float(began.read_text()) - started, 1)
    return record


def run_lifecycle(root: Path) -> dict[str, Any]:
    hooks = {event: _group(_saving(root, event)) for event in LIFECYCLE}
    return _record(root, "lifecycle", hooks)


def run_pre_model(root: Path, name: str, then: str) -> dict[str, Any]:
    return _record(root, name, {"PreModelRequest": _group(_saving(root, "PreModelRequest", then))})


def run_session_end_slow(root: Path, name: str, timeout: int) -> dict[str, Any]:
    then = (
        f"date +%s.%N > {root}/session-end-started; sleep {SESSION_END_SLEEP_S}; "
        f"date +%s.%N > {root}/session-end-finished; echo {REASON} >&2; exit 2"
    )
    hooks = {"SessionEnd": _group(_saving(root, "SessionEnd", then), timeout)}
    return _record(root, name, hooks)


def run_matchers(root: Path) -> dict[str, Any]:
    events = ("PreModelRequest", "SessionEnd")
    hooks = {event: _group(_saving(root, event), matcher="nomatch") for event in events}
    return _record(root, "matchers", hooks)


RUNS = {
    "lifecycle": run_lifecycle,
    "pre-model-exit2": lambda root: run_pre_model(
        root, "pre-model-exit2", f"echo {REASON} >&2; exit 2"
    ),
    "pre-model-stop": lambda root: run_pre_model(
        root, "pre-model-stop", _answering({"continue": False, "stopReason": REASON})
    ),
    "pre-model-block": lambda root: run_pre_model(
        root, "pre-model-block", _answering({"decision": "block", "reason": REASON})
    ),
    "pre-model-context": lambda root: run_pre_model(
        root,
        "pre-model-context",
        _answering(
            {
                "systemMessage": SYSTEM_MESSAGE,
                "hookSpecificOutput": {
                    "hookEventName": "PreModelRequest",
                    "additionalContext": CONTEXT,
                },
            }
        ),
    ),
    "session-end-slow": lambda root: run_session_end_slow(root, "session-end-slow", 30),
    "session-end-timeout": lambda root: run_session_end_slow(root, "session-end-timeout", 1),
    "matchers": run_matchers,
}


def main(argv: list[str] | None = None) -> int:
    return record_runs("codex", RUNS, description=__doc__.splitlines()[0], out=OUT, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
