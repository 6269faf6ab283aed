#!/usr/bin/env python3
"""Put each command of a batch file to `hookwise hook --host claude` as a Claude Code
PreToolUse payload (Bash tool, cwd = the decision project); print answer and reason.

Usage: d.py BATCH [OUT.tsv]. A batch line is one command (`⏎` in it is a newline; lines
starting with `#` are skipped). No output from the hook = allow."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

ROOT = os.environ.get("RT_ROOT", "/tmp/rt33s/work")
HW = os.environ.get("HW", f"{ROOT}/hw/bin/hookwise")  # hookwise installed in the fixture


def decide(command: str) -> tuple[str, str, float]:
    proj = f"{ROOT}/proj"
    payload = {
        "session_id": "rt33s",
        "transcript_path": f"{ROOT}/t.jsonl",
        "cwd": proj,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "x"},
        "permission_mode": "default",
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "HOOKWISE_"))}
    env.update(HOME=f"{ROOT}/home", CLAUDE_PROJECT_DIR=proj,
               PATH=f"{ROOT}/home/.local/bin:" + os.environ["PATH"])
    t0 = time.monotonic()
    try:
        p = _run_hook(payload, proj, env)
    except OSError as e:  # the hook could not start: Claude Code goes on (non-blocking error)
        return ("hookfail", f"the hook could not start: {e}", time.monotonic() - t0)
    dt = time.monotonic() - t0
    return _answer(p, dt)


def _run_hook(payload: dict, proj: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HW, "hook", "--host", "claude"],
        input=json.dumps(payload),
        text=True,
        capture_output=True,
        cwd=proj,
        env=env,
        timeout=30,
    )


def _answer(p: subprocess.CompletedProcess, dt: float) -> tuple[str, str, float]:
    out = p.stdout.strip()
    if not out:
        return ("allow" if p.returncode == 0 else f"rc{p.returncode}", p.stderr.strip()[:200], dt)
    try:
        d = json.loads(out)
        h = d.get("hookSpecificOutput", {})
        return (h.get("permissionDecision", "?"), h.get("permissionDecisionReason", "")[:300], dt)
    except json.JSONDecodeError:
        return ("?", out[:200], dt)


def run_bash(command: str) -> None:
    """Run one earlier call of a multi-call line in real bash, as verify.py does."""
    env = {"PATH": f"{ROOT}/home/.local/bin:" + os.environ["PATH"], "HOME": f"{ROOT}/home", "LANG": "C.UTF-8"}
    subprocess.run(["bash", "-c", command], cwd=f"{ROOT}/proj", env=env,
                   capture_output=True, timeout=60, stdin=subprocess.DEVNULL)


def restore() -> None:
    subprocess.run(["rm", "-rf", ROOT], check=True)
    subprocess.run(["tar", "-C", os.path.dirname(ROOT), "-xf", f"{os.path.dirname(ROOT)}/pristine.tar"], check=True)


def decide_calls(line: str) -> tuple[str, str, float]:
    """A line of calls separated by `⟫`: each decided, then run, in a fresh fixture;
    the answers joined (allow only when every call is allowed)."""
    restore()
    answers, whys, total = [], [], 0.0
    parts = [p.strip() for p in line.split("⟫")]
    for i, part in enumerate(parts):
        ans, why, dt = decide(part)
        answers.append(ans)
        whys.append(why)
        total += dt
        if i < len(parts) - 1:
            run_bash(part)
    restore()
    final = "allow" if all(a == "allow" for a in answers) else ",".join(answers)
    return final, " | ".join(w for w in whys if w), total


def main() -> None:
    lines = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
    rows = []
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        cmd = line.replace("⏎", "\n")
        ans, why, dt = decide_calls(cmd) if "⟫" in cmd else decide(cmd)
        rows.append((ans, line, why, dt))
        print(
            f"{ans:6} {dt:4.1f}s | {line[:150]}"
            + (f"\n         -> {why[:160]}" if ans != "allow" else ""),
            flush=True,
        )
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w", encoding="utf-8") as f:
            for ans, line, why, dt in rows:
                f.write(
                    f"{ans}\t{line}\t{why.replace(chr(9), ' ').replace(chr(10), ' ')}\t{dt:.2f}\n"
                )


if __name__ == "__main__":
    main()
