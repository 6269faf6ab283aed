"""Factory Droid's recorded answer cells replayed through hookwise's runtime of it (``hookwise
fire --dialect droid``, host/claude_form.py from Droid's table and row): each hook answer the
real Droid 0.225.2 was given (tests/e2e/fixtures/more-hosts/droid.jsonl, record_more.py) is
given to the same hook under ``fire``, and the outcome must be what Droid did: whether the
call ran, whether it ran rewritten, and the reason the model read. Fast: no CLI runs."""

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

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "more-hosts" / "droid.jsonl"
TOKEN = "POLICY-E2E-REASON"
# cells whose outcome is the host's own permission mode, not the hook's answer: read-only
# ``droid exec`` (no --auto) refuses a shell call the hook said nothing about
HOST_MODE = {"exit0-empty-readonly"}


def _cells() -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    return [line for line in lines if "cell" in line]


def _fire(record: dict[str, Any], workdir: Path) -> dict[str, Any]:
    proj, home = workdir / "proj", workdir / "home"
    (proj / ".factory").mkdir(parents=True)
    home.mkdir()
    handler = {
        "type": "command",
        "command": clis.hook_command(record["answer"]),
        "timeout": HOOK_TIMEOUT_S,
    }
    hooks = {"PreToolUse": [{"matcher": "Execute", "hooks": [handler]}]}
    (proj / ".factory" / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
    payload = json.dumps(record["hook_input"]).replace("$RUN", str(workdir))
    env = {**os.environ, "HOME": str(home), "LANG": "C.UTF-8"}
    env.pop("HOOKWISE_E2E_HOOK_LOG", None)
    argv = [sys.executable, "-m", "hookwise", "fire", "PreToolUse", "--dialect", "droid"]
    argv += ["--settings", str(proj), "--home", str(home), "--payload", "-", "--json"]
    done = subprocess.run(
        argv, input=payload, capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    outcome: dict[str, Any] = json.loads(done.stdout)["outcome"]
    return outcome


@pytest.mark.parametrize("record", _cells(), ids=lambda r: str(r["cell"]))
def test_fire_does_what_droid_did(record: dict[str, Any], tmp_path: Path) -> None:
    if record["cell"] in HOST_MODE:
        pytest.skip("decided by Droid's read-only mode, not by the hook's answer")
    seen = record["observed"]
    outcome = _fire(record, tmp_path)
    where = f"{record['cell']}: answer {record['answer']}, outcome {outcome}"
    if seen["rewritten"]:
        assert outcome.get("updated_input") is not None, where
    else:
        assert outcome.get("proceed") is seen["tool_ran"], where
        assert outcome.get("updated_input") is None, where
    if not seen["tool_ran"] and TOKEN in seen["tokens_reached_model"]:
        assert TOKEN in (outcome.get("reason_for_model") or ""), where


def test_the_replay_covers_every_kind_of_answer() -> None:
    cells = {r["cell"] for r in _cells()}
    for needed in ("claude-deny", "claude-ask", "claude-rewrite", "exit2-stderr", "exit3-stderr"):
        assert needed in cells
    assert "slow" in cells and "top-block" in cells
