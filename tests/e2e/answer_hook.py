"""The hook program of the differential matrix: gives one literal answer.

    answer_hook.py '<answer JSON>'

The answer is ``{"exit": N, "stdout": "...", "stderr": "..."}``: the text is written as is
(UTF-8, no newline added) and the process exits with N, after ``"sleep"`` seconds when given
(a hook slower than the host's timeout). With ``"quiet_if_stop_hook_active":
true`` it answers nothing (exit 0) when its input says ``stop_hook_active: true``, the loop
guard a Stop hook needs on hosts that fire Stop again after a block. ``"sleep": S`` sleeps S
seconds before answering (a hook that outlives the host's timeout).

When ``HOOKWISE_E2E_HOOK_LOG`` is set, one JSON line per call is appended to that file (the
input the host sent and the hook's environment variables named CLAUDE*/CODEX*/GEMINI*/COPILOT*/
QWEN*), so a
run can count the calls. Standard library only: the real CLIs run it with a bare
environment.
"""

from __future__ import annotations

import json
import os
import sys
import time


def main(argv: list[str]) -> int:
    answer = json.loads(argv[1])
    raw = sys.stdin.buffer.read()
    try:
        event = json.loads(raw.decode("utf-8"))
    except ValueError:
        event = {"_unparsed": raw.decode("utf-8", "replace")}
    log = os.environ.get("HOOKWISE_E2E_HOOK_LOG")
    if log:
        env = {
            k: v
            for k, v in os.environ.items()
            if k.startswith(("CLAUDE", "CODEX", "GEMINI", "COPILOT", "QWEN"))
        }
        line = json.dumps({"t": time.time(), "input": event, "env": env, "cwd": os.getcwd()})
        with open(log, "a", encoding="utf-8") as f:
            f.write(line + "\n")
    if (
        answer.get("quiet_if_stop_hook_active")
        and isinstance(event, dict)
        and event.get("stop_hook_active") is True
    ):
        return 0
    if answer.get("sleep"):
        time.sleep(float(answer["sleep"]))
    sys.stdout.buffer.write(str(answer.get("stdout", "")).encode("utf-8"))
    sys.stdout.flush()
    sys.stderr.buffer.write(str(answer.get("stderr", "")).encode("utf-8"))
    sys.stderr.flush()
    return int(answer.get("exit", 0))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
