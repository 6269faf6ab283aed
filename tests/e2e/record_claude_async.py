"""Claude Code 2.1.330's ``async: true`` command hooks, recorded on the real CLI offline.

    python -m tests.e2e.record_claude_async [--out tests/e2e/fixtures/claude-async]

Runs of ``claude -p`` against the fake model (a shell call, then a final message), each
with one ``async: true`` command hook on the shell call that saves its input, sleeps, notes
when it finished, and answers a deny (PreToolUse) or a block (PostToolUse) with a reason
and context, exit 2 with the reason on stderr:

* ``async-pre`` (sleeps 3 s) and ``async-pre-quick`` (no sleep): is the hook awaited before
  the tool runs, is its deny obeyed, does its reason or context reach the model (the quick
  one is done long before the next model request), does the CLI wait for it at exit or end
  it.
* ``async-post`` and ``async-post-quick``: the same on PostToolUse.

``tests/e2e/test_claude_async_replay.py`` replays the records through hookwise.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.e2e.record_claude_handlers import CONTEXT, REASON, _run
from tests.e2e.runner import record_runs

OUT = Path(__file__).parent / "fixtures" / "claude-async"
SLEEP_S = 3
AFTER_EXIT_S = 2  # record_claude_handlers._run looks this long after the CLI exits


def _answer(event: str) -> dict[str, Any]:
    specific: dict[str, Any] = {"hookEventName": event, "additionalContext": CONTEXT}
    if event == "PreToolUse":
        specific |= {"permissionDecision": "deny", "permissionDecisionReason": REASON}
        return {"hookSpecificOutput": specific}
    return {"decision": "block", "reason": REASON, "hookSpecificOutput": specific}


def async_hook(root: Path, event: str, sleep_s: int) -> dict[str, Any]:
    command = (
        f"cat > $RUN/async-input.json; sleep {sleep_s}; date +%s.%N > $RUN/async-done; "
        f"echo '{json.dumps(_answer(event))}'; echo {REASON} >&2; exit 2"
    ).replace("$RUN", str(root))
    return {"type": "command", "command": command, "async": True, "timeout": 30}


def run_async(root: Path, name: str, event: str, sleep_s: int) -> dict[str, Any]:
    hooks = {event: [{"matcher": "Bash", "hooks": [async_hook(root, event, sleep_s)]}]}
    record = _run(root, name, hooks)
    exited = time.time() - AFTER_EXIT_S
    done = root / "async-done"
    time.sleep(SLEEP_S + 1)  # long enough for the slow hook, had it been left running
    record["async_started"] = (root / "async-input.json").exists()
    record["async_done_before_exit"] = done.exists() and float(done.read_text()) < exited
    record["async_done"] = done.exists()
    return record


RUNS = {
    "async-pre": lambda r: run_async(r, "async-pre", "PreToolUse", SLEEP_S),
    "async-pre-quick": lambda r: run_async(r, "async-pre-quick", "PreToolUse", 0),
    "async-post": lambda r: run_async(r, "async-post", "PostToolUse", SLEEP_S),
    "async-post-quick": lambda r: run_async(r, "async-post-quick", "PostToolUse", 0),
}


def main(argv: list[str] | None = None) -> int:
    return record_runs("claude", RUNS, description=__doc__.splitlines()[0], out=OUT, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
