"""Claude Code 2.1.330's ``prompt``, ``agent`` and ``mcp_tool`` hook handlers and its
``StopFailure`` event, recorded on the real CLI offline.

    python -m tests.e2e.record_claude_handlers [--out tests/e2e/fixtures/claude-handlers]

Runs of ``claude -p`` against the fake model (in this process, 127.0.0.1 only; the CLI is
configured to contact only 127.0.0.1), each with hooks on the shell call:

* ``prompt-deny`` / ``prompt-allow`` / ``agent-deny``: a PreToolUse ``prompt`` (or
  ``agent``) hook; the fake model answers the hook's own model request with the verdict
  (``fake_model.HOOK_VERDICT_VARIABLE``: as text for a prompt hook, as a StructuredOutput
  call for an agent hook). The record keeps whether the tool ran, whether the reason reached
  the model, and the hook's request (its prompt with ``$ARGUMENTS`` filled in).
* ``mcp-deny``: a PreToolUse ``mcp_tool`` hook calling ``read_text_file`` of the reference
  filesystem MCP server (the user's ``mcpServers`` in ``~/.claude.json``) on a file holding
  a deny answer.
* ``stop-failure``: a logging command hook on StopFailure (and Stop); the fake model fails
  every request after the tool ran (``fake_model.API_ERROR_VARIABLE``, HTTP 400). The
  record keeps the events that fired and the StopFailure input (the CLI does not wait for
  that hook: it is read 2 s after the CLI exits).

``tests/e2e/test_claude_handlers_replay.py`` replays the records through hookwise.
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.fake_model import (
    API_ERROR_VARIABLE,
    HOOK_EVALUATOR_MARK,
    HOOK_VERDICT_VARIABLE,
    FakeModel,
)
from tests.e2e.observe import read_jsonl
from tests.e2e.runner import record_runs, run_bounded

OUT = Path(__file__).parent / "fixtures" / "claude-handlers"
REASON = "MODEL-HOOK-REASON"
MCP_REASON = "MCP-HOOK-DENY-REASON"
PROMPT = "HOOK-CHECK: may this shell call run? $ARGUMENTS"
CONTEXT = "HOOK-ADDED-CONTEXT"


def _deny_answer() -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": MCP_REASON,
        }
    }


def _write(layout: clis.Layout, hooks: dict[str, Any], user: dict[str, Any]) -> None:
    path = layout.proj / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks, "permissions": {"allow": ["Bash"]}}, indent=1))
    trusted = {str(layout.proj): {"hasTrustDialogAccepted": True}}
    (layout.home / ".claude.json").write_text(
        json.dumps({"hasCompletedOnboarding": True, "projects": trusted, **user})
    )


def _run(
    root: Path,
    name: str,
    hooks: dict[str, Any],
    *,
    user: dict[str, Any] | None = None,
    variables: dict[str, str] | None = None,
) -> dict[str, Any]:
    layout = clis.Layout(root)
    layout.create()
    _write(layout, hooks, user or {})
    (layout.proj / "answer.json").write_text(json.dumps(_deny_answer()))
    saved = {k: os.environ.get(k) for k in (variables or {})}
    os.environ.update(variables or {})  # read by the fake model, in this process
    try:
        with FakeModel() as fake:
            argv = [str(clis.binary("claude")), "-p", clis.PROMPT, "--output-format", "json"]
            env = clis.environment("claude", layout, fake.url)
            started = time.monotonic()
            _, _, code, timed_out = run_bounded(argv, layout.proj, env, 150)
            seconds = time.monotonic() - started
            requests = list(fake.requests)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    judged = [r for r in requests if HOOK_EVALUATOR_MARK in json.dumps(r["body"].get("system"))]
    main = [r for r in requests if r not in judged]
    follow_up = [json.dumps(r.get("body")) for r in main[1:]]
    time.sleep(2)  # a StopFailure hook is not waited for: it may log after the CLI exits
    calls = read_jsonl(layout.hook_log)
    fired = [
        {"event": c["input"].get("hook_event_name"), "input": c["input"]}
        for c in calls
        if isinstance(c.get("input"), dict)
    ]
    hook_prompt = None
    if judged:
        messages = judged[0]["body"].get("messages") or []
        texts = [
            b.get("text")
            for m in messages
            if m.get("role") == "user"
            for b in (m.get("content") if isinstance(m.get("content"), list) else [])
            if isinstance(b, dict) and isinstance(b.get("text"), str)
        ]
        hook_prompt = next((t for t in texts if t.startswith("HOOK-CHECK")), None)
    record = {
        "run": name,
        "cli": "claude",
        "cli_version": clis.installed_version("claude"),
        "hooks": hooks,
        "tool_ran": (layout.proj / "marker").exists(),
        "model_read": {
            "reason": any(REASON in t for t in follow_up),
            "mcp_reason": any(MCP_REASON in t for t in follow_up),
            "context": any(CONTEXT in t for t in follow_up),
        },
        "hook_model_requests": len(judged),
        "model_requests_after_the_call": max(0, len(main) - 1),
        "hook_prompt": hook_prompt,
        "fired": fired,
        "exit_code": code,
        "timed_out": timed_out,
        "seconds": round(seconds, 2),
    }
    return json.loads(json.dumps(record).replace(str(root), "$RUN"))


def model_hook(kind: str) -> dict[str, Any]:
    return {"type": kind, "prompt": PROMPT, "timeout": 60}


def run_model(root: Path, name: str, kind: str, verdict: dict[str, Any]) -> dict[str, Any]:
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [model_hook(kind)]}]}
    return _run(root, name, hooks, variables={HOOK_VERDICT_VARIABLE: json.dumps(verdict)})


def mcp_handler() -> dict[str, Any]:
    return {
        "type": "mcp_tool",
        "server": "fs",
        "tool": "read_text_file",
        "input": {"path": "${cwd}/answer.json"},
        "timeout": 30,
    }


def run_mcp(root: Path) -> dict[str, Any]:
    binary = clis.mcp_server("mcp-server-filesystem")
    if binary is None:
        raise SystemExit("the reference filesystem MCP server is missing: make e2e-install")
    server = {"type": "stdio", "command": str(binary), "args": [str(root / "proj")]}
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [mcp_handler()]}]}
    return _run(root, "mcp-deny", hooks, user={"mcpServers": {"fs": server}})


def run_stop_failure(root: Path) -> dict[str, Any]:
    command = clis.hook_command({"exit": 0, "stdout": "", "stderr": ""})
    logging = [{"hooks": [{"type": "command", "command": command}]}]
    hooks = {"StopFailure": logging, "Stop": logging}
    return _run(root, "stop-failure", hooks, variables={API_ERROR_VARIABLE: "400"})


# A StopFailure hook that notes when it started, when a SIGTERM came and whether it went on
# to finish a second later (it traps the signal, so only a SIGKILL would stop it).
_TERM_PROBE = (
    "log={log}; trap 'echo term $(date +%s.%N) >> $log' TERM; echo start $(date +%s.%N) >> $log;"
    " sleep 1; echo finished $(date +%s.%N) >> $log"
)


def run_stop_failure_term(root: Path) -> dict[str, Any]:
    """How long Claude Code lets a StopFailure hook run: as ``-p`` ends it sends SIGTERM."""
    log = root / "term.log"
    probe = {"type": "command", "command": _TERM_PROBE.format(log=log)}
    hooks = {"StopFailure": [{"hooks": [probe]}]}
    record = _run(root, "stop-failure-term", hooks, variables={API_ERROR_VARIABLE: "400"})
    time.sleep(1)  # (_run waited 2 s already: the probe is done by now, or was killed)
    marks = {}
    for line in log.read_text().splitlines() if log.exists() else []:
        word, _, when = line.partition(" ")
        marks.setdefault(word, float(when))
    start = marks.get("start")
    record["probe"] = {
        "started": start is not None,
        # rounded up to a tenth: the order of magnitude, not this run's timing
        "sigterm_within_s": None
        if start is None or "term" not in marks
        else math.ceil((marks["term"] - start) * 10) / 10,
        "finished_after_sigterm": "finished" in marks,
    }
    return record


RUNS = {
    "prompt-deny": lambda r: run_model(r, "prompt-deny", "prompt", {"ok": False, "reason": REASON}),
    "prompt-allow": lambda r: run_model(r, "prompt-allow", "prompt", {"ok": True}),
    "agent-deny": lambda r: run_model(r, "agent-deny", "agent", {"ok": False, "reason": REASON}),
    "mcp-deny": run_mcp,
    "stop-failure": run_stop_failure,
    "stop-failure-term": run_stop_failure_term,
}


def main(argv: list[str] | None = None) -> int:
    return record_runs("claude", RUNS, description=__doc__.splitlines()[0], out=OUT, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
