"""Factory Droid's and Cline's recorded answer cells replayed through hookwise's runtimes of
them (``hookwise fire --dialect droid|cline``: host/claude_form.py from Droid's table and row,
host/cancel_form.py from Cline's): each hook answer the real Droid 0.225.2 and Cline 3.0.65
were given (tests/e2e/fixtures/more-hosts/<host>.jsonl, record_more.py) is given to the same
hook under ``fire``, and the outcome must be what the host did: whether the call ran, ran
rewritten or ended the run, and what the model read. Fast: no CLI runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis
from tests.e2e.record_more import HOOK_TIMEOUT_S

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "more-hosts"
TOKENS = ("POLICY-E2E-REASON", "POLICY-E2E-CONTEXT")
# cells whose outcome is the host's own permission mode, not the hook's answer: read-only
# ``droid exec`` (no --auto) refuses a shell call the hook said nothing about
HOST_MODE = {"exit0-empty-readonly"}
# a hook past Cline's 120 s timeout: replayed it would take that long (the table's 120 s
# and the record's time are checked in test_more_hosts_replay.py)
TOO_SLOW = {"cline-past-timeout"}


def _cells() -> list[dict[str, Any]]:
    out = []
    for host in ("droid", "cline"):
        text = (FIXTURES / f"{host}.jsonl").read_text(encoding="utf-8")
        out += [r for r in map(json.loads, text.splitlines()) if "cell" in r]
    return out


def _install(record: dict[str, Any], proj: Path) -> None:
    """The recorded answer as the host's pre-tool hook, as record_more registered it."""
    command = clis.hook_command(record["answer"])
    if record["host"] == "cline":
        hooks = proj / ".clinerules" / "hooks"
        hooks.mkdir(parents=True)
        (hooks / "PreToolUse").write_text(f"#!/bin/sh\n{command}\n", encoding="utf-8")
        return
    (proj / ".factory").mkdir(parents=True)
    handler = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}
    hooks_json = {"PreToolUse": [{"matcher": "Execute", "hooks": [handler]}]}
    (proj / ".factory" / "hooks.json").write_text(json.dumps(hooks_json), encoding="utf-8")


def _fire(record: dict[str, Any], workdir: Path) -> dict[str, Any]:
    proj, home = workdir / "proj", workdir / "home"
    home.mkdir()
    _install(record, proj)
    payload = json.dumps(record["hook_input"]).replace("$RUN", str(workdir))
    env = {**os.environ, "HOME": str(home), "LANG": "C.UTF-8"}
    env.pop("HOOKWISE_E2E_HOOK_LOG", None)
    argv = [sys.executable, "-m", "hookwise", "fire", "PreToolUse", "--dialect", record["host"]]
    argv += ["--settings", str(proj), "--home", str(home), "--payload", "-", "--json"]
    done = subprocess.run(
        argv, input=payload, capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    outcome: dict[str, Any] = json.loads(done.stdout)["outcome"]
    return outcome


@pytest.mark.parametrize("record", _cells(), ids=lambda r: f"{r['host']}-{r['cell']}")
def test_fire_does_what_the_host_did(record: dict[str, Any], tmp_path: Path) -> None:
    if record["cell"] in HOST_MODE:
        pytest.skip("decided by Droid's read-only mode, not by the hook's answer")
    if record["cell"] in TOO_SLOW:
        pytest.skip("a hook past the host's 120 s timeout")
    seen = record["observed"]
    outcome = _fire(record, tmp_path)
    where = f"{record['cell']}: answer {record['answer']}, outcome {outcome}"
    if seen["rewritten"]:
        assert outcome.get("updated_input") is not None, where
    else:
        assert outcome.get("proceed") is seen["tool_ran"], where
        assert outcome.get("updated_input") is None, where
    heard = (outcome.get("reason_for_model") or "") + (outcome.get("additional_context") or "")
    if record["host"] == "droid":
        # what Droid's model read after a block (exit 1's stderr, put before the tool's
        # output, and exit 3's end of the run are Droid's own, not the runtime's outcome)
        if not seen["tool_ran"] and TOKENS[0] in seen["tokens_reached_model"]:
            assert TOKENS[0] in heard, where
        return
    # Cline: a cancel ends the run at the hook (no further model request), and the model
    # reads exactly the texts that reached it
    ended = seen["model_turns"] == 1 and not seen["tool_ran"]
    assert outcome.get("stop_session") is ended, where
    for token in TOKENS:
        assert (token in heard) is (token in seen["tokens_reached_model"]), where


def test_the_replay_covers_every_kind_of_answer() -> None:
    cells = {(r["host"], r["cell"]) for r in _cells()}
    for needed in ("claude-deny", "claude-ask", "claude-rewrite", "exit2-stderr", "exit3-stderr"):
        assert ("droid", needed) in cells
    assert ("droid", "slow") in cells and ("droid", "top-block") in cells
    for needed in ("cline-cancel", "cline-override-input", "cline-hook-control", "cline-context"):
        assert ("cline", needed) in cells
